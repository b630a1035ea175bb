/* Tests of `compare` against a published file (docs/reports.md, "compare"),
 * on result folders the tests make (tests/result_fixture.c: the run's own
 * summary.csv writer): every timer beside the published figure, computed
 * here again from the records the fixture wrote; the status of each
 * configuration against its noise and --threshold's exit code; what is
 * refused (another mode, another class) and what is warned (another GPU);
 * counts instead of lists; the timing-doubt marker. */
#define _POSIX_C_SOURCE 200809L

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/status.h"
#include "bench/result/config_result.h"
#include "bench/result/timer_check.h"
#include "tests/result_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024
#define TOLERANCE 1e-7 /* summary.csv keeps 9 digits */
#define GPU_NAME "Test GPU 80GB"


/* A root with one offline run folder. */
typedef struct folder {
    char root[PATH], run[PATH], out[PATH], stdout_path[PATH], stderr_path[PATH];
    hb_fixture fixture;
} folder;

static void make_folder(folder *f, size_t count, double failed_share, uint64_t seed)
{
    memset(f, 0, sizeof *f);
    hb_test_make_temp_dir("hb-compare", f->root, sizeof f->root);
    snprintf(f->run, sizeof f->run, "%.900s/offline-run", f->root);
    snprintf(f->out, sizeof f->out, "%.900s/out", f->root);
    snprintf(f->stdout_path, sizeof f->stdout_path, "%.900s/stdout.txt", f->root);
    snprintf(f->stderr_path, sizeof f->stderr_path, "%.900s/stderr.txt", f->root);
    const hb_mode offline = HB_MODE_OFFLINE;
    assert_int_equal(hb_fixture_make(seed, count, &offline, 1, failed_share, &f->fixture), HB_OK);
}

static void write_folder(folder *f)
{
    assert_int_equal(hb_fixture_write_run(&f->fixture, 0, f->fixture.count, f->run, GPU_NAME), HB_OK);
}

static void drop_folder(folder *f)
{
    hb_fixture_free(&f->fixture);
    hb_test_remove_tree(f->root);
}

/* `compare RUN --published PUBLISHED EXTRA` with stdout and stderr into the folder's files; its exit status. */
static int compare(const folder *f, const char *published, const char *extra)
{
    char command[8 * PATH];
    snprintf(command, sizeof command, "'%.1000s' compare '%s' --published '%.1000s' %.1000s > '%s' 2> '%s'",
             hb_test_report(), f->run, published, extra, f->stdout_path, f->stderr_path);
    return hb_test_shell(command);
}

static void published_path(const folder *f, const char *name, char *out)
{
    snprintf(out, PATH, "%.800s/%.200s", f->root, name);
}

static int counts(const hb_fixture_config *c)
{
    return c->verdict == HB_VERDICT_PASS || c->verdict == HB_VERDICT_TOO_SLOW;
}

/* --- the fixture's own figures ----------------------------------------------------------------- */

static const char *const column_names[] = {"torch",
                                           "cublas-tn",
                                           "cublas-nn",
                                           "cublas-max",
                                           "cublaslt-heuristic-tn",
                                           "cublaslt-heuristic-nn",
                                           "cublaslt-heuristic-max",
                                           "cublaslt-autotune-tn",
                                           "cublaslt-autotune-nn",
                                           "cublaslt-autotune-max"};
#define COLUMNS 10

static const hb_participant_result *participant(const hb_fixture_config *c, const char *name)
{
    for (size_t i = 0; i < c->result->count; i++)
        if (!strcmp(c->result->participants[i].name, name))
            return &c->result->participants[i];
    fail_msg("no participant %s", name);
    return NULL;
}

/* CUDA-L2's estimator written out again: mean(1/t_c) / mean(1/t_b) from
 * the means and relative standard deviations, (mu_b/mu_c)(1+cv_c^2)/(1+cv_b^2). */
static double repo_of(const hb_fixture_config *c, const char *name)
{
    const hb_participant_result *b = participant(c, name), *cand = &c->result->participants[0];
    double cb = b->wall_ms.rel_stdev, cc = cand->wall_ms.rel_stdev;
    return b->wall_ms.mean / cand->wall_ms.mean * (1 + cc * cc) / (1 + cb * cb);
}

enum { EVENTS, WALL, KERNEL, REPO };

/* t_b/t_c of column `col` on timer `timer`, as summary.csv's records give it. */
static double figure(const hb_fixture_config *c, int col, int timer)
{
    const char *name = column_names[col];
    const hb_participant_result *b = participant(c, name), *cand = &c->result->participants[0];
    switch (timer) {
    case EVENTS: return b->speedup_event.paper + 1;
    case WALL: return b->speedup_wall.paper + 1;
    case KERNEL: return b->kernel.span_us / cand->kernel.span_us;
    default:
        if (strstr(name, "-max")) { /* the smaller of TN and NN, as CUDA-L2 picks it */
            char tn[48], nn[48];
            size_t stem = strlen(name) - 4;
            snprintf(tn, sizeof tn, "%.*s-tn", (int)stem, name);
            snprintf(nn, sizeof nn, "%.*s-nn", (int)stem, name);
            return fmin(repo_of(c, tn), repo_of(c, nn));
        }
        return repo_of(c, name);
    }
}

/* The published file: per configuration that counts, t_b/t_c = our paper's
 * figure times `factor[col]` (3 decimals), and `extra` sizes we lack. */
static size_t write_published(const folder *f, const char *path, const double *factor, size_t extra)
{
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs("mnk,torch.matmul,cuBLAS-tn,cuBLAS-nn,cuBLAS-max,cuBLASLt-heuristic-tn,cuBLASLt-heuristic-nn,"
          "cuBLASLt-heuristic-max,cuBLASLt-auto-tuning-tn,cuBLASLt-auto-tuning-nn,cuBLASLt-auto-tuning-max\n",
          out);
    size_t n = 0;
    for (size_t i = 0; i < f->fixture.count; i++) {
        const hb_fixture_config *c = &f->fixture.configs[i];
        if (!counts(c))
            continue;
        n++;
        fprintf(out, "%ld_%ld_%ld", c->mnk.m, c->mnk.n, c->mnk.k);
        for (int col = 0; col < COLUMNS; col++)
            fprintf(out, ",%.3f", (participant(c, column_names[col])->speedup_event.paper + 1) * factor[col]);
        fputc('\n', out);
    }
    for (size_t e = 0; e < extra; e++) /* sizes off the fixture's grid (its dimensions are powers of 2 or 12288) */
        fprintf(out, "%zu_100_100,1.5,1,1,1,1,1,1,1,1,1\n", 101 + e);
    assert_int_equal(fclose(out), 0);
    return n;
}

static const double same[COLUMNS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

/* --- reading the JSON ----------------------------------------------------------------------------- */




/* A number of the JSON; a `_pct` column's as a fraction (JSON holds percent: docs/reports.md, "Output"). */
static double number_at(const json_t *table, size_t row, const char *column)
{
    const json_t *v = hb_test_json_cell(table, row, column);
    size_t length = strlen(column);
    double scale = length > 4 && !strcmp(column + length - 4, "_pct") ? 0.01 : 1.0;
    return json_is_number(v) ? json_number_value(v) * scale : NAN;
}

static const char *text_at(const json_t *table, size_t row, const char *column)
{
    return json_string_value(hb_test_json_cell(table, row, column));
}

static size_t row_count(const json_t *table) { return json_array_size(json_object_get(table, "rows")); }

/* The row of `table` whose `key` column reads `value` (and `key2` `value2`, when given). */
static size_t row_where(const json_t *table, const char *key, const char *value, const char *key2, const char *value2)
{
    for (size_t row = 0; row < row_count(table); row++)
        if (!strcmp(text_at(table, row, key), value) && (!key2 || !strcmp(text_at(table, row, key2), value2)))
            return row;
    fail_msg("no row with %s %s", key, value);
    return 0;
}

static void assert_close(double got, double want, const char *what)
{
    if (!(fabs(got - want) <= TOLERANCE) && !(isnan(got) && isnan(want)))
        fail_msg("%s: compare says %.12g, the independent computation %.12g", what, got, want);
}

static int notes_contain(const json_t *doc, const char *needle)
{
    const json_t *notes = json_object_get(doc, "notes");
    for (size_t i = 0; i < json_array_size(notes); i++)
        if (strstr(json_string_value(json_array_get(notes, i)), needle))
            return 1;
    return 0;
}

/* --- tests ------------------------------------------------------------------------------------------ */

/* Per column, the "all" row of compare_timers_<column>: the published mean
 * and ours on events, wall, kernel and the repo's estimator, each the
 * arithmetic mean of t_b/t_c - 1 over the configurations both sides have;
 * the bins hold every configuration once; the per-configuration table has
 * every timer's figure. */
static void test_compare_timers_match_an_independent_computation(void **state)
{
    (void)state;
    folder f;
    make_folder(&f, 50, 0.2, 71);
    write_folder(&f);
    char published[PATH], json[PATH];
    published_path(&f, "cuda_l2_test_F32F16F16F32_speedup_offline.csv", published);
    const double factor[COLUMNS] = {1.1, 0.9, 1, 1, 1.05, 1, 1, 1, 1, 1.2};
    size_t n = write_published(&f, published, factor, 0);
    assert_int_equal(compare(&f, published, "--format json"), 0);
    snprintf(json, sizeof json, "%s", f.stdout_path);
    json_t *doc = hb_test_load_json(json);
    for (int col = 0; col < COLUMNS; col++) {
        char name[96];
        snprintf(name, sizeof name, "compare_timers_%s", column_names[col]);
        const json_t *t = hb_test_json_table(doc, name);
        size_t all = row_where(t, "bin", "all", NULL, NULL);
        double sum[4] = {0}, published_sum = 0;
        for (size_t i = 0; i < f.fixture.count; i++) {
            const hb_fixture_config *c = &f.fixture.configs[i];
            if (!counts(c))
                continue;
            published_sum += round((figure(c, col, EVENTS)) * factor[col] * 1000) / 1000;
            for (int timer = 0; timer < 4; timer++)
                sum[timer] += figure(c, col, timer);
        }
        assert_int_equal((size_t)number_at(t, all, "configs"), n);
        assert_int_equal((size_t)number_at(t, all, "kernel_configs"), n);
        assert_close(number_at(t, all, "published_mean_pct"), published_sum / (double)n - 1, name);
        static const char *const columns[] = {"events_mean_pct", "wall_mean_pct", "kernel_mean_pct", "repo_mean_pct"};
        for (int timer = 0; timer < 4; timer++) {
            char what[160];
            snprintf(what, sizeof what, "%s %s", name, columns[timer]);
            assert_close(number_at(t, all, columns[timer]), sum[timer] / (double)n - 1, what);
        }
        /* the bins: every configuration in one */
        size_t binned = 0;
        for (size_t row = 0; row < row_count(t); row++)
            if (row != all)
                binned += (size_t)number_at(t, row, "configs");
        assert_int_equal(binned, n);
        double low = number_at(t, all, "ci95_low_pct"), high = number_at(t, all, "ci95_high_pct"),
               g = number_at(t, all, "geomean_pct");
        assert_true(low < g && g < high);
    }
    /* the repo's -max is the smaller of TN and NN; the timers differ from each other in the fixture */
    const json_t *configs = hb_test_json_table(doc, "compare_timer_configs");
    assert_int_equal(row_count(configs), n * COLUMNS);
    for (size_t i = 0; i < f.fixture.count; i++) {
        const hb_fixture_config *c = &f.fixture.configs[i];
        if (!counts(c))
            continue;
        char mnk[64];
        snprintf(mnk, sizeof mnk, "%ld_%ld_%ld", c->mnk.m, c->mnk.n, c->mnk.k);
        size_t row = row_where(configs, "mnk", mnk, "baseline", "cublaslt-autotune-max");
        assert_close(number_at(configs, row, "repo"), figure(c, 9, REPO), "repo of cublaslt-autotune-max");
        assert_close(number_at(configs, row, "kernel"), figure(c, 9, KERNEL), "kernel of cublaslt-autotune-max");
        assert_true(number_at(configs, row, "repo") != number_at(configs, row, "wall"));
        assert_string_equal(text_at(configs, row, "doubt"), "");
    }
    json_decref(doc);
    drop_folder(&f);
}

/* Ours 10 % below the published torch figure, every other column as
 * published (to its 3 decimals): torch is slower everywhere, the rest the
 * same; --threshold 5 exits 15, --threshold 20 and no threshold 0, and a
 * --noise floor of 15 % makes torch the same. */
static void test_compare_status_and_threshold(void **state)
{
    (void)state;
    folder f;
    make_folder(&f, 30, 0.0, 81);
    write_folder(&f);
    char published[PATH];
    published_path(&f, "cuda_l2_test_F32F16F16F32_speedup_offline.csv", published);
    double factor[COLUMNS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    factor[0] = 1.0 / 0.9;
    size_t n = write_published(&f, published, factor, 0);
    assert_int_equal(compare(&f, published, "--format json"), 0);
    json_t *doc = hb_test_load_json(f.stdout_path);
    const json_t *status = hb_test_json_table(doc, "compare_status");
    size_t torch = row_where(status, "baseline", "torch", NULL, NULL);
    assert_int_equal((size_t)number_at(status, torch, "configs"), n);
    assert_int_equal((size_t)number_at(status, torch, "slower"), n);
    assert_true(isnan(number_at(status, torch, "below_threshold"))); /* no --threshold: not counted */
    for (size_t row = 0; row < row_count(status); row++)
        if (row != torch)
            assert_int_equal((size_t)number_at(status, row, "same"), n);
    const json_t *configs = hb_test_json_table(doc, "compare_timer_configs");
    size_t row = row_where(configs, "baseline", "torch", NULL, NULL);
    assert_string_equal(text_at(configs, row, "status"), "slower");
    assert_true(fabs(number_at(configs, row, "diff_pct") + 0.1) < 2e-3); /* -10 %, to the file's 3 decimals */
    json_decref(doc);

    assert_int_equal(compare(&f, published, "--threshold 5"), HB_ERR_BELOW_PUBLISHED);
    assert_true(hb_test_file_contains(f.stderr_path, "--threshold 5%"));
    assert_true(hb_test_file_contains(f.stdout_path, "compare_status") ||
                hb_test_file_contains(f.stdout_path, "Each configuration against the published figure"));
    assert_int_equal(compare(&f, published, "--threshold 20"), 0);
    assert_int_equal(compare(&f, published, "--threshold 5 --noise 15 --format json"), 0);
    doc = hb_test_load_json(f.stdout_path);
    status = hb_test_json_table(doc, "compare_status");
    assert_int_equal((size_t)number_at(status, torch, "same"), n);
    assert_int_equal((size_t)number_at(status, torch, "below_threshold"), 0);
    json_decref(doc);
    drop_folder(&f);
}

/* An offline folder against a server file: refused (14) before any output,
 * naming --mode; --mode offline compares it anyway, with a note. */
static void test_compare_refuses_another_mode(void **state)
{
    (void)state;
    folder f;
    make_folder(&f, 10, 0.0, 91);
    write_folder(&f);
    char published[PATH], extra[PATH + 32];
    published_path(&f, "cuda_l2_test_F32F16F16F32_speedup_server.csv", published);
    write_published(&f, published, same, 0);
    snprintf(extra, sizeof extra, "--out '%s'", f.out);
    assert_int_equal(compare(&f, published, extra), HB_ERR_PUBLISHED_MISMATCH);
    assert_true(hb_test_file_contains(f.stderr_path, "--mode offline"));
    assert_true(hb_test_file_contains(f.stderr_path, "server-mode"));
    char *printed = hb_test_read_file(f.stdout_path);
    assert_string_equal(printed, "");
    free(printed);
    char listed[PATH + 16];
    snprintf(listed, sizeof listed, "%s/compare.md", f.out);
    assert_false(hb_test_file_contains(listed, "compare"));
    /* forced */
    assert_int_equal(compare(&f, published, "--mode offline --format json"), 0);
    json_t *doc = hb_test_load_json(f.stdout_path);
    assert_true(notes_contain(doc, "--mode offline"));
    assert_int_equal((size_t)number_at(hb_test_json_table(doc, "compare_summary"), 0, "configs"), 10);
    json_decref(doc);
    /* --mode naming a mode the folders lack is refused too: nothing to compare */
    assert_int_equal(compare(&f, published, "--mode server"), HB_ERR_PUBLISHED_MISMATCH);
    drop_folder(&f);
}

/* A --published path that is not a readable file is named as such first,
 * before compare asks which mode a name without one is (exit 11, not 2);
 * only a file that is there is asked for --mode. */
static void test_compare_names_a_missing_published_file_first(void **state)
{
    (void)state;
    folder f;
    make_folder(&f, 4, 0.0, 95);
    write_folder(&f);
    char published[PATH];
    published_path(&f, "missing.csv", published);
    assert_int_equal(compare(&f, published, ""), HB_ERR_BAD_RESULTS);
    assert_true(hb_test_file_contains(f.stderr_path, "missing.csv (--published) does not exist"));
    assert_false(hb_test_file_contains(f.stderr_path, "--mode"));
    /* a folder, and a link to nothing, are not the file either */
    published_path(&f, "a-folder.csv", published);
    hb_test_make_folder(published);
    assert_int_equal(compare(&f, published, ""), HB_ERR_BAD_RESULTS);
    assert_true(hb_test_file_contains(f.stderr_path, "is a folder, not a regular file"));
    published_path(&f, "dangling.csv", published);
    assert_int_equal(symlink("nowhere.csv", published), 0);
    assert_int_equal(compare(&f, published, ""), HB_ERR_BAD_RESULTS);
    assert_true(hb_test_file_contains(f.stderr_path, "a symbolic link to nothing"));
    /* a file that is there, whose name says no mode: now --mode is asked for */
    published_path(&f, "there.csv", published);
    FILE *file = fopen(published, "w");
    assert_non_null(file);
    assert_int_equal(fclose(file), 0);
    assert_int_equal(compare(&f, published, ""), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(f.stderr_path, "give --mode offline or --mode server"));
    drop_folder(&f);
}

/* Our fp32 folder against CUDA-L2's fp16 set: refused (14), naming the class. */
static void test_compare_refuses_another_class(void **state)
{
    (void)state;
    folder f;
    make_folder(&f, 10, 0.0, 93);
    write_folder(&f);
    char published[PATH];
    published_path(&f, "cuda_l2_test_F16F16F16F16_speedup_offline.csv", published);
    write_published(&f, published, same, 0);
    assert_int_equal(compare(&f, published, ""), HB_ERR_PUBLISHED_MISMATCH);
    assert_true(hb_test_file_contains(f.stderr_path, "acc_class fp32"));
    assert_true(hb_test_file_contains(f.stderr_path, "F32F16F16F32"));
    /* the same class goes through */
    published_path(&f, "cuda_l2_test_F32F16F16F32_speedup_offline.csv", published);
    write_published(&f, published, same, 0);
    assert_int_equal(compare(&f, published, ""), 0);
    drop_folder(&f);
}

/* Our "Test GPU" against CUDA-L2's A100 file: compared, warned on stderr
 * and noted in the output; a file named for our GPU gets neither. */
static void test_compare_warns_another_gpu(void **state)
{
    (void)state;
    folder f;
    make_folder(&f, 10, 0.0, 95);
    write_folder(&f);
    char published[PATH];
    published_path(&f, "cuda_l2_a100_F32F16F16F32_speedup_offline.csv", published);
    write_published(&f, published, same, 0);
    assert_int_equal(compare(&f, published, "--format json"), 0);
    assert_true(hb_test_file_contains(f.stderr_path, "warning"));
    assert_true(hb_test_file_contains(f.stderr_path, "a100"));
    json_t *doc = hb_test_load_json(f.stdout_path);
    assert_true(notes_contain(doc, "GPU mismatch"));
    json_decref(doc);
    published_path(&f, "cuda_l2_test_F32F16F16F32_speedup_offline.csv", published);
    write_published(&f, published, same, 0);
    assert_int_equal(compare(&f, published, "--format json"), 0);
    assert_false(hb_test_file_contains(f.stderr_path, "warning"));
    doc = hb_test_load_json(f.stdout_path);
    assert_false(notes_contain(doc, "GPU mismatch"));
    json_decref(doc);
    drop_folder(&f);
}

/* 40 published sizes we lack: a count on stdout, the list only in compare_missing.csv. */
static void test_compare_counts_what_one_side_lacks(void **state)
{
    (void)state;
    folder f;
    make_folder(&f, 12, 0.25, 97);
    write_folder(&f);
    char published[PATH], extra[PATH + 32], missing[PATH + 32];
    published_path(&f, "cuda_l2_test_F32F16F16F32_speedup_offline.csv", published);
    write_published(&f, published, same, 40);
    size_t left_out = 0;
    for (size_t i = 0; i < f.fixture.count; i++)
        left_out += !counts(&f.fixture.configs[i]);
    assert_true(left_out > 0);
    snprintf(extra, sizeof extra, "--out '%s'", f.out);
    assert_int_equal(compare(&f, published, extra), 0);
    char expected[160];
    snprintf(expected, sizeof expected, "%s",
             "40 published configurations not in our folders (they hold 12 of offline mode)");
    assert_true(hb_test_file_contains(f.stdout_path, expected));
    snprintf(expected, sizeof expected, "%zu of ours left out", left_out);
    assert_true(hb_test_file_contains(f.stdout_path, expected));
    assert_false(hb_test_file_contains(f.stdout_path, "101_100_100")); /* no list on stdout */
    snprintf(missing, sizeof missing, "%s/compare_missing.csv", f.out);
    assert_true(hb_test_file_contains(missing, "101_100_100,published,not in our folders"));
    assert_true(hb_test_file_contains(missing, "140_100_100,published,not in our folders"));
    drop_folder(&f);
}

/* A wall headline (other-stream) and an untraced configuration are marked,
 * with their reasons, and counted; the events column stays on events. */
static void test_compare_marks_timing_in_doubt(void **state)
{
    (void)state;
    folder f;
    make_folder(&f, 10, 0.0, 99);
    hb_config_result *wall = f.fixture.configs[2].result, *untraced = f.fixture.configs[5].result;
    wall->headline_timer = HB_TIMER_WALL;
    wall->timer_reasons = HB_TIMER_REASON_OTHER_STREAM;
    snprintf(untraced->trace_note, sizeof untraced->trace_note, "--no-trace");
    for (size_t i = 0; i < untraced->count; i++)
        untraced->participants[i].kernel.traced = 0;
    assert_int_equal(hb_fixture_rewrite(&f.fixture.configs[2]), HB_OK);
    assert_int_equal(hb_fixture_rewrite(&f.fixture.configs[5]), HB_OK);
    write_folder(&f);
    char published[PATH];
    published_path(&f, "cuda_l2_test_F32F16F16F32_speedup_offline.csv", published);
    write_published(&f, published, same, 0);
    assert_int_equal(compare(&f, published, "--format json"), 0);
    json_t *doc = hb_test_load_json(f.stdout_path);
    const json_t *configs = hb_test_json_table(doc, "compare_timer_configs");
    char mnk[64];
    const hb_fixture_config *c = &f.fixture.configs[2];
    snprintf(mnk, sizeof mnk, "%ld_%ld_%ld", c->mnk.m, c->mnk.n, c->mnk.k);
    size_t row = row_where(configs, "mnk", mnk, "baseline", "torch");
    assert_string_equal(text_at(configs, row, "doubt"), "wall headline: other-stream");
    assert_close(number_at(configs, row, "events"), figure(c, 0, EVENTS), "events under a wall headline");
    c = &f.fixture.configs[5];
    snprintf(mnk, sizeof mnk, "%ld_%ld_%ld", c->mnk.m, c->mnk.n, c->mnk.k);
    row = row_where(configs, "mnk", mnk, "baseline", "torch");
    assert_string_equal(text_at(configs, row, "doubt"), "not traced: --no-trace");
    assert_true(isnan(number_at(configs, row, "kernel")));
    const json_t *status = hb_test_json_table(doc, "compare_status");
    assert_int_equal((size_t)number_at(status, 0, "in_doubt"), 2);
    const json_t *timers = hb_test_json_table(doc, "compare_timers_torch");
    size_t all = row_where(timers, "bin", "all", NULL, NULL);
    assert_int_equal((size_t)number_at(timers, all, "in_doubt"), 2);
    assert_int_equal((size_t)number_at(timers, all, "kernel_configs"), 9);
    assert_true(notes_contain(doc, "2 of the 10 compared configurations have timing in doubt"));
    json_decref(doc);
    drop_folder(&f);
}

hb_test_list hb_compare_command_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_timers_match_an_independent_computation),
        cmocka_unit_test(test_compare_status_and_threshold),
        cmocka_unit_test(test_compare_refuses_another_mode),
        cmocka_unit_test(test_compare_names_a_missing_published_file_first),
        cmocka_unit_test(test_compare_refuses_another_class),
        cmocka_unit_test(test_compare_warns_another_gpu),
        cmocka_unit_test(test_compare_counts_what_one_side_lacks),
        cmocka_unit_test(test_compare_marks_timing_in_doubt),
    };
    return HB_TEST_LIST(tests);
}
