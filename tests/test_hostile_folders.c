/* A result folder from elsewhere is data (docs/results.md, "A folder from
 * elsewhere"): a link planted at a temporary's name or at one of its files
 * makes no write land outside it, a manifest naming its results removes
 * none of them, a second writer stops at once naming the first, a killed
 * publication is finished by the next writer, a FIFO hangs nothing, a full
 * disk publishes nothing, and a resume that finds no GPU leaves the folder
 * as it was.  The folders are made by the harness's own writers
 * (tests/result_fixture.c); the commands run as a user runs them. */
#define _GNU_SOURCE /* setrlimit, mkfifo */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/file_digest.h"
#include "bench/core/folder_lock.h"
#include "bench/core/json_file.h"
#include "bench/result/config_result.h"
#include "tests/result_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024
#define ITEMS 8 /* 4 sizes x 2 modes */

/* --- helpers --------------------------------------------------------------------------------------- */

static void path_in(char *out, const char *folder, const char *name)
{
    if ((size_t)snprintf(out, PATH, "%s/%s", folder, name) >= PATH)
        fail_msg("path too long: %s/%s", folder, name);
}

static int exists(const char *folder, const char *name)
{
    char path[PATH];
    struct stat st;
    path_in(path, folder, name);
    return lstat(path, &st) == 0;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void sha_of(const char *folder, const char *name, char sha[HB_SHA256_HEX])
{
    char path[PATH];
    path_in(path, folder, name);
    assert_int_equal(hb_sha256_file_hex(path, sha), HB_OK);
}

static const char *build_dir(void)
{
    const char *build = getenv("HB_BUILD");
    return build && *build ? build : "build";
}

/* A sweep folder of ITEMS items (the last one's journal line dropped when
 * `in_flight`: its rows are then the rows of an item in flight). */
static void make_sweep(const char *root, const char *name, int in_flight, char *folder)
{
    static hb_fixture fixture;
    const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    char candidate[PATH];
    snprintf(candidate, sizeof candidate, "%s/candidates/sample_mma/manifest.json", build_dir());
    path_in(folder, root, name);
    assert_int_equal(hb_fixture_make(31, ITEMS / 2, modes, 2, 0.25, &fixture), HB_OK);
    assert_int_equal(hb_fixture_write_sweep(&fixture, folder, candidate, 0, 1, ITEMS, "Test GPU"), HB_OK);
    hb_fixture_free(&fixture);
    if (!in_flight)
        return;
    char journal[PATH];
    path_in(journal, folder, "journal.jsonl");
    char *text = hb_test_read_file(journal);
    assert_non_null(text);
    char *last = strrchr(text, '\n');
    assert_non_null(last);
    *last = '\0';
    char *cut = strrchr(text, '\n');
    assert_non_null(cut);
    cut[1] = '\0'; /* the journal without its last line */
    write_text(journal, text);
    free(text);
}

/* A run folder of `count` configurations (both modes) in root/name. */
static void make_run(const char *root, const char *name, uint64_t seed, size_t count, char *folder)
{
    hb_fixture f;
    const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    path_in(folder, root, name);
    assert_int_equal(hb_fixture_make(seed, count, modes, 2, 0.0, &f), HB_OK);
    assert_int_equal(hb_fixture_write_run(&f, 0, f.count, folder, "Test GPU 80GB"), HB_OK);
    hb_fixture_free(&f);
}

/* Runs `binary words...` in a child, stdout to /dev/null, stderr into *err
 * (malloc'd); files it writes past `fsize_limit` bytes fail (0: no limit)
 * as on a full disk; killed after 30 s (a FIFO must not hang it). */
static int run(const char *binary, const char *const *words, rlim_t fsize_limit, char **err)
{
    char err_path[] = "/tmp/hb-hostile-err-XXXXXX";
    int err_fd = mkstemp(err_path);
    assert_true(err_fd >= 0);
    char *argv[32];
    size_t n = 0;
    argv[n++] = (char *)binary;
    for (; *words && n < 31; words++)
        argv[n++] = (char *)*words;
    argv[n] = NULL;
    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        int null_fd = open("/dev/null", O_WRONLY);
        dup2(null_fd, STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        if (fsize_limit) {
            struct rlimit limit = {fsize_limit, fsize_limit};
            signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails (EFBIG), as on a full disk */
            setrlimit(RLIMIT_FSIZE, &limit);
        }
        alarm(30);
        execv(binary, argv);
        _exit(127);
    }
    close(err_fd);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    if (err)
        *err = hb_test_read_file(err_path);
    unlink(err_path);
    if (WIFSIGNALED(status))
        fail_msg("%s %s: killed by signal %d (a hang?)", binary, argv[1], WTERMSIG(status));
    return WEXITSTATUS(status);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* --- links ----------------------------------------------------------------------------------------- */

/* A link planted at the old temporary's name (NAME.tmp) or beside it is
 * never written through: the victim keeps its bytes, the file is regular. */
static void test_hostile_json_write_ignores_a_planted_temporary(void **state)
{
    (void)state;
    char root[PATH], victim[PATH], target[PATH], planted[PATH];
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    path_in(victim, root, "victim.txt");
    path_in(target, root, "verdict.json");
    path_in(planted, root, "verdict.json.tmp");
    write_text(victim, "keep\n");
    assert_int_equal(symlink(victim, planted), 0);
    json_t *doc = json_pack("{s:s}", "verdict", "pass");
    assert_int_equal(hb_json_write_file(target, doc), HB_OK);
    json_decref(doc);
    char *kept = hb_test_read_file(victim);
    assert_string_equal(kept, "keep\n");
    free(kept);
    struct stat st;
    assert_int_equal(lstat(target, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_true(hb_test_file_contains(target, "\"pass\""));
    /* a FIFO at the same name does not make it wait */
    assert_int_equal(unlink(planted), 0);
    assert_int_equal(mkfifo(planted, 0644), 0);
    doc = json_pack("{s:s}", "verdict", "again");
    assert_int_equal(hb_json_write_file(target, doc), HB_OK);
    json_decref(doc);
    assert_true(hb_test_file_contains(target, "\"again\""));
    hb_test_remove_tree(root);
}

/* sweep --resume of a folder whose summary.csv is a link out of it: refused
 * before anything is cut, the link's target unchanged; a link at
 * verdict.json.tmp is not written through. */
static void test_hostile_resume_refuses_a_link_out_of_the_folder(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], csv[PATH], outside[PATH], before[HB_SHA256_HEX], after[HB_SHA256_HEX];
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    make_sweep(root, "s", 1, folder);
    path_in(csv, folder, "summary.csv");
    path_in(outside, root, "elsewhere.csv");
    assert_int_equal(rename(csv, outside), 0);
    assert_int_equal(symlink(outside, csv), 0);
    sha_of(root, "elsewhere.csv", before);
    char *err = NULL;
    assert_int_equal(run(hb_test_bench(), ARGS("sweep", "--resume", folder, "--no-progress"), 0, &err),
                     HB_ERR_BAD_RESULTS);
    assert_non_null(strstr(err, "outside its folder"));
    free(err);
    sha_of(root, "elsewhere.csv", after);
    assert_string_equal(before, after);

    /* a link inside the folder is the folder's own file: read */
    assert_int_equal(unlink(csv), 0);
    char inside[PATH];
    path_in(inside, folder, "rows.csv");
    assert_int_equal(rename(outside, inside), 0);
    assert_int_equal(symlink("rows.csv", csv), 0);
    assert_int_equal(run(hb_test_report(), ARGS("report", folder), 0, NULL), 0);
    hb_test_remove_tree(root);
}

/* --- a resume that cannot run ------------------------------------------------------------------------ */

/* With no GPU (or none it may use), a resume changes nothing: not the rows,
 * not the journal, and it writes no verdict.json and no lock file: the GPU
 * is asked before the folder is locked (the item in flight is cut only
 * once a GPU is open).  A resume with nothing left to run needs no GPU: it
 * writes verdict.json, beside a link planted at its temporary, not through it. */
static void test_hostile_resume_without_a_gpu_leaves_the_rows(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], csv_before[HB_SHA256_HEX], journal_before[HB_SHA256_HEX], csv_after[HB_SHA256_HEX],
        journal_after[HB_SHA256_HEX], victim[PATH], planted[PATH];
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    make_sweep(root, "s", 1, folder);
    sha_of(folder, "summary.csv", csv_before);
    sha_of(folder, "journal.jsonl", journal_before);
    const size_t entries = hb_test_count_entries(folder);
    /* a GPU ordinal no machine has: refused on this machine and on one with GPUs */
    char *err = NULL;
    int code = run(hb_test_bench(), ARGS("sweep", "--resume", folder, "--devices", "1000", "--no-progress"), 0, &err);
    assert_int_equal(code, HB_ERR_CUDA);
    assert_null(strstr(err, "resumed")); /* refused before the session began */
    free(err);
    sha_of(folder, "summary.csv", csv_after);
    sha_of(folder, "journal.jsonl", journal_after);
    assert_string_equal(csv_before, csv_after);
    assert_string_equal(journal_before, journal_after);
    assert_int_equal(hb_test_count_entries(folder), entries);
    assert_false(exists(folder, "verdict.json"));
    assert_false(exists(folder, HB_FOLDER_LOCK_NAME));

    make_sweep(root, "done", 0, folder); /* every item finished */
    path_in(victim, root, "victim.txt");
    path_in(planted, folder, "verdict.json.tmp");
    write_text(victim, "keep\n");
    assert_int_equal(symlink(victim, planted), 0);
    code = run(hb_test_bench(), ARGS("sweep", "--resume", folder, "--devices", "1000", "--no-progress"), 0, &err);
    assert_int_not_equal(code, HB_ERR_CUDA); /* the folder's own worst status, no GPU asked */
    assert_null(strstr(err, "--devices 1000"));
    free(err);
    char *kept = hb_test_read_file(victim);
    assert_string_equal(kept, "keep\n"); /* verdict.json was written beside the link, not through it */
    free(kept);
    assert_true(exists(folder, "verdict.json"));
    hb_test_remove_tree(root);
}

/* --- a report never removes what it did not write -------------------------------------------------------- */

/* `report S --out S` of a sweep folder whose manifest names its own result
 * files, with their true digests: none of them is removed. */
static void test_hostile_manifest_removes_no_result_file(void **state)
{
    (void)state;
    static const char *const results[] = {"summary.csv", "journal.jsonl", "plan.json", "env.json"};
    char root[PATH], folder[PATH], list[PATH], text[4096] = "";
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    make_sweep(root, "s", 0, folder);
    for (size_t i = 0; i < 4; i++) {
        char sha[HB_SHA256_HEX], path[PATH];
        struct stat st;
        sha_of(folder, results[i], sha);
        path_in(path, folder, results[i]);
        assert_int_equal(stat(path, &st), 0);
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s %lld %s\n", sha, (long long)st.st_size,
                 results[i]);
    }
    path_in(list, folder, ".hgemm-report.files");
    write_text(list, text);
    assert_int_equal(run(hb_test_report(), ARGS("report", folder, "--out", folder), 0, NULL), 0);
    for (size_t i = 0; i < 4; i++)
        assert_true(exists(folder, results[i]));
    assert_true(exists(folder, "report.md"));
    assert_int_equal(run(hb_test_report(), ARGS("report", folder), 0, NULL), 0); /* still a result folder */
    hb_test_remove_tree(root);
}

/* --- one writer ----------------------------------------------------------------------------------------- */

/* While another process holds a folder's lock, report --out, sweep --resume
 * and merge stop at once with exit 7, naming the holder, and change nothing. */
static void test_hostile_second_writer_stops_naming_the_first(void **state)
{
    (void)state;
    char root[PATH], run_folder[PATH], out[PATH], sweep[PATH], merged[PATH], partial[PATH], pid[32];
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    make_run(root, "run", 41, 3, run_folder);
    make_sweep(root, "s", 0, sweep);
    path_in(out, root, "out");
    path_in(merged, root, "merged");
    path_in(partial, root, "merged.partial");
    hb_test_make_folder(out);
    hb_test_make_folder(partial);
    snprintf(pid, sizeof pid, "pid %ld", (long)getpid());
    hb_folder_lock_set_command("the test holding the lock");
    hb_folder_lock locks[3];
    assert_int_equal(hb_folder_lock_take(&locks[0], out, "a test"), HB_OK);
    assert_int_equal(hb_folder_lock_take(&locks[1], sweep, "a test"), HB_OK);
    assert_int_equal(hb_folder_lock_take(&locks[2], partial, "a test"), HB_OK);
    const char *const *commands[] = {
        ARGS("report", run_folder, "--out", out),
        ARGS("sweep", "--resume", sweep, "--no-progress"),
        ARGS("merge", merged, sweep),
    };
    for (size_t i = 0; i < 3; i++) {
        char *err = NULL;
        const char *binary = i == 1 ? hb_test_bench() : hb_test_report();
        assert_int_equal(run(binary, commands[i], 0, &err), HB_ERR_IO);
        if (!strstr(err, "being written by another process") || !strstr(err, pid) ||
            !strstr(err, "the test holding the lock"))
            fail_msg("command %zu said: %s", i, err);
        free(err);
    }
    assert_int_equal(hb_test_count_entries(out), 1); /* its lock file alone */
    assert_false(exists(root, "merged"));
    for (size_t i = 0; i < 3; i++)
        hb_folder_lock_release(&locks[i]);
    /* once let go: a merge.partial no merge holds is one that failed: said, not removed */
    char *err = NULL;
    assert_int_equal(run(hb_test_report(), ARGS("merge", merged, sweep), 0, &err), HB_ERR_USAGE);
    assert_non_null(strstr(err, "remove it first"));
    free(err);
    hb_test_remove_tree(root);
}

/* Two reports of different folders into one D at once, many times: each
 * exits 0 or 7, and D ends as one whole set its manifest vouches for. */
static void test_hostile_two_reports_leave_one_whole_set(void **state)
{
    (void)state;
    char root[PATH], a[PATH], b[PATH], out[PATH], list[PATH];
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    make_run(root, "a", 43, 3, a);
    make_run(root, "b", 47, 5, b);
    path_in(out, root, "out");
    path_in(list, out, ".hgemm-report.files");
    for (int round = 0; round < 6; round++) {
        pid_t children[2];
        const char *sources[2] = {a, b};
        for (int c = 0; c < 2; c++) {
            fflush(NULL);
            children[c] = fork();
            assert_true(children[c] >= 0);
            if (children[c] == 0) {
                int null_fd = open("/dev/null", O_WRONLY);
                dup2(null_fd, STDOUT_FILENO);
                dup2(null_fd, STDERR_FILENO);
                execl(hb_test_report(), hb_test_report(), "report", sources[c], "--out", out, (char *)NULL);
                _exit(127);
            }
        }
        for (int c = 0; c < 2; c++) {
            int status;
            assert_int_equal(waitpid(children[c], &status, 0), children[c]);
            assert_true(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == HB_ERR_IO));
        }
        /* every file the manifest lists holds the bytes it says */
        char *text = hb_test_read_file(list);
        assert_non_null(text);
        size_t files = 0;
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            char sha[HB_SHA256_HEX], name[256], now[HB_SHA256_HEX];
            unsigned long long bytes;
            if (line[0] == '#')
                continue;
            assert_int_equal(sscanf(line, "%64s %llu %255s", sha, &bytes, name), 3);
            sha_of(out, name, now);
            assert_string_equal(sha, now);
            files++;
        }
        free(text);
        assert_true(files >= 4);
        assert_int_equal(hb_test_count_entries(out), files + 2); /* the set, its manifest and the lock */
    }
    hb_test_remove_tree(root);
}

/* --- a publication killed midway ------------------------------------------------------------------------- */

/* A report killed after its set was committed (the publishing folder left,
 * half its files moved) is finished by the next report into the folder;
 * a killed report's staging folder is cleared, files not its own kept. */
static void test_hostile_killed_publication_is_finished(void **state)
{
    (void)state;
    char root[PATH], a[PATH], b[PATH], out[PATH], staged[PATH], publishing[PATH], stale[PATH], foreign[PATH];
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    make_run(root, "a", 53, 3, a);
    make_run(root, "b", 59, 4, b);
    path_in(out, root, "out");
    path_in(staged, root, "staged");
    assert_int_equal(run(hb_test_report(), ARGS("report", a, "--out", out), 0, NULL), 0);
    assert_int_equal(run(hb_test_report(), ARGS("report", b, "--out", staged), 0, NULL), 0);
    /* b's whole set as the killed report had committed it: in out/.hgemm-report-publishing */
    path_in(publishing, out, ".hgemm-report-publishing");
    char from[PATH], to[PATH];
    assert_int_equal(rename(staged, publishing), 0);
    path_in(from, publishing, ".hgemm-lock");
    assert_int_equal(unlink(from), 0);
    /* ... and half of it already moved into out */
    path_in(from, publishing, "report.md");
    path_in(to, out, "report.md");
    assert_int_equal(rename(from, to), 0);
    /* two killed writers' staging folders: one of the report's files, one holding a file of someone else's */
    path_in(stale, out, ".hgemm-report-Ab12Cd");
    path_in(foreign, out, ".hgemm-report-Zz99Yy");
    hb_test_make_folder(stale);
    hb_test_make_folder(foreign);
    path_in(from, stale, "table1.csv");
    write_text(from, "half\n");
    path_in(from, foreign, "notes.txt");
    write_text(from, "mine\n");

    char *err = NULL;
    assert_int_equal(run(hb_test_report(), ARGS("report", b, "--out", out), 0, &err), 0);
    assert_non_null(strstr(err, "finishing the publication"));
    free(err);
    assert_false(exists(out, ".hgemm-report-publishing"));
    assert_false(exists(out, ".hgemm-report-Ab12Cd"));
    assert_true(exists(foreign, "notes.txt"));
    /* the set is b's, whole: the same bytes a fresh report of b writes */
    char fresh[PATH], mine[HB_SHA256_HEX], theirs[HB_SHA256_HEX];
    path_in(fresh, root, "fresh");
    assert_int_equal(run(hb_test_report(), ARGS("report", b, "--out", fresh), 0, NULL), 0);
    static const char *const names[] = {"report.md", "report.json", "table1.csv", "speedup_offline.csv"};
    for (size_t i = 0; i < 4; i++) {
        sha_of(out, names[i], mine);
        sha_of(fresh, names[i], theirs);
        assert_string_equal(mine, theirs);
    }
    hb_test_remove_tree(root);
}

/* --- a full disk ------------------------------------------------------------------------------------------- */

/* A report whose files cannot all be written: exit 7, the folder's earlier
 * set untouched, no staging folder left. */
static void test_hostile_full_disk_publishes_nothing(void **state)
{
    (void)state;
    char root[PATH], a[PATH], b[PATH], out[PATH], before[HB_SHA256_HEX], after[HB_SHA256_HEX];
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    make_run(root, "a", 61, 2, a);
    make_run(root, "b", 67, 12, b);
    path_in(out, root, "out");
    assert_int_equal(run(hb_test_report(), ARGS("report", a, "--out", out), 0, NULL), 0);
    sha_of(out, "report.md", before);
    size_t entries = hb_test_count_entries(out);
    char *err = NULL;
    assert_int_equal(run(hb_test_report(), ARGS("report", b, "--out", out), 4096, &err), HB_ERR_IO);
    assert_non_null(strstr(err, "File too large")); /* RLIMIT_FSIZE's EFBIG; a full disk says ENOSPC */
    free(err);
    sha_of(out, "report.md", after);
    assert_string_equal(before, after);
    assert_int_equal(hb_test_count_entries(out), entries);
    hb_test_remove_tree(root);
}


/* --- merge writes text cells as this harness does ----------------------------------------------------- */

/* A shard written by an older harness (or edited) holds a reason that a
 * spreadsheet takes for a formula, unguarded: the merged summary.csv holds
 * it guarded, and reads back as the same text. */
static void test_hostile_merge_guards_a_shards_formula(void **state)
{
    (void)state;
    static hb_fixture fixture;
    const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    char root[PATH], folder[PATH], merged[PATH], candidate[PATH], csv[PATH], journal[PATH];
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    snprintf(candidate, sizeof candidate, "%s/candidates/sample_mma/manifest.json", build_dir());
    path_in(folder, root, "s");
    path_in(merged, root, "m");
    assert_int_equal(hb_fixture_make(37, ITEMS / 2, modes, 2, 0.0, &fixture), HB_OK);
    snprintf(fixture.configs[0].result->reason, sizeof fixture.configs[0].result->reason, "=HYPERLINK(1)");
    assert_int_equal(hb_fixture_rewrite(&fixture.configs[0]), HB_OK);
    assert_int_equal(hb_fixture_write_sweep(&fixture, folder, candidate, 0, 1, ITEMS, "Test GPU"), HB_OK);
    hb_fixture_free(&fixture);
    /* as an older writer had it: the guard's quote gone, every csv_end after it one byte earlier */
    path_in(csv, folder, "summary.csv");
    char *text = hb_test_read_file(csv), *guarded = strstr(text, "'=HYPERLINK(1)");
    assert_non_null(guarded);
    long cut_at = (long)(guarded - text);
    memmove(guarded, guarded + 1, strlen(guarded));
    write_text(csv, text);
    free(text);
    path_in(journal, folder, "journal.jsonl");
    text = hb_test_read_file(journal);
    FILE *out = fopen(journal, "w");
    assert_non_null(out);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        json_t *entry = json_loads(line, 0, NULL);
        assert_non_null(entry);
        json_int_t end = json_integer_value(json_object_get(entry, "csv_end"));
        json_object_set_new(entry, "csv_end", json_integer(end > cut_at ? end - 1 : end));
        char *dumped = json_dumps(entry, JSON_COMPACT | JSON_PRESERVE_ORDER);
        fprintf(out, "%s\n", dumped);
        free(dumped);
        json_decref(entry);
    }
    assert_int_equal(fclose(out), 0);
    free(text);
    assert_true(hb_test_file_contains(csv, ",=HYPERLINK(1)"));

    assert_int_equal(run(hb_test_report(), ARGS("merge", merged, folder), 0, NULL), 0);
    path_in(csv, merged, "summary.csv");
    assert_true(hb_test_file_contains(csv, ",'=HYPERLINK(1)"));
    assert_false(hb_test_file_contains(csv, ",=HYPERLINK(1)"));
    assert_int_equal(run(hb_test_report(), ARGS("report", merged), 0, NULL), 0); /* its journal agrees */
    hb_test_remove_tree(root);
}


/* A merge whose OUT.partial is a link to a folder elsewhere: refused as
 * something a merge did not make, and nothing is written where it points. */
static void test_hostile_merge_partial_link_is_not_followed(void **state)
{
    (void)state;
    char root[PATH], sweep[PATH], merged[PATH], partial[PATH], elsewhere[PATH];
    hb_test_make_temp_dir("hb-hostile", root, sizeof root);
    make_sweep(root, "s", 0, sweep);
    path_in(merged, root, "merged");
    path_in(partial, root, "merged.partial");
    path_in(elsewhere, root, "elsewhere");
    hb_test_make_folder(elsewhere);
    assert_int_equal(symlink(elsewhere, partial), 0);
    char *err = NULL;
    assert_int_equal(run(hb_test_report(), ARGS("merge", merged, sweep), 0, &err), HB_ERR_USAGE);
    assert_non_null(strstr(err, "not a folder a merge made"));
    free(err);
    assert_int_equal(hb_test_count_entries(elsewhere), 0);
    assert_false(exists(root, "merged"));
    hb_test_remove_tree(root);
}

static const struct CMUnitTest hostile_tests[] = {
    cmocka_unit_test(test_hostile_json_write_ignores_a_planted_temporary),
    cmocka_unit_test(test_hostile_resume_refuses_a_link_out_of_the_folder),
    cmocka_unit_test(test_hostile_resume_without_a_gpu_leaves_the_rows),
    cmocka_unit_test(test_hostile_manifest_removes_no_result_file),
    cmocka_unit_test(test_hostile_second_writer_stops_naming_the_first),
    cmocka_unit_test(test_hostile_two_reports_leave_one_whole_set),
    cmocka_unit_test(test_hostile_killed_publication_is_finished),
    cmocka_unit_test(test_hostile_full_disk_publishes_nothing),
    cmocka_unit_test(test_hostile_merge_guards_a_shards_formula),
    cmocka_unit_test(test_hostile_merge_partial_link_is_not_followed),
};

hb_test_list hb_hostile_folder_tests(void)
{
    return HB_TEST_LIST(hostile_tests);
}
