/* The figure of where a speedup comes from and what the figures around it
 * promise (docs/reports.md, "Figures"): its counts and caption, on a
 * fixture whose answer is known; the figure drawn whole by report and
 * compare; compare's scatter on axes fitted to its points, the key below;
 * report and compare with no configuration to plot (exit 0, tables
 * written, the figures saying so); and what the titles call the candidate.
 * The commands run as a user runs them (build/hgemm-report); without
 * gnuplot the tests that draw are skipped. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/analysis/candidate_title.h"
#include "bench/analysis/speedup_source.h"
#include "tests/result_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define BASELINE "torch"

static void path_in(char *out, const char *folder, const char *name)
{
    snprintf(out, PATH, "%.800s/%.200s", folder, name);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

/* --- the counts ------------------------------------------------------------------------------ */

static void test_source_classes(void **state)
{
    (void)state;
    assert_int_equal(hb_source_class_of(1.3, 1.2), HB_SOURCE_BOTH);
    assert_int_equal(hb_source_class_of(1.2, 0.8), HB_SOURCE_HEADLINE_ONLY);
    assert_int_equal(hb_source_class_of(0.9, 1.1), HB_SOURCE_KERNEL_ONLY);
    assert_int_equal(hb_source_class_of(0.9, 0.8), HB_SOURCE_NEITHER);
    assert_int_equal(hb_source_class_of(1.0, 1.0), HB_SOURCE_NEITHER); /* a tie is no win */
    assert_int_equal(hb_source_class_of(1.5, NAN), HB_SOURCE_NO_KERNEL);
    assert_int_equal(hb_source_timer(HB_TIMER_KERNEL), HB_TIMER_EVENT); /* kernel against kernel says nothing */
    assert_int_equal(hb_source_timer(HB_TIMER_WALL), HB_TIMER_WALL);
}

/* A set made by hand: configuration i of `n` with headline h[i] and kernel
 * k[i] over the strongest column, in the offline mode, passing unless fail[i]. */
static void make_set(hb_result_set *set, size_t n, const double *h, const double *k, const int *fail,
                     const char *const *headline_timer)
{
    hb_result_set_init(set);
    int column = hb_speedup_column_find(BASELINE);
    assert_true(column >= 0);
    for (size_t i = 0; i < n; i++) {
        hb_config_key key = {64L << i, 64, 64, HB_MODE_OFFLINE};
        hb_config_entry *e;
        assert_int_equal(hb_result_set_entry(set, &key, "folder/summary.csv", 2 + i, &e), HB_OK);
        snprintf(e->verdict, sizeof e->verdict, "%s", fail && fail[i] ? "incorrect" : "pass");
        e->ratio[HB_TIMER_EVENT][HB_EST_PAPER][column] = h[i];
        e->ratio[HB_TIMER_KERNEL][HB_EST_PAPER][column] = k[i];
        if (headline_timer)
            snprintf(e->timers.headline_timer, sizeof e->timers.headline_timer, "%s", headline_timer[i]);
    }
}

/* 3 configurations: one wins on both, one on events only, one on neither;
 * a fourth that failed its checks is not counted. */
static void test_source_counts_and_caption(void **state)
{
    (void)state;
    static const double h[] = {1.3, 1.2, 0.9, 2.0}, k[] = {1.2, 0.8, 0.85, 2.0};
    static const int fail[] = {0, 0, 0, 1};
    hb_result_set set;
    make_set(&set, 4, h, k, fail, NULL);
    hb_source_select s = {.mode = HB_MODE_OFFLINE, .timer = HB_TIMER_EVENT, .which = "passing configurations"};
    size_t column = hb_source_column(&set, &s);
    assert_string_equal(hb_speedup_column_at(column)->name, BASELINE);
    hb_speedup_source c;
    hb_source_count(&set, &s, column, &c);
    assert_int_equal(c.configs, 3);
    assert_int_equal(c.win_headline, 2);
    assert_int_equal(c.win_kernel, 1);
    assert_int_equal(c.by_class[HB_SOURCE_BOTH], 1);
    assert_int_equal(c.by_class[HB_SOURCE_HEADLINE_ONLY], 1);
    assert_int_equal(c.by_class[HB_SOURCE_NEITHER], 1);
    char caption[600];
    hb_source_caption(&c, &s, caption, sizeof caption);
    assert_string_equal(caption, "2 of 3 passing configurations win on the headline timer (CUDA events), 1 on kernel "
                                 "time; against " BASELINE ", offline mode (a win: t_base / t_cand > 1)");
    hb_source_select server = s;
    server.mode = HB_MODE_SERVER;
    hb_source_count(&set, &server, column, &c);
    assert_int_equal(c.configs, 0); /* no configuration of the other mode */
    hb_result_set_free(&set);

    /* a wall-clock headline and an untraced configuration are said */
    static const double h2[] = {1.1, 1.2}, k2[] = {NAN, 1.3};
    static const char *const timers[] = {"event", "wall"};
    make_set(&set, 2, h2, k2, NULL, timers);
    hb_source_count(&set, &s, column, &c);
    assert_int_equal(c.wall_headline, 1);
    assert_int_equal(c.with_kernel, 1);
    assert_int_equal(c.by_class[HB_SOURCE_NO_KERNEL], 1);
    hb_source_caption(&c, &s, caption, sizeof caption);
    assert_non_null(strstr(caption, "2 of 2 passing configurations win on the headline timer (CUDA events; the wall "
                                    "clock for 1"));
    assert_non_null(strstr(caption, "1 on kernel time (of the 1 with one)"));
    hb_result_set_free(&set);
}

/* --- the figure, drawn --------------------------------------------------------------------- */

/* A run folder of `count` offline configurations; configuration i's
 * speedup over the strongest baseline is h[i] on the events and k[i] on
 * kernel time; failed[i]: its candidate failed a check. */
typedef struct known {
    char root[PATH], run[PATH], out[PATH], compared[PATH], err[PATH];
    hb_fixture fixture;
} known;

static void make_known(known *f, size_t count, const double *h, const double *k, const int *failed)
{
    memset(f, 0, sizeof *f);
    hb_test_make_temp_dir("hb-source-figure", f->root, sizeof f->root);
    path_in(f->run, f->root, "run");
    path_in(f->out, f->root, "report");
    path_in(f->compared, f->root, "compare");
    path_in(f->err, f->root, "stderr.txt");
    const hb_mode offline = HB_MODE_OFFLINE;
    assert_int_equal(hb_fixture_make(77, count, &offline, 1, 0.0, &f->fixture), HB_OK);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(hb_fixture_set_speedup(&f->fixture.configs[i], BASELINE, h[i], k[i]), HB_OK);
        if (failed && failed[i])
            assert_int_equal(hb_fixture_set_verdict(&f->fixture.configs[i], HB_VERDICT_INCORRECT, "deviation"), HB_OK);
    }
    assert_int_equal(hb_fixture_write_run(&f->fixture, 0, count, f->run, "Test GPU"), HB_OK);
}

static void drop_known(known *f)
{
    hb_fixture_free(&f->fixture);
    hb_test_remove_tree(f->root);
}

/* A whole PNG (its signature, and IEND last) and a whole SVG (it ends with </svg>). */
static void assert_whole_figure(const char *folder, const char *stem)
{
    char png[PATH], svg[PATH], name[256];
    snprintf(name, sizeof name, "%s.png", stem);
    path_in(png, folder, name);
    snprintf(name, sizeof name, "%s.svg", stem);
    path_in(svg, folder, name);
    struct stat st;
    if (stat(png, &st) != 0 || st.st_size < 64)
        fail_msg("%s was not drawn", png);
    unsigned char head[8], tail[12];
    FILE *f = fopen(png, "rb");
    assert_non_null(f);
    assert_int_equal(fread(head, 1, 8, f), 8);
    assert_int_equal(fseek(f, -12, SEEK_END), 0);
    assert_int_equal(fread(tail, 1, 12, f), 12);
    fclose(f);
    assert_memory_equal(head, "\x89PNG\r\n\x1a\n", 8);
    assert_memory_equal(tail + 4, "IEND", 4);
    char *text = hb_test_read_file(svg);
    if (!text)
        fail_msg("%s was not drawn", svg);
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
        n--;
    assert_true(n >= 6 && !strncmp(text + n - 6, "</svg>", 6));
    free(text);
}

/* Lines of data (not comments, not NaN) in block `index` of a .dat file. */
static size_t block_points(const char *path, int index)
{
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    int block = 0, blank = 0;
    size_t n = 0;
    for (char *at = text; *at;) {
        size_t length = strcspn(at, "\n");
        if (length == 0) {
            if (++blank == 2)
                block++;
        } else {
            blank = 0;
            n += block == index && at[0] != '#' && strncmp(at, "NaN", 3);
        }
        at += length + (at[length] == '\n');
    }
    free(text);
    return n;
}

static void assert_caption(const char *folder, const char *name, const char *expected)
{
    char path[PATH];
    path_in(path, folder, name);
    char *text = hb_test_read_file(path);
    if (!text)
        fail_msg("%s was not written", path);
    text[strcspn(text, "\n")] = '\0';
    if (strcmp(text, expected))
        fail_msg("%s says [%s], not [%s]", path, text, expected);
    free(text);
}

static void test_report_and_compare_draw_where_the_speedup_comes_from(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    static const double h[] = {1.3, 1.2, 0.9, 2.0}, k[] = {1.2, 0.8, 0.85, 2.0};
    static const int failed[] = {0, 0, 0, 1};
    known f;
    make_known(&f, 4, h, k, failed);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.run, "--out", f.out, "--plots"), NULL, f.err), 0);
    assert_whole_figure(f.out, "report_speedup_source_offline");
    static const char caption[] = "2 of 3 passing configurations win on the headline timer (CUDA events), 1 on kernel "
                                  "time; against " BASELINE ", offline mode (a win: t_base / t_cand > 1)";
    assert_caption(f.out, "report_speedup_source_offline.txt", caption);
    char svg[PATH], data[PATH];
    path_in(svg, f.out, "report_speedup_source_offline.svg");
    assert_true(hb_test_file_contains(svg, caption)); /* the caption is the figure's title */
    assert_true(hb_test_file_contains(svg, "wins on the headline only: host path: 1"));
    path_in(data, f.out, "report_source_offline.dat");
    assert_int_equal(block_points(data, HB_SOURCE_BOTH), 1);
    assert_int_equal(block_points(data, HB_SOURCE_HEADLINE_ONLY), 1);
    assert_int_equal(block_points(data, HB_SOURCE_KERNEL_ONLY), 0);
    assert_int_equal(block_points(data, HB_SOURCE_NEITHER), 1);

    /* compare against the report's own published layout: the same three */
    char published[PATH];
    path_in(published, f.out, "speedup_offline.csv");
    assert_int_equal(hb_test_run(hb_test_report(),
                                 ARGS("compare", f.run, "--published", published, "--out", f.compared, "--plots"),
                                 NULL, f.err),
                     0);
    assert_whole_figure(f.compared, "compare_speedup_source_offline");
    assert_whole_figure(f.compared, "compare_offline");
    assert_caption(f.compared, "compare_speedup_source_offline.txt",
                   "2 of 3 passing configurations in the published file win on the headline timer (CUDA events), 1 on "
                   "kernel time; against " BASELINE ", offline mode (a win: t_base / t_cand > 1)");
    drop_known(&f);
}

/* compare's scatter: both axes span the points (and 1), 10 % beyond, not
 * a fixed 0.1..10; the key below the plot, not beside it. */
static void test_compare_scatter_axes_fit_the_data(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    static const double h[] = {1.3, 1.2, 0.9, 1.05, 0.7, 1.6}, k[] = {1.2, 0.8, 0.85, 1.0, 0.75, 1.5};
    known f;
    make_known(&f, 6, h, k, NULL);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.run, "--out", f.out), NULL, f.err), 0);
    char published[PATH], script[PATH], data[PATH];
    path_in(published, f.out, "speedup_offline.csv");
    assert_int_equal(hb_test_run(hb_test_report(),
                                 ARGS("compare", f.run, "--published", published, "--out", f.compared, "--plots"),
                                 NULL, f.err),
                     0);
    path_in(script, f.compared, "compare_figures.gp");
    path_in(data, f.compared, "compare_offline.dat");
    char *text = hb_test_read_file(script);
    assert_non_null(text);
    const char *x = strstr(text, "set xrange ["), *y = strstr(text, "set yrange [");
    assert_non_null(x);
    assert_non_null(y);
    double x_low, x_high, y_low, y_high;
    assert_int_equal(sscanf(x, "set xrange [%lf:%lf]", &x_low, &x_high), 2);
    assert_int_equal(sscanf(y, "set yrange [%lf:%lf]", &y_low, &y_high), 2);
    assert_non_null(strstr(text, "set key outside bottom center"));
    free(text);
    double low = 1, high = 1; /* the points, and 1 */
    FILE *d = fopen(data, "r");
    assert_non_null(d);
    char line[256];
    size_t points = 0;
    while (fgets(line, sizeof line, d)) {
        double a, b;
        if (line[0] == '#' || sscanf(line, "%lf %lf", &a, &b) != 2 || isnan(a))
            continue;
        low = fmin(low, fmin(a, b));
        high = fmax(high, fmax(a, b));
        points++;
    }
    fclose(d);
    assert_true(points >= 6);
    assert_true(fabs(x_low - low / 1.1) < 1e-4 * low && fabs(x_high - high * 1.1) < 1e-4 * high);
    assert_true(x_low == y_low && x_high == y_high);
    assert_true(x_low > 0.1 || x_high < 10); /* not the old fixed axes */
    drop_known(&f);
}

/* No configuration that counts: report and compare --plots exit 0 as
 * without --plots, write their tables, and their figures say there is
 * nothing to plot. */
static void test_figures_with_nothing_to_plot_say_so(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    static const double h[] = {1.3, 1.2}, k[] = {1.2, 0.8};
    static const int failed[] = {1, 1};
    known f;
    make_known(&f, 2, h, k, failed);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.run, "--out", f.out, "--plots"), NULL, f.err), 0);
    static const char *const report_figures[] = {"report_speedup_vs_size_offline", "report_ecdf_offline",
                                                 "report_speedup_source_offline"};
    for (size_t i = 0; i < sizeof report_figures / sizeof report_figures[0]; i++) {
        char svg[PATH], name[128];
        assert_whole_figure(f.out, report_figures[i]);
        snprintf(name, sizeof name, "%s.svg", report_figures[i]);
        path_in(svg, f.out, name);
        if (!hb_test_file_contains(svg, "No configuration to plot: none of the 2 configurations of the offline mode"))
            fail_msg("%s does not say there is nothing to plot", svg);
    }
    char table[PATH];
    path_in(table, f.out, "table1.csv");
    assert_true(hb_test_file_contains(table, "baseline"));

    /* compare: a published file none of whose rows we ran (the issue: exit 7, no tables) */
    char published[PATH];
    path_in(published, f.root, "nothing_offline.csv");
    write_text(published, "mnk,torch.matmul,cuBLAS-tn,cuBLAS-nn,cuBLAS-max,cuBLASLt-heuristic-tn,"
                          "cuBLASLt-heuristic-nn,cuBLASLt-heuristic-max,cuBLASLt-auto-tuning-tn,"
                          "cuBLASLt-auto-tuning-nn,cuBLASLt-auto-tuning-max\n"
                          "99_99_99,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1\n");
    assert_int_equal(hb_test_run(hb_test_report(),
                                 ARGS("compare", f.run, "--published", published, "--out", f.compared, "--plots"),
                                 NULL, f.err),
                     0);
    char md[PATH], summary[PATH];
    path_in(md, f.compared, "compare.md");
    path_in(summary, f.compared, "compare_summary.csv");
    assert_true(hb_test_file_contains(md, "compare"));
    assert_true(hb_test_file_contains(summary, "baseline"));
    static const char *const compare_figures[] = {"compare_offline", "compare_speedup_source_offline"};
    for (size_t i = 0; i < sizeof compare_figures / sizeof compare_figures[0]; i++) {
        char svg[PATH], name[128];
        assert_whole_figure(f.compared, compare_figures[i]);
        snprintf(name, sizeof name, "%s.svg", compare_figures[i]);
        path_in(svg, f.compared, name);
        if (!hb_test_file_contains(svg, "No configuration to plot: no passing configuration of ours is in the "
                                        "published file"))
            fail_msg("%s does not say there is nothing to plot", svg);
    }
    drop_known(&f);
}

/* --- what the titles call the candidate ------------------------------------------------------- */

/* An import's record for configuration 64_64_64 in `set_dir`. */
static void write_record(const char *set_dir, const char *format, const char *set_name)
{
    char folder[PATH], path[PATH], text[512];
    path_in(folder, set_dir, "64_64_64");
    hb_test_make_folder(folder);
    path_in(path, folder, "record.json");
    /* laid out as the importer writes it (bench/import/candidate_files.c) */
    snprintf(text, sizeof text, "{\"format\": \"%s\", \"source\": {\"set\": \"%s\", \"config\": [64, 64, 64]}}\n",
             format, set_name);
    write_text(path, text);
}

/* The title of the one candidate `candidate` of a set read from `source`. */
static void title_of(const char *candidate, const char *source, char *out, size_t size)
{
    hb_result_set set;
    hb_result_set_init(&set);
    hb_config_key key = {64, 64, 64, HB_MODE_OFFLINE};
    hb_config_entry *e;
    assert_int_equal(hb_result_set_entry(&set, &key, hb_result_set_keep(&set, source), 2, &e), HB_OK);
    e->candidate = hb_result_set_add_candidate(&set, candidate);
    assert_non_null(e->candidate);
    hb_candidate_titles(&set, out, size);
    hb_result_set_free(&set);
}

static void test_titles_name_the_candidate_set(void **state)
{
    (void)state;
    char root[PATH], out_dir[PATH], set_dir[PATH], sweep[PATH], source[PATH], title[512];
    hb_test_make_temp_dir("hb-candidate-title", root, sizeof root);
    path_in(out_dir, root, "reproduce-h100");
    path_in(set_dir, out_dir, "set");
    path_in(sweep, out_dir, "sweep");
    path_in(source, sweep, "summary.csv");
    hb_test_make_folder(set_dir);
    hb_test_make_folder(sweep);

    /* a set without an import's record: the folder's name */
    title_of(set_dir, source, title, sizeof title);
    assert_string_equal(title, "set");
    /* a set the import made: the set's name */
    write_record(set_dir, "hgemm-bench-import-record/1", "h100_F32F16F16F32");
    title_of(set_dir, source, title, sizeof title);
    assert_string_equal(title, "CUDA-L2 h100_F32F16F16F32");
    /* recorded on another machine: found beside the sweep it came with */
    title_of("/elsewhere/reproduce-h100/set", source, title, sizeof title);
    assert_string_equal(title, "CUDA-L2 h100_F32F16F16F32");
    /* a record of another format names nothing */
    write_record(set_dir, "something-else/1", "h100_F32F16F16F32");
    title_of(set_dir, source, title, sizeof title);
    assert_string_equal(title, "set");
    /* a manifest: its name */
    char manifest[PATH];
    path_in(manifest, root, "manifest.json");
    write_text(manifest, "{\"format\": \"hgemm-bench-candidate/1\", \"name\": \"sample-mma-pipelined\"}\n");
    title_of(manifest, source, title, sizeof title);
    assert_string_equal(title, "sample-mma-pipelined");
    /* a path that is nothing here: its last part */
    title_of("/nowhere/at/all/my_kernel.json", source, title, sizeof title);
    assert_string_equal(title, "my_kernel.json");
    /* a FIFO where a manifest would be is not opened (it would wait for a writer) */
    char fifo[PATH];
    path_in(fifo, root, "fifo.json");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    title_of(fifo, source, title, sizeof title);
    assert_string_equal(title, "fifo.json");
    hb_test_remove_tree(root);
}

/* --- a reproduction's figures name the set ------------------------------------------------------- */

/* report of a sweep whose candidate is an imported set: the figures' titles name it. */
static void test_report_titles_name_the_imported_set(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    char root[PATH], set_dir[PATH], sweep[PATH], out[PATH], svg[PATH];
    hb_test_make_temp_dir("hb-set-title", root, sizeof root);
    path_in(set_dir, root, "set");
    path_in(sweep, root, "sweep");
    path_in(out, root, "report");
    hb_fixture fixture;
    const hb_mode modes[2] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    assert_int_equal(hb_fixture_make(5, 4, modes, 2, 0.0, &fixture), HB_OK);
    hb_test_make_folder(set_dir);
    for (size_t i = 0; i < fixture.count; i++) {
        char folder[PATH], name[64], record[PATH];
        snprintf(name, sizeof name, "%ld_%ld_%ld", fixture.configs[i].mnk.m, fixture.configs[i].mnk.n,
                 fixture.configs[i].mnk.k);
        path_in(folder, set_dir, name);
        hb_test_make_folder(folder);
        path_in(record, folder, "record.json");
        write_text(record, "{\"format\": \"hgemm-bench-import-record/1\", \"source\": {\"set\": \"h100_F32F16F16F32\"}}\n");
    }
    assert_int_equal(hb_fixture_write_sweep(&fixture, sweep, set_dir, 0, 1, fixture.count, "Test GPU"), HB_OK);
    /* the sweep's env.json names its candidate, as a sweep's does (the fixture's names only the GPU) */
    assert_int_equal(hb_fixture_write_env(sweep, "Test GPU", set_dir, 1, 1, "hgemm-bench sweep"), HB_OK);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", sweep, "--out", out, "--plots"), NULL, NULL), 0);
    static const char *const figures[] = {"report_speedup_vs_size_offline.svg", "report_ecdf_server.svg",
                                          "report_speedup_source_offline.svg"};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        path_in(svg, out, figures[i]);
        if (!hb_test_file_contains(svg, "candidate: CUDA-L2 h100_F32F16F16F32;"))
            fail_msg("%s does not name the set", svg);
    }
    hb_fixture_free(&fixture);
    hb_test_remove_tree(root);
}

hb_test_list hb_source_figure_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_classes),
        cmocka_unit_test(test_source_counts_and_caption),
        cmocka_unit_test(test_report_and_compare_draw_where_the_speedup_comes_from),
        cmocka_unit_test(test_compare_scatter_axes_fit_the_data),
        cmocka_unit_test(test_figures_with_nothing_to_plot_say_so),
        cmocka_unit_test(test_titles_name_the_candidate_set),
        cmocka_unit_test(test_report_titles_name_the_imported_set),
    };
    return HB_TEST_LIST(tests);
}
