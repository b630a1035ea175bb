/* The figures' guards (docs/reports.md, "Figures"): text from a result
 * folder reaches gnuplot as literal strings, never as commands (drawing,
 * and redrawing with the published script, runs nothing a folder says);
 * and a figure gnuplot could not write whole (a full disk) is an error,
 * never published.  The commands run as a user runs them
 * (build/hgemm-report); without gnuplot the tests that draw are skipped. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/analysis/figure_files.h"
#include "bench/analysis/gnuplot_text.h"
#include "bench/core/diag.h"
#include "bench/core/folder_lock.h"
#include "bench/result/device_info.h"
#include "tests/result_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void path_in(char *out, const char *folder, const char *name)
{
    snprintf(out, PATH, "%.800s/%.200s", folder, name);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void write_bytes(const char *path, const void *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* `text` as gnuplot_text.h says it goes into a script, written this file's
 * own way (ASCII text only): single-quoted pieces, a quote between them as
 * "\047", control characters as spaces. */
static void expected_string(const char *text, char *out, size_t size)
{
    size_t used = (size_t)snprintf(out, size, "'");
    for (const char *c = text; *c && used + 16 < size; c++)
        if (*c == '\'')
            used += (size_t)snprintf(out + used, size - used, "' . \"\\047\" . '");
        else
            out[used++] = (unsigned char)*c < 0x20 ? ' ' : *c;
    snprintf(out + used, size - used, "'");
}

/* --- the string --------------------------------------------------------------------------------- */

static char *string_of(const char *text)
{
    hb_test_capture capture;
    hb_gnuplot_string(hb_test_capture_open(&capture), text);
    return hb_test_capture_close(&capture);
}

#define Q "' . \"\\047\" . '" /* a quote between two pieces */

static void test_gnuplot_string_holds_no_quote_inside_a_piece(void **state)
{
    (void)state;
    static const struct {
        const char *text, *string;
    } cases[] = {
        {"H100", "'H100'"},
        {"", "''"},
        {"it's", "'it" Q "s'"},
        {"'", "''" " . \"\\047\" . " "''"},
        {"''x''", "'" Q Q "x" Q Q "'"},
        {"`touch X` @m $(y) \"q\" \\n \\", "'`touch X` @m $(y) \"q\" \\n \\'"},
        {"a\nb\tc\rd\x7f" "e", "'a b c d e'"},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "'caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80'"},
        {"cut \xe2\x82", "'cut ?\?'"},      /* a character cut short */
        {"bad \xff\xc0\xaf", "'bad ?\?\?'"}, /* not UTF-8; an overlong '/' */
        {"\xed\xa0\x80", "'?\?\?'"},         /* a UTF-16 surrogate */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = string_of(cases[i].text);
        if (strcmp(got, cases[i].string) != 0)
            fail_msg("case %zu: the string is [%s], not [%s]", i, got, cases[i].string);
        free(got);
    }
}

/* gnuplot itself reads each string back as the text (control characters
 * as spaces) and runs nothing: no backquote, no macro (`macro` would break
 * out of the quotes if it were expanded anywhere), no escape, whatever the
 * quotes around them. */
static void test_gnuplot_reads_a_string_back_as_the_text(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    static const char *const texts[] = {
        "plain", "it's ''quoted''", "'", "''", "", "'@macro", "''@macro''", "\"@macro", "'\"@macro\"'",
        "`touch CANARY` and `touch CANARY2`", "@macro and @macro;", "\"q\" \\n \\t \\", "\\'@macro\\",
        "line\nbreak; print 'x'", "$(touch CANARY3) ; system('touch CANARY4')",
        "x' . system('touch CANARY5') . '", "x'' . system(\"touch CANARY5\") . ''", "# '@macro # \"@macro",
    };
    char root[PATH], script[PATH], printed[PATH], command[3 * PATH];
    hb_test_make_temp_dir("hb-gnuplot-string", root, sizeof root);
    path_in(script, root, "read.gp");
    path_in(printed, root, "printed.txt");
    FILE *gp = fopen(script, "w");
    assert_non_null(gp);
    fputs("set print '-'\nmacro = \"' . system(\\\"touch CANARY6\\\") . '\"\n", gp); /* `print` to stdout */
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        fputs("print ", gp);
        hb_gnuplot_string(gp, texts[i]);
        fputc('\n', gp);
    }
    assert_int_equal(fclose(gp), 0);
    snprintf(command, sizeof command, "cd '%s' && gnuplot read.gp > '%s' 2>&1", root, printed);
    assert_int_equal(hb_test_shell(command), 0);
    char *text = hb_test_read_file(printed);
    assert_non_null(text);
    char *line = text;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char *end = strchr(line, '\n');
        assert_non_null(end);
        *end = '\0';
        char want[256]; /* the text, control characters as spaces */
        snprintf(want, sizeof want, "%s", texts[i]);
        for (char *c = want; *c; c++)
            *c = *c == '\n' ? ' ' : *c;
        if (strcmp(line, want) != 0)
            fail_msg("gnuplot read [%s] back as [%s]", want, line);
        line = end + 1;
    }
    free(text);
    for (int i = 1; i <= 6; i++) {
        char canary[PATH], name[32];
        snprintf(name, sizeof name, i == 1 ? "CANARY" : "CANARY%d", i);
        path_in(canary, root, name);
        assert_false(exists(canary));
    }
    hb_test_remove_tree(root);
}

/* --- hostile names in a result folder ------------------------------------------------------- */

/* A run folder of both modes whose env.json names a GPU and a candidate
 * that would run shell commands, expand macros and break out of quotes. */
typedef struct hostile {
    char root[PATH], run[PATH], out[PATH], compared[PATH];
    char gpu[512], candidate[256];
    hb_fixture fixture;
} hostile;

static void make_hostile(hostile *h)
{
    memset(h, 0, sizeof *h);
    hb_test_make_temp_dir("hb-figures", h->root, sizeof h->root);
    path_in(h->run, h->root, "run");
    path_in(h->out, h->root, "report");
    path_in(h->compared, h->root, "compare");
    snprintf(h->gpu, sizeof h->gpu,
             "'' H100 `touch CANARY` $(touch CANARY2) `touch %.300s/CANARY4` @macro @title_facts ' \" \\ \\n end\n"
             "second line",
             h->root);
    snprintf(h->candidate, sizeof h->candidate, "'cand `touch CANARY3` @macro '' \" \\ x\ny");
    assert_true(strlen(h->gpu) < sizeof ((hb_device_info *)0)->name); /* env.json keeps it whole */
    const hb_mode modes[2] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    assert_int_equal(hb_fixture_make(321, 10, modes, 2, 0.0, &h->fixture), HB_OK);
    assert_int_equal(hb_fixture_write_run(&h->fixture, 0, h->fixture.count, h->run, "placeholder"), HB_OK);
    assert_int_equal(hb_fixture_write_env(h->run, h->gpu, h->candidate, 1, 7, "hgemm-bench run"), HB_OK);
}

static void drop_hostile(hostile *h)
{
    hb_fixture_free(&h->fixture);
    hb_test_remove_tree(h->root);
}

/* No canary anywhere a command could have made one: the folders, and here. */
static void assert_no_canary(const hostile *h)
{
    static const char *const names[] = {"CANARY", "CANARY2", "CANARY3", "CANARY4"};
    const char *const folders[] = {h->root, h->run, h->out, h->compared, "."};
    for (size_t f = 0; f < sizeof folders / sizeof folders[0]; f++)
        for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
            char canary[PATH];
            path_in(canary, folders[f], names[n]);
            if (exists(canary))
                fail_msg("%s exists: text from env.json ran as a command", canary);
        }
}

/* Which bytes of a gnuplot script lie inside single quotes as both of
 * gnuplot's passes that care see it (bench/analysis/gnuplot_text.h): the
 * macro pass flips at every ' of the line; the scanner reads '...' and
 * "..." (with backslash escapes) as strings and # outside them as a
 * comment.  where[i]: '\'' inside single quotes for both, '#' in a
 * comment, 0 otherwise. */
static char *inside_single_quotes(const char *script)
{
    size_t length = strlen(script);
    char *where = calloc(length + 1, 1);
    assert_non_null(where);
    int macro_in_quotes = 0, escaped = 0;
    char open = 0; /* the scanner's open quote, or '#' */
    for (size_t i = 0; i < length; i++) {
        char c = script[i];
        if (c == '\n') {
            macro_in_quotes = escaped = open = 0;
            continue;
        }
        if (c == '\'')
            macro_in_quotes = !macro_in_quotes;
        if (open == '#') {
            where[i] = '#';
        } else if (open == 0) {
            open = c == '\'' || c == '"' || c == '#' ? c : 0;
            where[i] = open == '#' ? '#' : 0;
        } else if (open == '"') {
            escaped = !escaped && c == '\\';
            open = !escaped && c == '"' ? 0 : open;
        } else if (c == '\'') {
            open = 0;
        } else {
            where[i] = macro_in_quotes ? '\'' : 0;
        }
    }
    return where;
}

/* The script at `path` holds folder text only inside single quotes: every
 * backquote and @ outside comments is inside them, and so is each
 * `needle`, which occurs at least once. */
static void assert_inside_single_quotes(const char *path, const char *const *needles, size_t n_needles)
{
    char *script = hb_test_read_file(path);
    assert_non_null(script);
    char *where = inside_single_quotes(script);
    for (size_t i = 0; script[i]; i++)
        if ((script[i] == '`' || script[i] == '@') && where[i] == 0)
            fail_msg("%s: the %c at byte %zu is outside single quotes", path, script[i], i);
    for (size_t n = 0; n < n_needles; n++) {
        size_t length = strlen(needles[n]), found = 0;
        for (const char *at = strstr(script, needles[n]); at; at = strstr(at + 1, needles[n]), found++)
            for (size_t k = 0; k < length; k++)
                if (where[(size_t)(at - script) + k] != '\'')
                    fail_msg("%s: [%s] at byte %zu is outside single quotes", path, needles[n],
                             (size_t)(at - script));
        if (found == 0)
            fail_msg("%s does not hold [%s]", path, needles[n]);
    }
    free(where);
    free(script);
}

static void test_folder_text_reaches_gnuplot_only_as_literals(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    hostile h;
    make_hostile(&h);
    char err[PATH];
    path_in(err, h.root, "stderr.txt");
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", h.run, "--out", h.out, "--plots"), NULL, err), 0);
    assert_no_canary(&h);

    /* the script: the title's facts one string expression, whole, on one line */
    char script[PATH], gpu[1100], candidate[600], facts[1800];
    path_in(script, h.out, "report_figures.gp");
    expected_string(h.gpu, gpu, sizeof gpu);
    expected_string(h.candidate, candidate, sizeof candidate);
    gpu[strlen(gpu) - 1] = candidate[strlen(candidate) - 1] = '\0'; /* the facts go on after them */
    snprintf(facts, sizeof facts, "title_facts = 'GPU: %s; candidate: %s; n = ", gpu + 1, candidate + 1);
    if (!hb_test_file_contains(script, facts))
        fail_msg("%s has no line starting [%s]", script, facts);
    static const char *const hostile_parts[] = {"`touch CANARY`", "$(touch CANARY2)", "/CANARY4`", "@macro @title_facts",
                                                "`touch CANARY3`", " \\ \\n end second line"};
    assert_inside_single_quotes(script, hostile_parts, sizeof hostile_parts / sizeof hostile_parts[0]);

    /* the figures: the title's text as it was, line break a space (gnuplot's SVG escapes only < and &) */
    char svg[PATH], shown[1800];
    path_in(svg, h.out, "report_ecdf_server.svg");
    snprintf(shown, sizeof shown, "GPU: %s; candidate: %s; n = ", h.gpu, h.candidate);
    for (char *c = shown; *c; c++)
        *c = *c == '\n' ? ' ' : *c;
    if (!hb_test_file_contains(svg, shown))
        fail_msg("%s does not show the title [%s]", svg, shown);

    /* redrawn with the published script, in its folder, as docs/reports.md says */
    char command[3 * PATH];
    snprintf(command, sizeof command, "cd '%s' && gnuplot report_figures.gp > /dev/null 2>&1", h.out);
    assert_int_equal(hb_test_shell(command), 0);
    assert_no_canary(&h);

    /* compare's figure, drawn and redrawn */
    char published[PATH];
    path_in(published, h.out, "speedup_offline.csv");
    assert_int_equal(hb_test_run(hb_test_report(),
                                 ARGS("compare", h.run, "--published", published, "--out", h.compared, "--plots"),
                                 NULL, err),
                     0);
    path_in(script, h.compared, "compare_figures.gp");
    assert_inside_single_quotes(script, NULL, 0);
    snprintf(command, sizeof command, "cd '%s' && gnuplot compare_figures.gp > /dev/null 2>&1", h.compared);
    assert_int_equal(hb_test_shell(command), 0);
    assert_no_canary(&h);
    drop_hostile(&h);
}

/* --- whole figures --------------------------------------------------------------------------- */

/* A folder's files, sorted by name, each "name size\n" and its bytes: what
 * a command must leave as it was.  The lock file is left out: each writer
 * records itself there. */
static char *snapshot(const char *folder, size_t *size)
{
    DIR *dir = opendir(folder);
    assert_non_null(dir);
    char *names[256];
    size_t n = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)))
        if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..") && strcmp(entry->d_name, HB_FOLDER_LOCK_NAME)) {
            assert_true(n < 256);
            names[n++] = strdup(entry->d_name);
        }
    closedir(dir);
    for (size_t i = 1; i < n; i++) /* insertion sort: a few dozen names */
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    hb_test_capture all;
    FILE *out = hb_test_capture_open(&all);
    for (size_t i = 0; i < n; i++) {
        char path[PATH];
        struct stat st;
        path_in(path, folder, names[i]);
        assert_int_equal(lstat(path, &st), 0);
        fprintf(out, "%s %lld %o\n", names[i], (long long)st.st_size, (unsigned)st.st_mode);
        char *bytes = S_ISREG(st.st_mode) ? hb_test_read_file(path) : NULL;
        if (bytes)
            fwrite(bytes, 1, (size_t)st.st_size, out);
        free(bytes);
        free(names[i]);
    }
    char *text = hb_test_capture_close(&all);
    *size = all.size;
    return text;
}

static int is_figure(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (!strcmp(dot, ".png") || !strcmp(dot, ".svg"));
}

/* The largest figure and the largest other file of `folder`, in bytes. */
static void largest_files(const char *folder, long long *figure, long long *other)
{
    DIR *dir = opendir(folder);
    assert_non_null(dir);
    *figure = *other = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        char path[PATH];
        struct stat st;
        path_in(path, folder, entry->d_name);
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        long long *largest = is_figure(entry->d_name) ? figure : other;
        *largest = st.st_size > *largest ? st.st_size : *largest;
    }
    closedir(dir);
}

static size_t figures_in(const char *folder)
{
    DIR *dir = opendir(folder);
    if (!dir)
        return 0;
    size_t n = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)))
        n += is_figure(entry->d_name);
    closedir(dir);
    return n;
}

/* `report --plots --out OUT` under a file size limit of `blocks` 512-byte
 * blocks, SIGXFSZ ignored: a write past it fails with EFBIG as on a full
 * disk.  Its exit code; its stderr into `err`. */
static int report_with_size_limit(const hostile *h, const char *out, long long blocks, const char *err)
{
    char command[4 * PATH];
    snprintf(command, sizeof command,
             "trap '' XFSZ; ulimit -f %lld && exec '%s' report '%s' --out '%s' --plots > /dev/null 2> '%s'", blocks,
             hb_test_report(), h->run, out, err);
    return hb_test_shell(command);
}

/* A full disk while gnuplot draws: exit 7 (HB_ERR_IO) naming a figure, and
 * no figure published: an earlier report's folder as it was, a new one
 * without any figure. */
static void test_a_full_disk_publishes_no_figure(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    hostile h;
    make_hostile(&h);
    char err[PATH];
    path_in(err, h.root, "stderr.txt");
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", h.run, "--out", h.out, "--plots"), NULL, err), 0);
    long long figure, other;
    largest_files(h.out, &figure, &other);
    long long blocks = other / 512 + 2; /* every table, data file and script fits */
    if (figure <= blocks * 512)
        fail_msg("the largest figure (%lld bytes) fits under the limit (%lld bytes): no figure would be cut", figure,
                 blocks * 512);

    size_t before_size, after_size;
    char *before = snapshot(h.out, &before_size);
    assert_int_equal(report_with_size_limit(&h, h.out, blocks, err), 7);
    assert_true(hb_test_file_contains(err, "the disk may be full"));
    assert_true(hb_test_file_contains(err, ".png") || hb_test_file_contains(err, ".svg"));
    char *after = snapshot(h.out, &after_size);
    assert_true(before_size == after_size && memcmp(before, after, before_size) == 0);
    free(before);
    free(after);

    char fresh[PATH];
    path_in(fresh, h.root, "fresh");
    assert_int_equal(report_with_size_limit(&h, fresh, blocks, err), 7);
    assert_int_equal(figures_in(fresh), 0);
    drop_hostile(&h);
}

/* The check itself, on files gnuplot might leave: each flaw named. */
static void test_the_figure_check_names_what_is_not_whole(void **state)
{
    (void)state;
    static const unsigned char png_head[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    static const unsigned char png_tail[] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    char root[PATH];
    hb_test_make_temp_dir("hb-figure-check", root, sizeof root);
    hb_output_folder out;
    assert_int_equal(hb_output_begin(&out, root, "report"), HB_OK);
    hb_figure_files drawn = {.count = 0};
    hb_test_capture script;
    FILE *gp = hb_test_capture_open(&script);
    assert_int_equal(hb_figure_output(gp, &drawn, "f", "png"), HB_OK);
    assert_int_equal(hb_figure_output(gp, &drawn, "f", "svg"), HB_OK);
    char *text = hb_test_capture_close(&script);
    assert_string_equal(text, "set output 'f.png'\nset output 'f.svg'\n");
    free(text);
    char png[PATH], svg[PATH];
    path_in(png, out.stage, "f.png");
    path_in(svg, out.stage, "f.svg");

    assert_int_equal(hb_figure_files_check(&drawn, &out), HB_ERR_IO); /* neither drawn */
    assert_non_null(strstr(hb_last_error(), "gnuplot drew no f.png"));
    unsigned char whole_png[sizeof png_head + sizeof png_tail];
    memcpy(whole_png, png_head, sizeof png_head);
    memcpy(whole_png + sizeof png_head, png_tail, sizeof png_tail);
    static const char whole_svg[] = "<?xml version=\"1.0\"?>\n<svg>\n</svg>\n\n";
    write_bytes(svg, whole_svg, strlen(whole_svg));
    write_bytes(png, "", 0);
    assert_int_equal(hb_figure_files_check(&drawn, &out), HB_ERR_IO);
    assert_non_null(strstr(hb_last_error(), "f.png gnuplot drew for"));
    assert_non_null(strstr(hb_last_error(), "is empty: the disk may be full"));
    write_bytes(png, whole_png, sizeof whole_png - 1);
    assert_int_equal(hb_figure_files_check(&drawn, &out), HB_ERR_IO);
    assert_non_null(strstr(hb_last_error(), "cut short (no IEND chunk at its end)"));
    write_bytes(png, whole_png + 1, sizeof whole_png - 1);
    assert_int_equal(hb_figure_files_check(&drawn, &out), HB_ERR_IO);
    assert_non_null(strstr(hb_last_error(), "not a PNG"));
    write_bytes(png, whole_png, sizeof whole_png);
    assert_int_equal(hb_figure_files_check(&drawn, &out), HB_OK);
    write_bytes(svg, whole_svg, strlen(whole_svg) - 4); /* "</sv" */
    assert_int_equal(hb_figure_files_check(&drawn, &out), HB_ERR_IO);
    assert_non_null(strstr(hb_last_error(), "f.svg gnuplot drew for"));
    assert_non_null(strstr(hb_last_error(), "does not end with </svg>"));
    assert_int_equal(unlink(svg), 0);
    char target[PATH];
    path_in(target, root, "elsewhere.svg");
    write_bytes(target, whole_svg, strlen(whole_svg));
    assert_int_equal(symlink(target, svg), 0);
    assert_int_equal(hb_figure_files_check(&drawn, &out), HB_ERR_IO); /* a link, not gnuplot's file */
    assert_int_equal(unlink(svg), 0);
    assert_int_equal(mkfifo(svg, 0644), 0);
    assert_int_equal(hb_figure_files_check(&drawn, &out), HB_ERR_IO); /* a FIFO: refused, not waited on */
    assert_non_null(strstr(hb_last_error(), "not a regular file"));
    hb_output_abandon(&out);
    hb_test_remove_tree(root);
}

hb_test_list hb_figure_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gnuplot_string_holds_no_quote_inside_a_piece),
        cmocka_unit_test(test_gnuplot_reads_a_string_back_as_the_text),
        cmocka_unit_test(test_folder_text_reaches_gnuplot_only_as_literals),
        cmocka_unit_test(test_a_full_disk_publishes_no_figure),
        cmocka_unit_test(test_the_figure_check_names_what_is_not_whole),
    };
    return HB_TEST_LIST(tests);
}
