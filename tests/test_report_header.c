/* `report` as a user meets it on a sweep (docs/reports.md): a configuration
 * whose timing is in doubt (not traced, or its work left the events) is
 * counted and marked in every table; --timer kernel; the header's protocol
 * line, the left-out configurations by verdict and a build failure's reason
 * from the imported set's import.csv; --out leaves no stale file of an
 * earlier report and never removes another's; the JSON's percents and
 * counts; one CSV per table; the figures' script fitted to the data.  On
 * result folders the tests make (tests/result_fixture.c) and the binary as
 * a user runs it; the expected figures come from the fixture's records. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/core/status.h"
#include "bench/result/config_result.h"
#include "bench/result/timer_check.h"
#include "tests/result_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The report binary with `words`, stdout into `out` (NULL: /dev/null); its exit status. */
static int run_report(const char *const *words, const char *out)
{
    return hb_test_run(hb_test_report(), words, out, NULL);
}



static void path_in(char *out, const char *folder, const char *name)
{
    snprintf(out, PATH, "%.800s/%.200s", folder, name);
}

static int exists(const char *folder, const char *name)
{
    char path[PATH];
    struct stat st;
    path_in(path, folder, name);
    return stat(path, &st) == 0;
}

static void write_text(const char *folder, const char *name, const char *text)
{
    char path[PATH];
    path_in(path, folder, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* --- the report's JSON ---------------------------------------------------------------------------- */



static size_t rows_of(const json_t *table) { return json_array_size(json_object_get(table, "rows")); }

/* The row of `table` whose `column` is `text`. */
static size_t row_with(const json_t *table, const char *column, const char *text)
{
    for (size_t r = 0; r < rows_of(table); r++)
        if (!strcmp(json_string_value(hb_test_json_cell(table, r, column)), text))
            return r;
    fail_msg("table %s has no row with %s = %s", json_string_value(json_object_get(table, "name")), column, text);
    return 0;
}

/* 1 if one of the report's notes holds every one of `parts` (NULL-terminated). */
static int a_note_says(const json_t *doc, const char *const *parts)
{
    const json_t *notes = json_object_get(doc, "notes");
    for (size_t i = 0; i < json_array_size(notes); i++) {
        const char *note = json_string_value(json_array_get(notes, i));
        int all = 1;
        for (const char *const *p = parts; *p; p++)
            all &= strstr(note, *p) != NULL;
        if (all)
            return 1;
    }
    return 0;
}

static json_t *report_json(const char *root, const char *const *words)
{
    char out[PATH];
    path_in(out, root, "report.json.out");
    assert_int_equal(run_report(words, out), 0);
    return hb_test_load_json(out);
}

/* The fixture row named `name` of configuration `c`. */
static const hb_fixture_row *row_named(const hb_fixture_config *c, const char *name)
{
    for (size_t r = 0; r < c->n_rows; r++)
        if (!strcmp(c->rows[r].name, name))
            return &c->rows[r];
    fail_msg("no fixture row %s", name);
    return NULL;
}

static void mnk_of(const hb_fixture_config *c, char *out, size_t size)
{
    snprintf(out, size, "%ld_%ld_%ld", c->mnk.m, c->mnk.n, c->mnk.k);
}

/* --- doubt ------------------------------------------------------------------------------------------ */

/* One configuration never traced, one whose work left the events: both
 * still count, and every table says so. */
static void test_report_marks_a_configuration_whose_timing_is_in_doubt(void **state)
{
    (void)state;
    char root[PATH], folder[PATH];
    hb_test_make_temp_dir("hb-doubt", root, sizeof root);
    path_in(folder, root, "run");
    hb_fixture f;
    const hb_mode offline = HB_MODE_OFFLINE;
    assert_int_equal(hb_fixture_make(41, 24, &offline, 1, 0.0, &f), HB_OK);
    assert_int_equal(hb_fixture_set_timing(&f.configs[0], "--no-trace", 0), HB_OK);
    assert_int_equal(hb_fixture_set_timing(&f.configs[1], "", HB_TIMER_REASON_OTHER_STREAM), HB_OK);
    assert_int_equal(hb_fixture_write_run(&f, 0, f.count, folder, "Test GPU 80GB"), HB_OK);

    json_t *doc = report_json(root, ARGS("report", folder, "--format", "json"));
    const json_t *t1 = hb_test_json_table(doc, "table1");
    size_t torch = row_with(t1, "baseline", "torch");
    assert_true(json_is_integer(hb_test_json_cell(t1, torch, "configs")));
    assert_int_equal(json_integer_value(hb_test_json_cell(t1, torch, "configs")), 24);
    assert_int_equal(json_integer_value(hb_test_json_cell(t1, torch, "in_doubt")), 2);
    assert_int_equal(json_integer_value(hb_test_json_cell(t1, torch, "traced")), 23);
    const json_t *t3 = hb_test_json_table(doc, "table3");
    json_int_t doubt3 = 0;
    for (size_t r = 0; r < rows_of(t3); r++)
        if (!strcmp(json_string_value(hb_test_json_cell(t3, r, "binning")), "log2(MNK)"))
            doubt3 += json_integer_value(hb_test_json_cell(t3, r, "in_doubt"));
    assert_int_equal(doubt3, 2); /* each bin of a binning holds its own */

    /* the doubtful ones, each with why */
    const json_t *doubt = hb_test_json_table(doc, "timing_doubt");
    assert_int_equal(rows_of(doubt), 2);
    char mnk[64];
    mnk_of(&f.configs[0], mnk, sizeof mnk);
    assert_string_equal(json_string_value(hb_test_json_cell(doubt, row_with(doubt, "mnk", mnk), "doubt")), "not traced: --no-trace");
    mnk_of(&f.configs[1], mnk, sizeof mnk);
    assert_string_equal(json_string_value(hb_test_json_cell(doubt, row_with(doubt, "mnk", mnk), "doubt")),
                        "wall headline: other-stream");

    /* the figure of the one whose headline went to the wall clock is its headline's, the wall clock's */
    const json_t *published = hb_test_json_table(doc, "speedup_offline");
    const json_t *r = hb_test_json_cell(published, row_with(published, "mnk", mnk), "torch.matmul");
    assert_true(fabs(json_number_value(r) - row_named(&f.configs[1], "torch")->paper_wall) < 1e-6);
    assert_true(fabs(row_named(&f.configs[1], "torch")->paper - row_named(&f.configs[1], "torch")->paper_wall) > 1e-6);
    assert_non_null(strstr(json_string_value(json_object_get(published, "caption")), "2 of its rows are in doubt"));
    assert_true(a_note_says(doc, ARGS("offline: 24 configurations", "conduct checked (traced) in 23 of 24",
                                      "2 in the means have timing in doubt")));
    json_decref(doc);

    /* one rule, whichever timer the tables are on */
    doc = report_json(root, ARGS("report", folder, "--format", "json", "--timer", "wall"));
    t1 = hb_test_json_table(doc, "table1");
    assert_int_equal(json_integer_value(hb_test_json_cell(t1, row_with(t1, "baseline", "torch"), "in_doubt")), 2);
    assert_int_equal(rows_of(hb_test_json_table(doc, "timing_doubt")), 2);
    json_decref(doc);
    hb_fixture_free(&f);
    hb_test_remove_tree(root);
}

/* JSON's _pct fields hold percents, as markdown and CSV show them. */
static void test_report_json_holds_percents_and_integer_counts(void **state)
{
    (void)state;
    char root[PATH], folder[PATH];
    hb_test_make_temp_dir("hb-pct", root, sizeof root);
    path_in(folder, root, "run");
    hb_fixture f;
    const hb_mode server = HB_MODE_SERVER;
    assert_int_equal(hb_fixture_make(43, 16, &server, 1, 0.0, &f), HB_OK);
    assert_int_equal(hb_fixture_write_run(&f, 0, f.count, folder, "Test GPU 80GB"), HB_OK);
    double sum = 0, wins = 0;
    for (size_t i = 0; i < f.count; i++) {
        double p = row_named(&f.configs[i], "cublas-nn")->paper;
        sum += p;
        wins += p > 1;
    }
    json_t *doc = report_json(root, ARGS("report", folder, "--format", "json"));
    const json_t *t1 = hb_test_json_table(doc, "table1");
    size_t row = row_with(t1, "baseline", "cublas-nn");
    assert_true(fabs(json_number_value(hb_test_json_cell(t1, row, "paper_mean_pct")) - 100.0 * (sum / 16.0 - 1.0)) < 1e-5);
    assert_true(fabs(json_number_value(hb_test_json_cell(t1, row, "paper_wins_pct")) - 100.0 * wins / 16.0) < 1e-9);
    assert_true(json_is_integer(hb_test_json_cell(t1, row, "configs")));
    assert_true(json_is_integer(hb_test_json_cell(t1, row, "in_doubt")));
    assert_true(json_is_real(hb_test_json_cell(t1, row, "geomean_pct")));
    assert_string_equal(json_string_value(json_object_get(doc, "format")), "hgemm-bench-report/2");
    json_decref(doc);
    hb_fixture_free(&f);
    hb_test_remove_tree(root);
}

/* --timer kernel: the ratio of the kernel medians, both estimators. */
static void test_report_timer_kernel_uses_the_kernel_medians(void **state)
{
    (void)state;
    char root[PATH], folder[PATH];
    hb_test_make_temp_dir("hb-kernel", root, sizeof root);
    path_in(folder, root, "run");
    hb_fixture f;
    const hb_mode offline = HB_MODE_OFFLINE;
    assert_int_equal(hb_fixture_make(47, 12, &offline, 1, 0.0, &f), HB_OK);
    for (size_t i = 0; i < f.count; i++)
        assert_int_equal(hb_fixture_set_kernel(&f.configs[i]), HB_OK);
    assert_int_equal(hb_fixture_write_run(&f, 0, f.count, folder, "Test GPU 80GB"), HB_OK);
    double sum = 0, logs = 0;
    for (size_t i = 0; i < f.count; i++) {
        double k = row_named(&f.configs[i], "torch")->kernel;
        assert_true(k > 0 && fabs(k - row_named(&f.configs[i], "torch")->paper) > 1e-3); /* unlike the events' */
        sum += k;
        logs += log(k);
    }
    json_t *doc = report_json(root, ARGS("report", folder, "--format", "json", "--timer", "kernel"));
    const json_t *t1 = hb_test_json_table(doc, "table1");
    size_t row = row_with(t1, "baseline", "torch");
    assert_int_equal(json_integer_value(hb_test_json_cell(t1, row, "configs")), 12);
    assert_true(fabs(json_number_value(hb_test_json_cell(t1, row, "paper_mean_pct")) - 100.0 * (sum / 12.0 - 1.0)) < 1e-5);
    assert_true(fabs(json_number_value(hb_test_json_cell(t1, row, "geomean_pct")) - 100.0 * (exp(logs / 12.0) - 1.0)) < 1e-5);
    assert_non_null(strstr(json_string_value(json_object_get(t1, "caption")), "speedup_kernel"));
    json_decref(doc);
    hb_fixture_free(&f);
    hb_test_remove_tree(root);
}

/* --- the header ------------------------------------------------------------------------------------- */

/* A sweep of an imported set with --no-trace: the header says what was run
 * and how, counts the left-out by verdict, and a configuration that did not
 * build gets the importer's reason, not the run's path on the GPU host. */
static void test_report_header_states_the_protocol(void **state)
{
    (void)state;
    char root[PATH], sweep[PATH], set[PATH], plan_path[PATH];
    hb_test_make_temp_dir("hb-header", root, sizeof root);
    path_in(sweep, root, "sweep");
    path_in(set, root, "h100_set");
    assert_int_equal(mkdir(set, 0755), 0);
    hb_fixture f;
    const hb_mode offline = HB_MODE_OFFLINE;
    assert_int_equal(hb_fixture_make(53, 12, &offline, 1, 0.0, &f), HB_OK);
    for (size_t i = 0; i < 2; i++) { /* two sizes the set has no cubin for */
        hb_config_result *r = f.configs[i].result;
        r->verdict = HB_VERDICT_UNSUPPORTED;
        r->status = HB_ERR_UNSUPPORTED;
        r->measured = 0;
        snprintf(r->check, sizeof r->check, "execution");
        snprintf(r->reason, sizeof r->reason, "candidate set /gpu-host/sets/h100 has no manifest for %ld,%ld,%ld",
                 r->mnk.m, r->mnk.n, r->mnk.k);
        f.configs[i].verdict = HB_VERDICT_UNSUPPORTED;
        assert_int_equal(hb_fixture_rewrite(&f.configs[i]), HB_OK);
    }
    char csv[1024];
    snprintf(csv, sizeof csv,
             "m,n,k,file,kind,hopper_features,state,forms,launches_per_call,no_cubin_because,reason,build_seconds,cache_key\n"
             "%ld,%ld,%ld,x.cu,one-kernel,,failed,,,,\"compile: timed out after 150 s\",150.0,\n"
             "%ld,%ld,%ld,y.cu,one-kernel,,built,\"launcher,cubin\",1,,,3.2,abc\n",
             f.configs[0].mnk.m, f.configs[0].mnk.n, f.configs[0].mnk.k, f.configs[2].mnk.m, f.configs[2].mnk.n,
             f.configs[2].mnk.k);
    write_text(set, "import.csv", csv);
    assert_int_equal(hb_fixture_write_sweep(&f, sweep, set, 0, 1, f.count, "Test GPU 80GB"), HB_OK);
    /* env.json as a --no-trace sweep writes it (the run's own writer) */
    assert_int_equal(hb_fixture_write_env(sweep, "Test GPU 80GB", set, 0, 5, "hgemm-bench sweep ... --no-trace"),
                     HB_OK);

    json_t *doc = report_json(root, ARGS("report", sweep, "--format", "json"));
    path_in(plan_path, sweep, "plan.json");
    json_t *plan = hb_test_load_json(plan_path);
    const char *commit = json_string_value(json_object_get(plan, "harness_commit"));
    assert_non_null(commit);
    assert_true(a_note_says(doc, ARGS(": sweep, candidate ", "h100_set", "mode offline",
                                      "plan: 12 configurations x 1 modes = 12 items",
                                      "a stratified sample of 12 of --grid paper (1000 configurations), drawn with seed 5",
                                      "warm-up 0.25 s, timed window 1.5 s", "trace OFF (--no-trace", commit)));
    assert_true(a_note_says(doc, ARGS("offline: 12 configurations, 10 in the means, 2 left out (unsupported 2)")));
    json_decref(plan);

    const json_t *excluded = hb_test_json_table(doc, "excluded");
    char mnk[64];
    mnk_of(&f.configs[0], mnk, sizeof mnk);
    assert_string_equal(json_string_value(hb_test_json_cell(excluded, row_with(excluded, "mnk", mnk), "reason")),
                        "not built (import.csv: failed): compile: timed out after 150 s");
    mnk_of(&f.configs[1], mnk, sizeof mnk); /* not in import.csv: the run's own reason stays */
    assert_non_null(strstr(json_string_value(hb_test_json_cell(excluded, row_with(excluded, "mnk", mnk), "reason")), "has no manifest"));
    json_decref(doc);
    hb_fixture_free(&f);
    hb_test_remove_tree(root);
}

/* A configuration that ended before its candidate's first call (the GPU
 * could not be opened, its file did not build) was never traced, though a
 * summary.csv of an older harness left its trace_note empty: the notes do
 * not count it as traced.  A sweep that ran no configuration says so, not
 * "trace on". */
static void test_report_counts_as_traced_only_what_ran(void **state)
{
    (void)state;
    char root[PATH], run[PATH], sweep[PATH];
    hb_test_make_temp_dir("hb-traced", root, sizeof root);
    path_in(run, root, "run");
    path_in(sweep, root, "sweep");
    hb_fixture f;
    const hb_mode offline = HB_MODE_OFFLINE;
    assert_int_equal(hb_fixture_make(61, 4, &offline, 1, 0.0, &f), HB_OK);
    hb_config_result *never = f.configs[0].result;
    never->verdict = HB_VERDICT_ERROR;
    never->status = HB_ERR_CUDA;
    never->measured = 0;
    memset(&never->battery, 0, sizeof never->battery); /* no check began: the candidate was never called */
    snprintf(never->reason, sizeof never->reason, "no CUDA GPU on this machine");
    never->trace_note[0] = '\0'; /* as a harness before the note wrote it */
    f.configs[0].verdict = HB_VERDICT_ERROR;
    assert_int_equal(hb_fixture_rewrite(&f.configs[0]), HB_OK);
    assert_int_equal(hb_fixture_write_run(&f, 0, f.count, run, "Test GPU 80GB"), HB_OK);
    json_t *doc = report_json(root, ARGS("report", run, "--format", "json"));
    assert_true(a_note_says(doc, ARGS("offline: 4 configurations", "conduct checked (traced) in 3 of 4 (partly traced)")));
    assert_false(a_note_says(doc, ARGS("conduct checked (traced) in 4 of 4")));
    json_decref(doc);

    assert_int_equal(hb_fixture_write_sweep(&f, sweep, "cand", 0, 1, 0, "Test GPU 80GB"), HB_OK);
    doc = report_json(root, ARGS("report", sweep, "--format", "json"));
    assert_true(a_note_says(doc, ARGS(": sweep, candidate ", "trace none: no configuration ran")));
    assert_false(a_note_says(doc, ARGS("trace on")));
    assert_false(a_note_says(doc, ARGS("conduct checked")));
    json_decref(doc);
    hb_fixture_free(&f);
    hb_test_remove_tree(root);
}

/* --- the files -------------------------------------------------------------------------------------- */

/* A report of both modes, then one of offline only, into the same folder:
 * the server table goes, another's files stay; a list that names paths
 * outside the folder removes nothing there. */
static void test_report_out_leaves_no_stale_file(void **state)
{
    (void)state;
    char root[PATH], both[PATH], one[PATH], out[PATH], outside[PATH];
    hb_test_make_temp_dir("hb-stale", root, sizeof root);
    path_in(both, root, "both");
    path_in(one, root, "one");
    path_in(out, root, "out");
    hb_fixture two, single;
    const hb_mode modes[2] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    assert_int_equal(hb_fixture_make(59, 6, modes, 2, 0.0, &two), HB_OK);
    assert_int_equal(hb_fixture_make(61, 6, modes, 1, 0.0, &single), HB_OK);
    assert_int_equal(hb_fixture_write_run(&two, 0, two.count, both, "Test GPU 80GB"), HB_OK);
    assert_int_equal(hb_fixture_write_run(&single, 0, single.count, one, "Test GPU 80GB"), HB_OK);

    assert_int_equal(run_report(ARGS("report", both, "--out", out), NULL), 0);
    assert_true(exists(out, "speedup_server.csv"));
    write_text(out, "notes.txt", "mine\n");
    write_text(out, "speedup_extra.csv", "mine\n");
    assert_int_equal(run_report(ARGS("report", one, "--out", out), NULL), 0);
    assert_false(exists(out, "speedup_server.csv"));
    assert_true(exists(out, "speedup_offline.csv"));
    assert_true(exists(out, "notes.txt"));
    assert_true(exists(out, "speedup_extra.csv"));

    /* a folder without a manifest: nothing vouches that a file is a report's, so nothing goes */
    char old[PATH];
    path_in(old, root, "old");
    assert_int_equal(mkdir(old, 0755), 0);
    write_text(old, "speedup_server.csv", "old\n");
    write_text(old, "mine.csv", "mine\n");
    assert_int_equal(run_report(ARGS("report", one, "--out", old), NULL), 0);
    assert_true(exists(old, "speedup_server.csv"));
    assert_true(exists(old, "mine.csv"));

    /* a stale file of the report's changed since it was written: it stays */
    assert_int_equal(run_report(ARGS("report", both, "--out", old), NULL), 0);
    write_text(old, "speedup_server.csv", "edited since\n");
    assert_int_equal(run_report(ARGS("report", one, "--out", old), NULL), 0);
    assert_true(exists(old, "speedup_server.csv"));

    /* a list edited to name what is not the report's: nothing outside, nothing hidden */
    path_in(outside, root, "victim.txt");
    write_text(root, "victim.txt", "keep\n");
    write_text(out, ".hidden", "keep\n");
    char list[PATH * 2];
    snprintf(list, sizeof list, "../victim.txt\n%s\n.hidden\n.\n..\n\n", outside);
    write_text(out, ".hgemm-report.files", list);
    assert_int_equal(run_report(ARGS("report", one, "--out", out), NULL), 0);
    assert_true(exists(root, "victim.txt"));
    assert_true(exists(out, ".hidden"));
    assert_true(exists(out, "table1.csv"));
    hb_fixture_free(&two);
    hb_fixture_free(&single);
    hb_test_remove_tree(root);
}

/* Every table of report.json is a CSV file of its own, headed by its columns. */
static void test_report_writes_one_csv_per_table(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], out[PATH], path[PATH];
    hb_test_make_temp_dir("hb-csv", root, sizeof root);
    path_in(folder, root, "run");
    path_in(out, root, "out");
    hb_fixture f;
    const hb_mode modes[2] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    assert_int_equal(hb_fixture_make(67, 8, modes, 2, 0.3, &f), HB_OK);
    assert_int_equal(hb_fixture_write_run(&f, 0, f.count, folder, "Test GPU 80GB"), HB_OK);
    assert_int_equal(run_report(ARGS("report", folder, "--out", out), NULL), 0);
    path_in(path, out, "report.json");
    json_t *doc = hb_test_load_json(path);
    const json_t *tables = json_object_get(doc, "tables");
    assert_true(json_array_size(tables) >= 8);
    for (size_t i = 0; i < json_array_size(tables); i++) {
        const json_t *t = json_array_get(tables, i);
        char name[128], header[2048] = "";
        snprintf(name, sizeof name, "%s.csv", json_string_value(json_object_get(t, "name")));
        path_in(path, out, name);
        char *text = hb_test_read_file(path);
        assert_non_null(text);
        const json_t *columns = json_object_get(t, "columns");
        for (size_t c = 0; c < json_array_size(columns); c++)
            snprintf(header + strlen(header), sizeof header - strlen(header), "%s%s", c ? "," : "",
                     json_string_value(json_array_get(columns, c)));
        assert_int_equal(strncmp(text, header, strlen(header)), 0);
        assert_int_equal(text[strlen(header)], '\n');
        assert_null(strstr(text, "\n#")); /* one table, no comment lines between tables */
        free(text);
    }
    json_decref(doc);
    hb_fixture_free(&f);
    hb_test_remove_tree(root);
}

/* The figures' script, without gnuplot: a stand-in that exits 0 and draws
 * nothing is an error (exit 7: gnuplot says 0 where a full disk left it no
 * figure), one that writes each figure the script names as a whole, empty
 * PNG or SVG passes.  The ratio axis holds every point and little more, the
 * title names the GPU, the candidate and n. */
static void test_report_figure_script_fits_the_data(void **state)
{
    (void)state;
    char root[PATH], folder[PATH], out[PATH], bin[PATH], path[PATH];
    hb_test_make_temp_dir("hb-figure", root, sizeof root);
    path_in(folder, root, "run");
    path_in(out, root, "out");
    path_in(bin, root, "bin");
    assert_int_equal(mkdir(bin, 0755), 0);
    write_text(bin, "gnuplot", "#!/bin/sh\nexit 0\n");
    path_in(path, bin, "gnuplot");
    assert_int_equal(chmod(path, 0755), 0);
    static const char draws[] = /* $1: the script, run in its folder */
        "#!/bin/sh\n"
        "sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\" | while read -r figure; do\n"
        "    case \"$figure\" in\n"
        "    *.png) printf '\\211PNG\\r\\n\\032\\n\\000\\000\\000\\000IEND\\256B`\\202' > \"$figure\" ;;\n"
        "    *.svg) printf '<svg>\\n</svg>\\n' > \"$figure\" ;;\n"
        "    esac\n"
        "done\n";
    hb_fixture f;
    const hb_mode offline = HB_MODE_OFFLINE;
    assert_int_equal(hb_fixture_make(71, 20, &offline, 1, 0.0, &f), HB_OK);
    assert_int_equal(hb_fixture_write_run(&f, 0, f.count, folder, "Test GPU 80GB"), HB_OK);
    assert_int_equal(hb_fixture_write_env(folder, "Test GPU 80GB", "/sets/h100_F32F16F16F32", 1, 1, "hgemm-bench run"),
                     HB_OK);
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < f.count; i++)
        for (size_t r = 0; r < f.configs[i].n_rows; r++) {
            lo = fmin(lo, f.configs[i].rows[r].paper);
            hi = fmax(hi, f.configs[i].rows[r].paper);
        }
    const char *old_path = getenv("PATH");
    char *saved = strdup(old_path ? old_path : "");
    char new_path[PATH * 4];
    snprintf(new_path, sizeof new_path, "%s:%s", bin, saved);
    setenv("PATH", new_path, 1);
    int drew_nothing = run_report(ARGS("report", folder, "--out", out, "--plots"), NULL);
    char figure[PATH];
    path_in(figure, out, "report_ecdf_offline.png");
    assert_false(access(figure, F_OK) == 0);
    write_text(bin, "gnuplot", draws);
    int status = run_report(ARGS("report", folder, "--out", out, "--plots"), NULL);
    setenv("PATH", saved, 1);
    free(saved);
    assert_int_equal(drew_nothing, 7);
    assert_int_equal(status, 0);
    assert_true(access(figure, F_OK) == 0);
    path_in(path, out, "report_figures.gp");
    char *gp = hb_test_read_file(path);
    assert_non_null(gp);
    const char *range = strstr(gp, "set yrange [");
    assert_non_null(range);
    double low = NAN, high = NAN;
    assert_int_equal(sscanf(range, "set yrange [%lf:%lf]", &low, &high), 2);
    assert_true(low <= lo && low >= fmin(lo, 1.0) / 1.2);
    assert_true(high >= hi && high <= fmax(hi, 1.0) * 1.2);
    assert_non_null(strstr(gp, "GPU: Test GPU 80GB; candidate: h100_F32F16F16F32; n = 20 configurations"));
    assert_non_null(strstr(gp, "set multiplot layout 1,2"));
    assert_non_null(strstr(gp, "-max: over the faster of NN and TN"));
    free(gp);
    hb_fixture_free(&f);
    hb_test_remove_tree(root);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_report_marks_a_configuration_whose_timing_is_in_doubt),
    cmocka_unit_test(test_report_json_holds_percents_and_integer_counts),
    cmocka_unit_test(test_report_timer_kernel_uses_the_kernel_medians),
    cmocka_unit_test(test_report_header_states_the_protocol),
    cmocka_unit_test(test_report_counts_as_traced_only_what_ran),
    cmocka_unit_test(test_report_out_leaves_no_stale_file),
    cmocka_unit_test(test_report_writes_one_csv_per_table),
    cmocka_unit_test(test_report_figure_script_fits_the_data),
};

hb_test_list hb_report_header_tests(void)
{
    return (hb_test_list){tests, sizeof tests / sizeof tests[0]};
}
