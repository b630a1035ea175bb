/* Damaged inputs (issue #25; docs/sweeps.md, "A damaged folder"): a sweep
 * folder whose journal and summary.csv disagree, files that are not regular
 * files, numbers no timer can give, kernel files cut short.  Each is
 * refused with its exit code before anything is changed, and nothing waits
 * on a FIFO.  The folders are made by the harness's own writers
 * (tests/result_fixture.c); the commands run as a user runs them. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <elf.h>
#include <stdint.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/analysis/published_layout.h"
#include "bench/candidate/candidate_set.h"
#include "bench/candidate/cubin_elf.h"
#include "bench/candidate/kernel_image.h"
#include "bench/candidate/library_image.h"
#include "bench/core/diag.h"
#include "bench/sweep/merge.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/sweep_store.h"
#include "tests/cli_test_util.h"
#include "tests/result_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024
#define ITEMS 12 /* 6 sizes x 2 modes */

/* --- the folders --------------------------------------------------------------------- */

static const char *build_dir(void)
{
    const char *build = getenv("HB_BUILD");
    return build && *build ? build : "build";
}

static void candidate_manifest(char *out, size_t size)
{
    snprintf(out, size, "%s/candidates/sample_mma/manifest.json", build_dir());
}

/* A sweep folder of ITEMS items, `done` of them finished, in root/name. */
static void make_sweep(const char *root, const char *name, size_t shard_index, size_t shard_count, size_t done,
                       char *folder)
{
    static hb_fixture fixture;
    const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    char candidate[PATH];
    candidate_manifest(candidate, sizeof candidate);
    snprintf(folder, PATH, "%s/%s", root, name);
    assert_int_equal(hb_fixture_make(25, ITEMS / 2, modes, 2, 0.2, &fixture), HB_OK);
    assert_int_equal(hb_fixture_write_sweep(&fixture, folder, candidate, shard_index, shard_count, done, "Test GPU"),
                     HB_OK);
    hb_fixture_free(&fixture);
}

static void path_in(char *out, const char *folder, const char *name)
{
    if ((size_t)snprintf(out, PATH, "%s/%s", folder, name) >= PATH)
        fail_msg("path too long: %s/%s", folder, name);
}

/* FNV-1a over every entry's name, kind and bytes: a folder's state, to show it unchanged. */
static unsigned long long digest;
static int digest_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    for (const char *p = path; *p; p++)
        digest = (digest ^ (unsigned char)*p) * 1099511628211ULL;
    digest = (digest ^ (unsigned)type ^ (unsigned)st->st_mode) * 1099511628211ULL;
    if (type == FTW_F && S_ISREG(st->st_mode)) {
        FILE *f = fopen(path, "rb");
        int c;
        while (f && (c = getc(f)) != EOF)
            digest = (digest ^ (unsigned)c) * 1099511628211ULL;
        if (f)
            fclose(f);
    }
    return 0;
}

static unsigned long long folder_digest(const char *folder)
{
    digest = 1469598103934665603ULL;
    assert_int_equal(nftw(folder, digest_entry, 16, FTW_PHYS), 0);
    return digest;
}

/* Runs `hgemm-bench ARGS` (at most 30 s: a FIFO must not hang it); its exit
 * code, its stderr into err. */
static int bench(const char *root, const char *args, char **err)
{
    char command[8 * PATH], err_path[PATH + 16];
    snprintf(err_path, sizeof err_path, "%s.stderr", root); /* beside the folder, which must stay as it was */
    snprintf(command, sizeof command, "timeout -s KILL 30 %s %s >/dev/null 2>%s", hb_test_bench(), args, err_path);
    int rc = hb_test_shell(command);
    if (err)
        *err = hb_test_read_file(err_path);
    unlink(err_path);
    return rc;
}

/* `args` exits `code`, says `needle` on stderr, and leaves `watched` as it was. */
static void expect_refused(const char *root, const char *watched, const char *args, int code, const char *needle)
{
    unsigned long long before = folder_digest(watched);
    char *err = NULL;
    int rc = bench(root, args, &err);
    if (rc != code || (needle && (!err || !strstr(err, needle))))
        fail_msg("'%s' exited %d (wanted %d) saying: %s (wanted '%s')", args, rc, code, err ? err : "", needle);
    if (folder_digest(watched) != before)
        fail_msg("'%s' changed %s", args, watched);
    free(err);
}

static char *read_all(const char *path)
{
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    return text;
}

static void write_all(const char *path, const char *text, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* The journal's lines, as an array of strings pointing into `text`. */
static size_t split_lines(char *text, char **lines, size_t max)
{
    size_t n = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save))
        lines[n++] = line;
    return n;
}

static void write_lines(const char *path, char **lines, size_t n)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\n", lines[i]);
    assert_int_equal(fclose(f), 0);
}

/* Replaces the number after `"key":` in the journal's line `index` (0-based; -1: the last). */
static void set_journal_number(const char *folder, long index, const char *key, const char *value)
{
    char path[PATH], *lines[64], edited[4096];
    path_in(path, folder, HB_JOURNAL_NAME);
    char *text = read_all(path);
    size_t n = split_lines(text, lines, 64);
    size_t at = index < 0 ? n - 1 : (size_t)index;
    char needle[64];
    snprintf(needle, sizeof needle, "\"%s\":", key);
    char *field = strstr(lines[at], needle);
    assert_non_null(field);
    char *number = field + strlen(needle), *end = number;
    while (*end == '-' || (*end >= '0' && *end <= '9'))
        end++;
    snprintf(edited, sizeof edited, "%.*s%s%s", (int)(number - lines[at]), lines[at], value, end);
    lines[at] = edited;
    write_lines(path, lines, n);
    free(text);
}

/* --- resume ----------------------------------------------------------------------------- */

static void test_damage_resume_refuses_a_folder_without_its_journal(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], path[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    make_sweep(root, "s", 0, 1, ITEMS, folder);
    path_in(path, folder, HB_JOURNAL_NAME);
    assert_int_equal(unlink(path), 0);
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    expect_refused(root, folder, args, 11, "no journal.jsonl");
    hb_test_remove_tree(root);
}

static void test_damage_resume_refuses_journal_lines_out_of_order(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], path[PATH], args[4 * PATH], *lines[64];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    /* two lines swapped: the later item's rows would be cut as "in flight" */
    make_sweep(root, "swapped", 0, 1, ITEMS, folder);
    path_in(path, folder, HB_JOURNAL_NAME);
    char *text = read_all(path);
    size_t n = split_lines(text, lines, 64);
    assert_int_equal(n, ITEMS);
    char *kept = lines[4];
    lines[4] = lines[5];
    lines[5] = kept;
    write_lines(path, lines, n);
    free(text);
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    expect_refused(root, folder, args, 11, "journal.jsonl:6:");
    /* a last line whose csv_end lies in the header */
    make_sweep(root, "ten", 0, 1, ITEMS, folder);
    set_journal_number(folder, -1, "csv_end", "10");
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    expect_refused(root, folder, args, 11, "csv_end 10");
    /* a NUL byte after a number, which the JSON parser would skip without a word */
    make_sweep(root, "nul", 0, 1, ITEMS, folder);
    path_in(path, folder, HB_JOURNAL_NAME);
    text = read_all(path);
    size_t size = strlen(text);
    char *third = strchr(strchr(text, '\n') + 1, '\n') + 1, *field = strstr(third, "\"csv_end\":");
    assert_non_null(field);
    char *digits_end = field + strlen("\"csv_end\":");
    while (*digits_end >= '0' && *digits_end <= '9')
        digits_end++;
    char *with_nul = malloc(size + 1);
    assert_non_null(with_nul);
    const size_t at = (size_t)(digits_end - text);
    memcpy(with_nul, text, at);
    with_nul[at] = '\0';
    memcpy(with_nul + at + 1, text + at, size - at);
    write_all(path, with_nul, size + 1);
    free(with_nul);
    free(text);
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    expect_refused(root, folder, args, 11, "journal.jsonl:3:");
    /* a last csv_end past the end of summary.csv */
    make_sweep(root, "past", 0, 1, ITEMS, folder);
    set_journal_number(folder, -1, "csv_end", "99999999");
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    expect_refused(root, folder, args, 11, "cut short");
    hb_test_remove_tree(root);
}

static void test_damage_resume_refuses_statuses_out_of_range(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    const char *const statuses[] = {"256", "-1", "13000"};
    for (size_t i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "status-%zu", i);
        make_sweep(root, name, 0, 1, ITEMS, folder);
        set_journal_number(folder, 3, "status", statuses[i]);
        snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
        expect_refused(root, folder, args, 11, "journal.jsonl:4:");
    }
    hb_test_remove_tree(root);
}

/* Rows past the last journal line: one item's are the item in flight, cut
 * (only they); two items' mean the journal lost lines, refused. */
static void test_damage_resume_cuts_only_the_item_in_flight(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], journal[PATH], csv[PATH], args[4 * PATH], *lines[64];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    make_sweep(root, "lost-two", 0, 1, ITEMS, folder);
    path_in(journal, folder, HB_JOURNAL_NAME);
    char *text = read_all(journal);
    size_t n = split_lines(text, lines, 64);
    write_lines(journal, lines, n - 2);
    free(text);
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    expect_refused(root, folder, args, 11, "more than one configuration");

    make_sweep(root, "lost-one", 0, 1, ITEMS, folder);
    path_in(journal, folder, HB_JOURNAL_NAME);
    path_in(csv, folder, "summary.csv");
    text = read_all(journal);
    n = split_lines(text, lines, 64);
    write_lines(journal, lines, n - 1);
    free(text);
    char *before = read_all(csv);
    static hb_plan_file plan;
    static hb_sweep_store store;
    assert_int_equal(hb_plan_file_read(folder, &plan), HB_OK);
    quiet_stderr(); /* it says what it drops */
    assert_int_equal(hb_sweep_store_open(&store, folder, &plan), HB_OK);
    char *opened = read_all(csv);
    assert_string_equal(opened, before); /* opening changes nothing: a resume without a GPU leaves it */
    free(opened);
    assert_int_equal(hb_sweep_store_drop_in_flight(&store), HB_OK);
    restore_stderr();
    assert_int_equal(store.count, ITEMS - 1);
    long long vouched = store.entries[ITEMS - 2].csv_end;
    hb_sweep_store_close(&store);
    char *after = read_all(csv);
    assert_int_equal((long long)strlen(after), vouched);
    assert_memory_equal(before, after, (size_t)vouched); /* every finished item's rows, untouched */
    free(before);
    free(after);
    hb_test_remove_tree(root);
}

/* A usage error is found before the folder is made. */
static void test_damage_sweep_usage_errors_write_nothing(void **state)
{
    (void)state;
    char root[PATH], candidate[PATH], out[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    candidate_manifest(candidate, sizeof candidate);
    path_in(out, root, "D");
    const char *const lists[] = {"0,0", "0,x", "-1"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "sweep --candidate %s --mnk 64,64,64 --devices %s --out %s --no-progress",
                 candidate, lists[i], out);
        expect_refused(root, root, args, 2, "--devices");
        struct stat st;
        assert_int_not_equal(stat(out, &st), 0);
    }
    hb_test_remove_tree(root);
}

/* --- merge ---------------------------------------------------------------------------- */

static void test_damage_merge_refuses_disagreeing_shards(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], other[PATH], out[PATH], args[4 * PATH], env[PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    make_sweep(root, "shard0", 0, 2, ITEMS, folder);
    make_sweep(root, "shard1", 1, 2, ITEMS, other);
    path_in(out, root, "merged");
    snprintf(args, sizeof args, "merge %s %s %s", out, folder, other);
    assert_int_equal(bench(root, args, NULL), 0);
    hb_test_remove_tree(out);
    /* a line other than the last whose rows end past the file: the next line is out of order */
    set_journal_number(other, 1, "csv_end", "99999999");
    expect_refused(root, root, args, 11, "not past line 2's");
    /* the last line's: summary.csv is shorter than the journal vouches for */
    make_sweep(root, "shard1-again", 1, 2, ITEMS, other);
    set_journal_number(other, -1, "csv_end", "99999999");
    snprintf(args, sizeof args, "merge %s %s %s", out, folder, other);
    expect_refused(root, root, args, 11, "cut short");
    /* an env.json that is not JSON: refused, not copied into the merge */
    make_sweep(root, "shard1-third", 1, 2, ITEMS, other);
    path_in(env, other, "env.json");
    write_all(env, "garbage{", 8);
    snprintf(args, sizeof args, "merge %s %s %s", out, other, folder);
    expect_refused(root, root, args, 11, "env.json");
    /* and by the merge itself, not only by the read before it */
    const char *pair[] = {other, folder};
    char direct[PATH];
    path_in(direct, root, "merged-direct");
    hb_test_capture capture;
    FILE *said = hb_test_capture_open(&capture);
    hb_diag_set_quiet(1);
    assert_int_equal(hb_sweep_merge(direct, pair, 2, said), HB_ERR_BAD_RESULTS);
    hb_diag_set_quiet(0);
    free(hb_test_capture_close(&capture));
    assert_non_null(strstr(hb_last_error(), "env.json"));
    struct stat st;
    assert_int_not_equal(stat(direct, &st), 0);
    /* a row the journal vouches for, damaged in place (its length kept): merge would copy
     * it byte for byte into a folder report refuses; it is refused first */
    make_sweep(root, "shard1-fourth", 1, 2, ITEMS, other);
    char csv[PATH];
    path_in(csv, other, "summary.csv");
    char *text = read_all(csv), *line3 = strchr(strchr(text, '\n') + 1, '\n') + 1;
    char *m = strchr(line3, ',') + 1; /* run_id, then m */
    for (; *m >= '0' && *m <= '9'; m++)
        *m = 'x';
    write_all(csv, text, strlen(text));
    free(text);
    snprintf(args, sizeof args, "merge %s %s %s", out, folder, other);
    expect_refused(root, root, args, 11, "summary.csv:3");
    hb_test_remove_tree(root);
}

/* --- files that are not regular files ----------------------------------------------------- */

static void replace_by(const char *path, char kind)
{
    unlink(path);
    if (kind == 'p')
        assert_int_equal(mkfifo(path, 0644), 0);
    else if (kind == 'd')
        assert_int_equal(mkdir(path, 0755), 0);
    else
        assert_int_equal(symlink(strrchr(path, '/') + 1, path), 0); /* a link to itself: a loop */
}

static void test_damage_sweep_files_that_are_not_files(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], path[PATH], out[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    const char *const names[] = {"plan.json", HB_JOURNAL_NAME, "summary.csv", "env.json"};
    const char kinds[] = {'p', 'd', 'l'};
    for (size_t i = 0; i < 4; i++)
        for (size_t k = 0; k < 3; k++) {
            char name[64];
            snprintf(name, sizeof name, "s-%zu-%zu", i, k);
            make_sweep(root, name, 0, 1, ITEMS, folder);
            path_in(path, folder, names[i]);
            replace_by(path, kinds[k]);
            path_in(out, root, "merged");
            snprintf(args, sizeof args, "merge %s %s", out, folder);
            expect_refused(root, root, args, 11, names[i]);
            if (strcmp(names[i], "env.json")) { /* a resume reads no env.json */
                snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
                expect_refused(root, folder, args, 11, names[i]);
                snprintf(args, sizeof args, "report %s", folder);
                expect_refused(root, folder, args, 11, names[i]);
            }
        }
    hb_test_remove_tree(root);
}

static void test_damage_inputs_that_are_not_files(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], fifo[PATH], dir[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    make_sweep(root, "s", 0, 1, ITEMS, folder);
    path_in(fifo, root, "p_offline.csv");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    snprintf(args, sizeof args, "compare %s --published %s", folder, fifo);
    expect_refused(root, root, args, 11, "FIFO");
    snprintf(args, sizeof args, "compare %s --published /dev/zero --mode offline", folder);
    expect_refused(root, root, args, 11, "character device");
    path_in(dir, root, "d_offline.csv");
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(args, sizeof args, "compare %s --published %s", folder, dir);
    expect_refused(root, root, args, 11, "a folder");
    snprintf(args, sizeof args, "sweep --candidate x --mnk-file %s --dry-run", fifo);
    expect_refused(root, root, args, 2, "FIFO");
    /* a kernel file or a launcher library that is a FIFO: bad input before the GPU */
    const char *const kinds[] = {"sample_mma", "sample_mma_launcher"};
    for (size_t i = 0; i < 2; i++) {
        char set[PATH], command[8 * PATH], out[PATH];
        path_in(set, root, kinds[i]);
        snprintf(command, sizeof command, "cp -r %s/candidates/%s %s && for f in %s/*.cubin %s/*.so; do "
                 "[ -e \"$f\" ] && rm \"$f\" && mkfifo \"$f\"; done; true", build_dir(), kinds[i], set, set, set);
        assert_int_equal(hb_test_shell(command), 0);
        path_in(out, root, "out");
        snprintf(args, sizeof args, "check --candidate %s/manifest.json --mnk 64,64,64 --no-progress --out %s", set,
                 out);
        expect_refused(root, set, args, 3, "FIFO");
    }
    hb_test_remove_tree(root);
}

/* --- report ------------------------------------------------------------------------------ */

static void test_damage_report_holds_summary_to_its_journal(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], csv[PATH], args[4 * PATH], *err = NULL;
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    make_sweep(root, "cut", 0, 1, ITEMS, folder);
    path_in(csv, folder, "summary.csv");
    char *text = read_all(csv);
    /* cut at a line end inside the last item's rows: every row whole, one configuration short */
    size_t size = strlen(text), cut = size - 2;
    while (text[cut - 1] != '\n')
        cut--;
    write_all(csv, text, cut);
    snprintf(args, sizeof args, "report %s", folder);
    expect_refused(root, folder, args, 11, "journal.jsonl:12");
    /* rows of an item in flight after the last journal line: left out, and said */
    write_all(csv, text, size);
    FILE *f = fopen(csv, "a");
    assert_non_null(f);
    const char *in_flight = strstr(text, "\n") + 1; /* the first item's first row again, as a row in flight */
    fwrite(in_flight, 1, (size_t)(strchr(in_flight, '\n') + 1 - in_flight), f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(bench(root, args, &err), 0);
    free(err);
    free(text);
    hb_test_remove_tree(root);
}

/* A run's folder (no journal): numbers and bytes the harness never writes. */
static void test_damage_report_refuses_what_no_run_writes(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], csv[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    static hb_fixture fixture;
    const hb_mode modes[] = {HB_MODE_OFFLINE};
    assert_int_equal(hb_fixture_make(7, 6, modes, 1, 0.0, &fixture), HB_OK);
    path_in(folder, root, "run");
    assert_int_equal(hb_fixture_write_run(&fixture, 0, fixture.count, folder, "Test GPU"), HB_OK);
    hb_fixture_free(&fixture);
    path_in(csv, folder, "summary.csv");
    char *text = read_all(csv);
    size_t size = strlen(text);
    snprintf(args, sizeof args, "report %s", folder);
    assert_int_equal(bench(root, args, NULL), 0);
    /* where line 3 (a baseline's row) holds its speedup_paper */
    char *line2 = strchr(text, '\n') + 1, *line3 = strchr(line2, '\n') + 1;
    char header[8192];
    snprintf(header, sizeof header, "%.*s", (int)(line2 - text - 1), text);
    int column = 0, wanted = -1;
    for (char *save = NULL, *name = strtok_r(header, ",", &save); name; name = strtok_r(NULL, ",", &save), column++)
        if (!strcmp(name, "speedup_paper"))
            wanted = column;
    assert_true(wanted > 0);
    char *field = line3;
    for (int c = 0; c < wanted; c++)
        field = strchr(field, ',') + 1;
    char *field_end = strchr(field, ',');
    assert_true(field_end - field >= 2);
    const size_t head = (size_t)(field - text);
    char *edited = malloc(size + 64);
    assert_non_null(edited);
    /* a speedup no timer gives: its mean would be +inf */
    snprintf(edited, size + 64, "%.*s1.7e308%s", (int)head, text, field_end);
    write_all(csv, edited, strlen(edited));
    expect_refused(root, folder, args, 11, "speedup_paper");
    /* a NUL byte inside a field: "1\0 2" must not read as 1 */
    memcpy(edited, text, size);
    edited[head + 1] = '\0';
    write_all(csv, edited, size);
    expect_refused(root, folder, args, 11, "NUL byte");
    /* a byte-order mark: named, not shown as an invisible character */
    memcpy(edited, "\xef\xbb\xbf", 3);
    memcpy(edited + 3, text, size);
    write_all(csv, edited, size + 3);
    expect_refused(root, folder, args, 11, "byte-order mark");
    free(edited);
    free(text);
    hb_test_remove_tree(root);
}

/* A sweep that has not begun (only plan.json) and a published file with no rows: reports, no UB. */
static void test_damage_empty_inputs_read(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], plan_only[PATH], path[PATH], published[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    make_sweep(root, "s", 0, 1, ITEMS, folder);
    path_in(plan_only, root, "plan-only");
    assert_int_equal(mkdir(plan_only, 0755), 0);
    char command[3 * PATH];
    snprintf(command, sizeof command, "cp %s/plan.json %s/", folder, plan_only);
    assert_int_equal(hb_test_shell(command), 0);
    snprintf(args, sizeof args, "report %s", plan_only);
    assert_int_equal(bench(root, args, NULL), 0);
    path_in(published, root, "empty_offline.csv");
    snprintf(path, sizeof path, "%s\n", hb_published_header());
    write_all(published, path, strlen(path));
    snprintf(args, sizeof args, "compare %s --published %s", folder, published);
    assert_int_equal(bench(root, args, NULL), 0);
    /* a published file saved with a byte-order mark reads as without */
    char text[PATH];
    snprintf(text, sizeof text, "\xef\xbb\xbf%s\n64_64_64,1.5,1,1,1,1,1,1,1,1,1\n", hb_published_header());
    write_all(published, text, strlen(text));
    static hb_published_table table;
    assert_int_equal(hb_read_published(published, &table), HB_OK);
    assert_int_equal(table.count, 1);
    hb_published_free(&table);
    /* a speedup of 1e300 in a published file: refused */
    snprintf(text, sizeof text, "%s\n64_64_64,1e300,1,1,1,1,1,1,1,1,1\n", hb_published_header());
    write_all(published, text, strlen(text));
    hb_diag_set_quiet(1);
    assert_int_equal(hb_read_published(published, &table), HB_ERR_BAD_RESULTS);
    hb_diag_set_quiet(0);
    hb_published_free(&table);
    hb_test_remove_tree(root);
}

/* --- the verdict comes from summary.csv --------------------------------------------------- */

/* How an item ended, as a run records it. */
typedef struct outcome {
    hb_verdict verdict;
    hb_status status;
    const char *check;
} outcome;

/* A sweep folder of ITEMS items (shard `shard_index` of `shard_count`, every
 * item of it finished), item i ending as outcomes[i]: its candidate row and
 * journal line say so, through the harness's own writers.  A crash or a
 * timeout leaves the candidate's row alone, as a dead child does. */
static void make_sweep_of_items(const char *root, const char *name, const outcome *outcomes, size_t items,
                                size_t shard_index, size_t shard_count, char *folder)
{
    static hb_fixture fixture;
    const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    char candidate[PATH];
    candidate_manifest(candidate, sizeof candidate);
    snprintf(folder, PATH, "%s/%s", root, name);
    assert_int_equal(hb_fixture_make(25, items / 2, modes, 2, 0.0, &fixture), HB_OK);
    for (size_t i = 0; i < items; i++) {
        hb_config_result *r = fixture.configs[i].result;
        r->verdict = outcomes[i].verdict;
        r->status = outcomes[i].status;
        snprintf(r->check, sizeof r->check, "%s", outcomes[i].check);
        /* quoted in the CSV (a comma, quotes, a line break), and ending in a space, which a CSV reader that trims
         * would lose */
        snprintf(r->reason, sizeof r->reason, r->verdict == HB_VERDICT_PASS ? "" : "item %zu, \"%s\"\nsecond line ",
                 i, hb_verdict_name(r->verdict));
        if (r->verdict == HB_VERDICT_CRASHED || r->verdict == HB_VERDICT_TIMED_OUT)
            r->count = 1;
        assert_int_equal(hb_fixture_rewrite(&fixture.configs[i]), HB_OK);
    }
    assert_int_equal(hb_fixture_write_sweep(&fixture, folder, candidate, shard_index, shard_count, items, "Test GPU"),
                     HB_OK);
    hb_fixture_free(&fixture);
}

static void make_sweep_of(const char *root, const char *name, const outcome *outcomes, size_t shard_index,
                          size_t shard_count, char *folder)
{
    make_sweep_of_items(root, name, outcomes, ITEMS, shard_index, shard_count, folder);
}

/* Sets `key` to `value` (owned) in the journal's line `index` (0-based; -1: every line). */
static void set_journal_field(const char *folder, long index, const char *key, json_t *value)
{
    char path[PATH], *lines[64];
    path_in(path, folder, HB_JOURNAL_NAME);
    char *text = read_all(path);
    size_t n = split_lines(text, lines, 64);
    char *edited[64] = {0};
    for (size_t i = 0; i < n; i++) {
        if (index >= 0 && (size_t)index != i)
            continue;
        json_t *line = json_loads(lines[i], 0, NULL);
        assert_non_null(line);
        assert_int_equal(json_object_set(line, key, value), 0);
        edited[i] = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER);
        assert_non_null(edited[i]);
        lines[i] = edited[i];
        json_decref(line);
    }
    write_lines(path, lines, n);
    for (size_t i = 0; i < n; i++)
        free(edited[i]);
    json_decref(value);
    free(text);
}

/* The summary.csv line `line` (1-based) begins with `prefix`. */
static void expect_csv_line(const char *folder, long line, const char *prefix)
{
    char path[PATH];
    path_in(path, folder, "summary.csv");
    char *text = read_all(path), *at = text;
    for (long l = 1; l < line && at; l++)
        at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL;
    if (!at || strncmp(at, prefix, strlen(prefix)))
        fail_msg("summary.csv:%ld does not begin with '%s': %.120s", line, prefix, at ? at : "(no such line)");
    free(text);
}

/* Items 1, 4, 7 and 10 failed: a wrong result, a crash, a hang and the harness's own CUDA failure. */
static const outcome with_failures[ITEMS] = {
    {HB_VERDICT_PASS, HB_OK, ""},
    {HB_VERDICT_INCORRECT, HB_ERR_INCORRECT, "deviation"},
    {HB_VERDICT_PASS, HB_OK, ""},
    {HB_VERDICT_PASS, HB_OK, ""},
    {HB_VERDICT_CRASHED, HB_ERR_CANDIDATE_FAULT, "execution"},
    {HB_VERDICT_PASS, HB_OK, ""},
    {HB_VERDICT_PASS, HB_OK, ""},
    {HB_VERDICT_TIMED_OUT, HB_ERR_CANDIDATE_FAULT, "timeout"},
    {HB_VERDICT_PASS, HB_OK, ""},
    {HB_VERDICT_PASS, HB_OK, ""},
    {HB_VERDICT_ERROR, HB_ERR_CUDA, ""},
    {HB_VERDICT_PASS, HB_OK, ""},
};

/* verdict.json of `folder`: exit code `code` named `status`, the counts of
 * `outcomes`, and each failed item with its verdict, check and reason. */
static void expect_verdict_of(const char *folder, const outcome *outcomes, size_t items, int code,
                             const char *status)
{
    char path[PATH];
    path_in(path, folder, "verdict.json");
    json_t *doc = hb_test_load_json(path);
    assert_int_equal(json_integer_value(json_object_get(doc, "exit_code")), code);
    assert_string_equal(json_string_value(json_object_get(doc, "status")), status);
    assert_true(json_is_true(json_object_get(doc, "complete")));
    json_t *counts = json_object_get(doc, "counts"), *failures = json_object_get(doc, "failures");
    size_t failed = 0;
    for (size_t i = 0; i < items; i++) {
        const char *name = hb_verdict_name(outcomes[i].verdict);
        json_int_t expected = 0;
        for (size_t j = 0; j < items; j++)
            expected += outcomes[j].verdict == outcomes[i].verdict;
        if (json_integer_value(json_object_get(counts, name)) != expected)
            fail_msg("verdict.json counts %lld %s, not %lld", (long long)json_integer_value(json_object_get(counts,
                     name)), name, (long long)expected);
        if (outcomes[i].status == HB_OK)
            continue;
        char reason[128];
        snprintf(reason, sizeof reason, "item %zu, \"%s\"\nsecond line ", i, name);
        json_t *f = NULL;
        for (size_t k = 0; k < json_array_size(failures); k++)
            if (json_integer_value(json_object_get(json_array_get(failures, k), "item")) == (json_int_t)i)
                f = json_array_get(failures, k);
        if (!f)
            fail_msg("verdict.json lists no failure for item %zu (%s)", i, name);
        assert_string_equal(json_string_value(json_object_get(f, "verdict")), name);
        assert_string_equal(json_string_value(json_object_get(f, "check")), outcomes[i].check);
        assert_string_equal(json_string_value(json_object_get(f, "reason")), reason);
        failed++;
    }
    assert_int_equal(json_array_size(failures), failed);
    json_decref(doc);
}

static void expect_verdict_file(const char *folder, const outcome *outcomes, int code, const char *status)
{
    expect_verdict_of(folder, outcomes, ITEMS, code, status);
}

/* The case: every journal line set to status 0 and verdict "pass" on
 * a folder whose summary.csv holds failures.  resume, merge and report
 * refuse it, naming the journal line and the summary.csv line, and change
 * nothing; so do a status alone edited, and a verdict edited in summary.csv. */
static void test_damage_journal_that_says_pass_is_refused(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], out[PATH], args[4 * PATH], *err = NULL;
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    make_sweep_of(root, "s", with_failures, 0, 1, folder);
    set_journal_field(folder, -1, "status", json_integer(0));
    set_journal_field(folder, -1, "verdict", json_string("pass"));
    set_journal_field(folder, -1, "check", json_string(""));
    set_journal_field(folder, -1, "reason", json_string(""));
    /* item 1 is the first to fail: journal line 2 */
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    unsigned long long before = folder_digest(folder);
    assert_int_equal(bench(root, args, &err), 11);
    assert_int_equal(folder_digest(folder), before);
    char *said = strstr(err, HB_JOURNAL_NAME ":2 says item 1 (");
    if (!said || !strstr(said, ") passed; ") || !strstr(said, "summary.csv:") ||
        !strstr(said, " says incorrect (deviation): the folder was edited or damaged"))
        fail_msg("resume said: %s", err);
    long line = strtol(strstr(said, "summary.csv:") + strlen("summary.csv:"), NULL, 10);
    /* the line named is item 1's candidate row, which says so */
    static hb_plan_file plan;
    assert_int_equal(hb_plan_file_read(folder, &plan), HB_OK);
    char row[128];
    const hb_mnk *c = &plan.plan.configs[hb_plan_item_at(&plan.plan, 1).config];
    snprintf(row, sizeof row, "%s,%ld,%ld,%ld,candidate,candidate,incorrect,deviation,", plan.sweep_id, c->m, c->n,
             c->k);
    expect_csv_line(folder, line, row);
    char refusal[256];
    snprintf(refusal, sizeof refusal, "%.*s", (int)(strstr(said, ": the folder") - said), said);
    free(err);
    path_in(out, root, "merged");
    snprintf(args, sizeof args, "merge %s %s", out, folder);
    expect_refused(root, root, args, 11, refusal);
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0);
    snprintf(args, sizeof args, "report %s", folder);
    expect_refused(root, folder, args, 11, refusal);

    /* the status alone set to 0: the line contradicts its own verdict */
    make_sweep_of(root, "status", with_failures, 0, 1, folder);
    set_journal_field(folder, 4, "status", json_integer(0));
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    expect_refused(root, folder, args, 11, "status 0 (ok) is not one a configuration with verdict crashed ends with");
    expect_refused(root, folder, args, 11, HB_JOURNAL_NAME ":5:");

    /* summary.csv edited instead, in place and at the same length: the journal still says timed-out */
    make_sweep_of(root, "row", with_failures, 0, 1, folder);
    char csv[PATH];
    path_in(csv, folder, "summary.csv");
    char *text = read_all(csv), *verdict = strstr(text, ",candidate,timed-out,timeout,");
    assert_non_null(verdict);
    memcpy(verdict + strlen(",candidate,"), "incorrect", strlen("incorrect"));
    write_all(csv, text, strlen(text));
    free(text);
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    unsigned long long before_edit = folder_digest(folder);
    assert_int_equal(bench(root, args, &err), 11);
    assert_int_equal(folder_digest(folder), before_edit);
    said = strstr(err, HB_JOURNAL_NAME ":8 says item 7 (");
    if (!said || !strstr(said, ") timed-out (timeout); ") ||
        !strstr(said, " says incorrect (timeout): the folder was edited or damaged"))
        fail_msg("resume said: %s", err);
    free(err);
    hb_test_remove_tree(root);
}

/* An honest folder with failures: resume (nothing left to run) and merge
 * write the verdict its summary.csv holds, and exit with its worst status. */
static void test_damage_honest_failures_make_the_verdict(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], shards[2][PATH], out[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    make_sweep_of(root, "s", with_failures, 0, 1, folder);
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    /* the harness's CUDA failure (item 10) is the most severe: 5, cuda-error, as the journal recorded it */
    assert_int_equal(bench(root, args, NULL), 5);
    expect_verdict_file(folder, with_failures, 5, "cuda-error");
    make_sweep_of(root, "shard0", with_failures, 0, 2, shards[0]);
    make_sweep_of(root, "shard1", with_failures, 1, 2, shards[1]);
    path_in(out, root, "merged");
    snprintf(args, sizeof args, "merge %s %s %s", out, shards[1], shards[0]);
    assert_int_equal(bench(root, args, NULL), 0);
    expect_verdict_file(out, with_failures, 5, "cuda-error");
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", out);
    assert_int_equal(bench(root, args, NULL), 5);
    expect_verdict_file(out, with_failures, 5, "cuda-error");
    /* without the CUDA failure the candidate's own verdicts decide: a crash and a hang outrank a wrong result */
    outcome no_harness_fault[ITEMS];
    memcpy(no_harness_fault, with_failures, sizeof no_harness_fault);
    no_harness_fault[10] = (outcome){HB_VERDICT_PASS, HB_OK, ""};
    make_sweep_of(root, "t", no_harness_fault, 0, 1, folder);
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    assert_int_equal(bench(root, args, NULL), 8);
    expect_verdict_file(folder, no_harness_fault, 8, "candidate-fault");
    hb_test_remove_tree(root);
}

/* Every verdict, one item each, with the status a run records with it:
 * the folder reads back (the verdict.json counts each once; the exit code
 * is the harness's error, the most severe), and each line whose status is
 * changed to one its verdict does not go with is refused. */
static void test_damage_every_verdict_reads_back(void **state)
{
    (void)state;
    enum { EVERY = 14 }; /* 7 sizes x 2 modes: room for every verdict */
    static const outcome every[EVERY] = {
        {HB_VERDICT_PASS, HB_OK, ""},
        {HB_VERDICT_TOO_SLOW, HB_ERR_TOO_SLOW, "speedup"},
        {HB_VERDICT_UNSUPPORTED, HB_ERR_UNSUPPORTED, ""},
        {HB_VERDICT_INCORRECT, HB_ERR_INCORRECT, "deviation"},
        {HB_VERDICT_CRASHED, HB_ERR_CANDIDATE_FAULT, "execution"},
        {HB_VERDICT_TIMED_OUT, HB_ERR_CANDIDATE_FAULT, "timeout"},
        {HB_VERDICT_BAD_INPUT, HB_ERR_BAD_INPUT, ""},
        {HB_VERDICT_ERROR, HB_ERR_CUDA, ""},
        {HB_VERDICT_IMPLAUSIBLE, HB_ERR_IMPLAUSIBLE, "peak-throughput"},
        {HB_VERDICT_FORBIDDEN, HB_ERR_FORBIDDEN, "conduct"},
        {HB_VERDICT_TIMER_MISMATCH, HB_ERR_TIMER_MISMATCH, "timer-cross-check"},
        {HB_VERDICT_UNDECIDED, HB_ERR_TOO_SLOW, "speedup"},
        {HB_VERDICT_BASELINE_INTERFERENCE, HB_ERR_BASELINE_INTERFERENCE, "baseline-times"},
        {HB_VERDICT_PASS, HB_OK, ""},
    };
    for (int v = 0; v < HB_VERDICT_COUNT; v++) { /* every verdict has its item */
        int listed = 0;
        for (size_t i = 0; i < EVERY; i++)
            listed |= every[i].verdict == (hb_verdict)v;
        if (!listed)
            fail_msg("no item with the verdict %s", hb_verdict_name((hb_verdict)v));
    }
    char root[PATH], folder[PATH], journal[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    make_sweep_of_items(root, "s", every, EVERY, 0, 1, folder);
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    assert_int_equal(bench(root, args, NULL), 5);
    expect_verdict_of(folder, every, EVERY, 5, "cuda-error");
    path_in(journal, folder, HB_JOURNAL_NAME);
    char *honest = read_all(journal);
    static hb_plan_file plan;
    static hb_sweep_store store;
    assert_int_equal(hb_plan_file_read(folder, &plan), HB_OK);
    for (long i = 0; i < EVERY; i++) {
        set_journal_field(folder, i, "status", json_integer(every[i].status == HB_OK ? HB_ERR_INCORRECT : HB_OK));
        hb_diag_set_quiet(1);
        assert_int_equal(hb_sweep_store_open(&store, folder, &plan), HB_ERR_BAD_RESULTS);
        hb_diag_set_quiet(0);
        hb_sweep_store_close(&store);
        char where[64];
        snprintf(where, sizeof where, HB_JOURNAL_NAME ":%ld:", i + 1);
        if (!strstr(hb_last_error(), where) || !strstr(hb_last_error(), hb_verdict_name(every[i].verdict)))
            fail_msg("item %ld (%s): %s", i, hb_verdict_name(every[i].verdict), hb_last_error());
        write_all(journal, honest, strlen(honest));
    }
    free(honest);
    hb_test_remove_tree(root);
}

/* --- plan.json -------------------------------------------------------------------------- */

static void test_damage_edited_plans_are_refused(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], path[PATH], args[4 * PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    /* the shard, which the sweep_id leaves out */
    make_sweep(root, "shard", 0, 1, ITEMS, folder);
    path_in(path, folder, "plan.json");
    char *text = read_all(path), *shard = strstr(text, "\"shard\": null");
    assert_non_null(shard);
    char edited[1 << 16];
    snprintf(edited, sizeof edited, "%.*s\"shard\": {\"index\": 0, \"count\": 12}%s", (int)(shard - text), text,
             shard + strlen("\"shard\": null"));
    write_all(path, edited, strlen(edited));
    free(text);
    snprintf(args, sizeof args, "sweep --resume %s --no-progress", folder);
    expect_refused(root, folder, args, 11, "plan_sha256");
    /* a configuration changed (in both of its items) and the sweep_id recomputed, as the unkeyed FNV-1a allows */
    static hb_plan_file plan;
    make_sweep(root, "item", 0, 1, 0, folder);
    assert_int_equal(hb_plan_file_read(folder, &plan), HB_OK);
    plan.plan.configs[0].k *= 2;
    hb_plan_file_identify(&plan);
    path_in(path, folder, "plan.json");
    json_t *root_json = hb_test_load_json(path);
    json_t *items = json_object_get(root_json, "items");
    for (size_t i = 0; i < 2; i++)
        json_object_set_new(json_array_get(items, i), "k", json_integer(plan.plan.configs[0].k));
    json_object_set_new(root_json, "sweep_id", json_string(plan.sweep_id));
    assert_int_equal(json_dump_file(root_json, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
    json_decref(root_json);
    hb_diag_set_quiet(1);
    assert_int_equal(hb_plan_file_read(folder, &plan), HB_ERR_BAD_RESULTS);
    hb_diag_set_quiet(0);
    if (!strstr(hb_last_error(), "plan_sha256"))
        fail_msg("refused for another reason: %s", hb_last_error());
    hb_test_remove_tree(root);
}

/* --- kernel files ------------------------------------------------------------------------ */

static void first_file(const char *folder, const char *suffix, char *out)
{
    char command[2 * PATH];
    snprintf(command, sizeof command, "ls %s/*%s | head -n 1", folder, suffix);
    FILE *p = popen(command, "r");
    assert_non_null(p);
    assert_non_null(fgets(out, PATH, p));
    out[strcspn(out, "\n")] = '\0';
    pclose(p);
}

static void copy_cut(const char *from, const char *to, long size)
{
    char command[4 * PATH];
    snprintf(command, sizeof command, "cp %s %s && truncate -s %ld %s", from, to, size, to);
    assert_int_equal(hb_test_shell(command), 0);
}

static long file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (long)st.st_size;
}

static void test_damage_kernel_files_cut_short(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], cubin[PATH], library[PATH], cut[PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    snprintf(folder, sizeof folder, "%s/candidates/sample_mma", build_dir());
    first_file(folder, ".cubin", cubin);
    snprintf(folder, sizeof folder, "%s/candidates/sample_mma_launcher", build_dir());
    first_file(folder, ".so", library);
    assert_int_equal(hb_kernel_image_check(cubin, "m.json"), HB_OK);
    assert_int_equal(hb_library_image_check(library, "m.json"), HB_OK);
    path_in(cut, root, "cut");
    hb_diag_set_quiet(1);
    long sizes[] = {4, 19, 20, 63, 64, 100, file_size(cubin) / 2, file_size(cubin) - 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        copy_cut(cubin, cut, sizes[i]);
        if (hb_kernel_image_check(cut, "m.json") != HB_ERR_BAD_INPUT || strstr(hb_last_error(), "machine -1"))
            fail_msg("a cubin cut to %ld bytes: %s", sizes[i], hb_last_error());
    }
    long library_sizes[] = {19, 63, 64, 1000, file_size(library) / 2, file_size(library) - 1};
    for (size_t i = 0; i < sizeof library_sizes / sizeof library_sizes[0]; i++) {
        copy_cut(library, cut, library_sizes[i]);
        if (hb_library_image_check(cut, "m.json") != HB_ERR_BAD_INPUT ||
            (library_sizes[i] < 64 && !strstr(hb_last_error(), "cut short")))
            fail_msg("a library cut to %ld bytes: %s", library_sizes[i], hb_last_error());
    }
    /* an executable is ET_DYN when position-independent: refused all the same */
    assert_int_equal(hb_library_image_check("/bin/ls", "m.json"), HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), "executable"));
    hb_diag_set_quiet(0);
    hb_test_remove_tree(root);
}

static void test_damage_candidate_set_entry_that_is_a_fifo(void **state)
{
    (void)state;
    char root[PATH], path[PATH], manifest[HB_PATH_MAX];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    path_in(path, root, "generic.json");
    write_all(path, "{}", 2);
    path_in(path, root, "64_64_64.json");
    assert_int_equal(mkfifo(path, 0644), 0);
    hb_diag_set_quiet(1);
    assert_int_equal(hb_candidate_manifest_path(root, 64, 64, 64, manifest), HB_ERR_BAD_INPUT);
    hb_diag_set_quiet(0);
    assert_non_null(strstr(hb_last_error(), "FIFO"));
    assert_int_equal(hb_candidate_manifest_path(root, 128, 64, 64, manifest), HB_OK); /* the others: generic.json */
    hb_test_remove_tree(root);
}

/* 65,535 sections, all writable device memory under one name (.nv.global and
 * its mirror), each larger than the last: the worst case of comparing every
 * pair, which took 22 s (37 s under ASan).  Read in well under a second, the
 * name counted once, at its largest section. */
static void test_damage_cubin_with_65535_sections_reads_fast(void **state)
{
    (void)state;
    enum { SECTIONS = 65535, GLOBAL = 11, MIRROR = 38 }; /* the names' offsets in the table below */
    static const char names[] = "\0.shstrtab\0.nv.global\0.nv.global.init\0.nv.merc.nv.global\0";
    const size_t names_size = sizeof names, header = sizeof(Elf64_Ehdr);
    const size_t table = (header + names_size + 7) & ~(size_t)7;
    const size_t size = table + SECTIONS * sizeof(Elf64_Shdr);
    unsigned char *image = calloc(1, size);
    assert_non_null(image);
    Elf64_Ehdr h = {.e_type = ET_EXEC, .e_machine = EM_CUDA, .e_version = EV_CURRENT, .e_shoff = table,
                    .e_ehsize = sizeof h, .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = SECTIONS, .e_shstrndx = 1};
    memcpy(h.e_ident, ELFMAG, SELFMAG);
    h.e_ident[EI_CLASS] = ELFCLASS64;
    h.e_ident[EI_DATA] = ELFDATA2LSB;
    h.e_ident[EI_VERSION] = EV_CURRENT;
    memcpy(image, &h, sizeof h);
    memcpy(image + header, names, names_size);
    uint64_t largest = 0;
    for (size_t i = 1; i < SECTIONS; i++) {
        Elf64_Shdr sh = {.sh_name = i % 2 ? GLOBAL : MIRROR, .sh_type = SHT_NOBITS,
                         .sh_flags = SHF_ALLOC | SHF_WRITE, .sh_size = i};
        if (i == 1)
            sh = (Elf64_Shdr){.sh_name = 1, .sh_type = SHT_STRTAB, .sh_offset = header, .sh_size = names_size};
        else
            largest = sh.sh_size > largest ? sh.sh_size : largest;
        memcpy(image + table + i * sizeof sh, &sh, sizeof sh);
    }
    char root[PATH], path[PATH];
    hb_test_make_temp_dir("hb-damage", root, sizeof root);
    path_in(path, root, "many.cubin");
    write_all(path, (const char *)image, size);
    free(image);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    hb_module_state s;
    assert_int_equal(hb_cubin_module_state(path, &s), HB_OK);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
    if (seconds > 3.0)
        fail_msg("65,535 sections took %.1f s", seconds);
    assert_int_equal(s.global_bytes, largest); /* one memory under one name: its largest section, once */
    hb_test_remove_tree(root);
}

static const struct CMUnitTest damage_tests[] = {
    cmocka_unit_test(test_damage_resume_refuses_a_folder_without_its_journal),
    cmocka_unit_test(test_damage_resume_refuses_journal_lines_out_of_order),
    cmocka_unit_test(test_damage_resume_refuses_statuses_out_of_range),
    cmocka_unit_test(test_damage_resume_cuts_only_the_item_in_flight),
    cmocka_unit_test(test_damage_sweep_usage_errors_write_nothing),
    cmocka_unit_test(test_damage_merge_refuses_disagreeing_shards),
    cmocka_unit_test(test_damage_sweep_files_that_are_not_files),
    cmocka_unit_test(test_damage_inputs_that_are_not_files),
    cmocka_unit_test(test_damage_report_holds_summary_to_its_journal),
    cmocka_unit_test(test_damage_report_refuses_what_no_run_writes),
    cmocka_unit_test(test_damage_empty_inputs_read),
    cmocka_unit_test(test_damage_journal_that_says_pass_is_refused),
    cmocka_unit_test(test_damage_honest_failures_make_the_verdict),
    cmocka_unit_test(test_damage_every_verdict_reads_back),
    cmocka_unit_test(test_damage_edited_plans_are_refused),
    cmocka_unit_test(test_damage_kernel_files_cut_short),
    cmocka_unit_test(test_damage_candidate_set_entry_that_is_a_fifo),
    cmocka_unit_test(test_damage_cubin_with_65535_sections_reads_fast),
};

hb_test_list hb_damage_tests(void)
{
    return HB_TEST_LIST(damage_tests);
}
