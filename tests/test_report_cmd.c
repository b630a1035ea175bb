/* Tests of `report` and `compare` (docs/reports.md) on result folders the
 * tests make (tests/result_fixture.c: seeded random speedups written by the
 * run's own summary.csv writer, some configurations failed).  The binaries
 * run as a user runs them (build/hgemm-report, and build/hgemm-bench for the
 * same output), and their tables are held to figures this file computes its
 * own way from the records it wrote: plain loops, its own bins, its own ranks. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/analysis/published_layout.h"
#include "bench/core/rank_correlation.h"
#include "bench/core/status.h"
#include "tests/result_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024
#define TOLERANCE 1e-7 /* summary.csv keeps 9 digits; the tables' figures are fractions */

/* --- running the binaries ------------------------------------------------------------- */




#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* --- the folders ------------------------------------------------------------------------ */

/* A root with a run folder per mode, made from a fixture per mode. */
typedef struct folders {
    char root[PATH], offline[PATH], server[PATH], out[PATH];
    hb_fixture fixture[2]; /* offline, server */
} folders;

static void make_folders(folders *f, size_t count, double failed_share, uint64_t seed)
{
    memset(f, 0, sizeof *f);
    hb_test_make_temp_dir("hb-report", f->root, sizeof f->root);
    snprintf(f->offline, sizeof f->offline, "%.900s/offline-run", f->root);
    snprintf(f->server, sizeof f->server, "%.900s/server-run", f->root);
    snprintf(f->out, sizeof f->out, "%.900s/out", f->root);
    const hb_mode modes[2] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    const char *where[2] = {f->offline, f->server};
    for (int m = 0; m < 2; m++) {
        assert_int_equal(hb_fixture_make(seed + (uint64_t)m, count, &modes[m], 1, failed_share, &f->fixture[m]), HB_OK);
        assert_int_equal(hb_fixture_write_run(&f->fixture[m], 0, f->fixture[m].count, where[m], "Test GPU 80GB"),
                         HB_OK);
    }
}

static void drop_folders(folders *f)
{
    hb_fixture_free(&f->fixture[0]);
    hb_fixture_free(&f->fixture[1]);
    hb_test_remove_tree(f->root);
}

static void path_in(char *out, const char *folder, const char *name)
{
    snprintf(out, PATH, "%.800s/%.200s", folder, name);
}

/* 1 if `folder` holds no entry at all (or does not exist). */
static int holds_nothing(const char *folder)
{
    DIR *dir = opendir(folder);
    if (!dir)
        return 1;
    struct dirent *entry;
    int empty = 1;
    while ((entry = readdir(dir)))
        empty &= !strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..");
    closedir(dir);
    return empty;
}

/* --- reading the report's JSON ---------------------------------------------------------------- */



static const char *text_at(const json_t *table, size_t row, const char *column)
{
    return json_string_value(json_array_get(json_array_get(json_object_get(table, "rows"), row), hb_test_json_column(table, column)));
}

static double number_at(const json_t *table, size_t row, const char *column)
{
    const json_t *v = json_array_get(json_array_get(json_object_get(table, "rows"), row), hb_test_json_column(table, column));
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A `_pct` column as a fraction: JSON holds percent (docs/reports.md, "Output"). */
static double fraction_at(const json_t *table, size_t row, const char *column)
{
    return number_at(table, row, column) / 100.0;
}

static size_t row_count(const json_t *table) { return json_array_size(json_object_get(table, "rows")); }

static void assert_close(double got, double want, const char *what)
{
    if (!(fabs(got - want) <= TOLERANCE) && !(isnan(got) && isnan(want)))
        fail_msg("%s: the report says %.12g, the independent computation %.12g", what, got, want);
}

/* --- the independent computation ------------------------------------------------------------------ */

/* The size measures and bins of docs/reports.md, written out again here. */
static double measure(int binning, const hb_mnk *s)
{
    if (binning == 0)
        return log2((double)s->m * (double)s->n * (double)s->k);
    if (binning == 1)
        return ((double)s->m + (double)s->n + (double)s->k) / 3.0;
    return (double)(s->m > s->n ? (s->m > s->k ? s->m : s->k) : (s->n > s->k ? s->n : s->k));
}

static void bin_label(int binning, const hb_mnk *s, char *out, size_t size)
{
    static const double log_edges[] = {21, 24, 27, 30, 33, 36, 39};
    static const double dim_edges[] = {128, 256, 512, 1024, 2048, 4096, 8192};
    const double *edges = binning == 0 ? log_edges : dim_edges;
    double x = measure(binning, s);
    if (x < edges[0])
        snprintf(out, size, "<%g", edges[0]);
    else if (x >= edges[6])
        snprintf(out, size, ">=%g", edges[6]);
    else
        for (int i = 1; i < 7; i++)
            if (x < edges[i]) {
                snprintf(out, size, "[%g,%g)", edges[i - 1], edges[i]);
                break;
            }
}

static const char *const binning_names[] = {"log2(MNK)", "mean dim (M+N+K)/3", "max dim max(M,N,K)"};

typedef struct expected {
    size_t n;
    double paper_mean, paper_wins, geomean, wins;
} expected;

static int counts(const hb_fixture_config *c)
{
    return c->verdict == HB_VERDICT_PASS || c->verdict == HB_VERDICT_TOO_SLOW;
}

/* Over the fixture's configurations that count (and, with `binning` >= 0,
 * fall in bin `label`): the aggregates of `baseline`'s rows. */
static expected expect(const hb_fixture *f, const char *baseline, int capped, int wall, int binning, const char *label)
{
    expected e = {0, 0, 0, 0, 0};
    double log_sum = 0;
    for (size_t i = 0; i < f->count; i++) {
        const hb_fixture_config *c = &f->configs[i];
        char bin[48];
        if (binning >= 0)
            bin_label(binning, &c->mnk, bin, sizeof bin);
        if (!counts(c) || (binning >= 0 && strcmp(bin, label)))
            continue;
        for (size_t r = 0; r < c->n_rows; r++) {
            if (strcmp(c->rows[r].name, baseline))
                continue;
            double p = wall ? c->rows[r].paper_wall : c->rows[r].paper;
            double g = wall ? c->rows[r].geomean_wall : c->rows[r].geomean;
            if (isnan(p) || isnan(g))
                continue;
            if (capped) {
                p = p < 1 ? 1 : p;
                g = g < 1 ? 1 : g;
            }
            e.n++;
            e.paper_mean += p;
            e.paper_wins += p > 1;
            log_sum += log(g);
            e.wins += g > 1;
        }
    }
    e.paper_mean = e.paper_mean / (double)e.n - 1;
    e.paper_wins /= (double)e.n;
    e.geomean = exp(log_sum / (double)e.n) - 1;
    e.wins /= (double)e.n;
    return e;
}

static void check_row(const json_t *t, size_t row, const expected *e, const char *what)
{
    assert_int_equal((size_t)number_at(t, row, "configs"), e->n);
    assert_close(fraction_at(t, row, "paper_mean_pct"), e->paper_mean, what);
    assert_close(fraction_at(t, row, "paper_wins_pct"), e->paper_wins, what);
    assert_close(fraction_at(t, row, "geomean_pct"), e->geomean, what);
    assert_close(fraction_at(t, row, "wins_pct"), e->wins, what);
    double low = fraction_at(t, row, "ci95_low_pct"), high = fraction_at(t, row, "ci95_high_pct");
    if (e->n >= 2 && !(low <= e->geomean + TOLERANCE && e->geomean - TOLERANCE <= high && low < high))
        fail_msg("%s: CI [%g, %g] does not hold the geometric mean %g", what, low, high, e->geomean);
}

/* Tables 1 and 2: a row per mode and baseline. */
static void check_speedup_table(const json_t *doc, const char *name, const folders *f, int capped, int wall)
{
    const json_t *t = hb_test_json_table(doc, name);
    assert_int_equal(row_count(t), 2 * 10); /* two modes, seven baselines and three -max figures */
    for (size_t row = 0; row < row_count(t); row++) {
        int server = !strcmp(text_at(t, row, "mode"), "server");
        const char *baseline = text_at(t, row, "baseline");
        expected e = expect(&f->fixture[server], baseline, capped, wall, -1, NULL);
        char what[160];
        snprintf(what, sizeof what, "%s %s %s", name, server ? "server" : "offline", baseline);
        check_row(t, row, &e, what);
    }
}

static void check_size_table(const json_t *doc, const folders *f)
{
    const json_t *t = hb_test_json_table(doc, "table3");
    size_t rows = 0;
    for (int m = 0; m < 2; m++)
        for (int b = 0; b < 3; b++) {
            /* each bin with a counted configuration has its row */
            size_t counted = 0, binned = 0;
            for (size_t row = 0; row < row_count(t); row++) {
                if (strcmp(text_at(t, row, "mode"), m ? "server" : "offline") ||
                    strcmp(text_at(t, row, "binning"), binning_names[b]))
                    continue;
                expected e = expect(&f->fixture[m], "cublaslt-autotune-max", 0, 0, b, text_at(t, row, "bin"));
                check_row(t, row, &e, text_at(t, row, "bin"));
                binned += e.n;
                rows++;
            }
            for (size_t i = 0; i < f->fixture[m].count; i++)
                counted += counts(&f->fixture[m].configs[i]);
            assert_int_equal(binned, counted); /* every configuration in one bin */
        }
    assert_int_equal(rows, row_count(t));
}

/* The excluded table lists exactly the fixture's failures, with their verdicts. */
static void check_excluded(const json_t *doc, const folders *f)
{
    const json_t *t = hb_test_json_table(doc, "excluded");
    size_t failures = 0;
    for (int m = 0; m < 2; m++)
        for (size_t i = 0; i < f->fixture[m].count; i++) {
            const hb_fixture_config *c = &f->fixture[m].configs[i];
            if (counts(c))
                continue;
            failures++;
            char mnk[64];
            snprintf(mnk, sizeof mnk, "%ld_%ld_%ld", c->mnk.m, c->mnk.n, c->mnk.k);
            int listed = 0;
            for (size_t row = 0; row < row_count(t); row++)
                listed |= !strcmp(text_at(t, row, "mnk"), mnk) &&
                          !strcmp(text_at(t, row, "mode"), m ? "server" : "offline") &&
                          !strcmp(text_at(t, row, "verdict"), hb_verdict_name(c->verdict)) &&
                          strstr(text_at(t, row, "reason"), "generated") != NULL;
            if (!listed)
                fail_msg("%s (%s, %s) is not listed as left out", mnk, m ? "server" : "offline",
                         hb_verdict_name(c->verdict));
        }
    assert_true(failures > 0);
    assert_int_equal(row_count(t), failures);
}

/* --- tests ------------------------------------------------------------------------------------------ */

static void test_report_tables_match_an_independent_computation(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 80, 0.25, 11);
    char json_path[PATH], stdout_path[PATH], err[PATH];
    path_in(stdout_path, f.root, "stdout.json");
    path_in(err, f.root, "stderr.txt");
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.offline, f.server, "--out", f.out, "--format", "json"),
                         stdout_path, err),
                     0);
    path_in(json_path, f.out, "report.json");
    json_t *doc = hb_test_load_json(json_path);
    check_speedup_table(doc, "table1", &f, 0, 0);
    check_speedup_table(doc, "table2", &f, 1, 0);
    check_size_table(doc, &f);
    check_excluded(doc, &f);
    assert_int_equal(row_count(hb_test_json_table(doc, "not_run")), 0);
    /* stdout in --format json is the same document */
    char *written = hb_test_read_file(json_path), *printed = hb_test_read_file(stdout_path);
    assert_string_equal(written, printed);
    free(written);
    free(printed);
    json_decref(doc);

    /* --timer wall: the wall-clock columns feed every number */
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.offline, f.server, "--timer", "wall", "--format", "json"),
                         stdout_path, err),
                     0);
    doc = hb_test_load_json(stdout_path);
    check_speedup_table(doc, "table1", &f, 0, 1);
    assert_non_null(strstr(json_string_value(json_object_get(hb_test_json_table(doc, "table1"), "caption")),
                           "speedup_geomean_wall"));
    json_decref(doc);
    drop_folders(&f);
}

/* hgemm-bench report and hgemm-report report print the same, and a report
 * is the same every time (the bootstrap is seeded). */
static void test_report_is_deterministic_in_both_binaries(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 30, 0.2, 5);
    char a[PATH], b[PATH], c[PATH];
    path_in(a, f.root, "a.md");
    path_in(b, f.root, "b.md");
    path_in(c, f.root, "c.md");
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.offline, f.server), a, NULL), 0);
    assert_int_equal(hb_test_run(hb_test_bench(), ARGS("report", f.offline, f.server), b, NULL), 0);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.offline, f.server), c, NULL), 0);
    char *ta = hb_test_read_file(a), *tb = hb_test_read_file(b), *tc = hb_test_read_file(c);
    assert_string_equal(ta, tb);
    assert_string_equal(ta, tc);
    assert_non_null(strstr(ta, "## Table 1"));
    assert_non_null(strstr(ta, "Test GPU 80GB")); /* the caption names env.json's GPU */
    free(ta);
    free(tb);
    free(tc);
    drop_folders(&f);
}

/* The per-configuration table in the published layout: the exact header,
 * M_N_K rows, t_b/t_c at 3 decimals; read back, the same figures. */
static void test_published_layout_round_trip(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 40, 0.2, 21);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.offline, f.server, "--out", f.out), NULL, NULL), 0);
    const char *header = "mnk,torch.matmul,cuBLAS-tn,cuBLAS-nn,cuBLAS-max,cuBLASLt-heuristic-tn,cuBLASLt-heuristic-nn,"
                         "cuBLASLt-heuristic-max,cuBLASLt-auto-tuning-tn,cuBLASLt-auto-tuning-nn,"
                         "cuBLASLt-auto-tuning-max";
    assert_string_equal(hb_published_header(), header);
    static const char *const published[] = {"torch.matmul", "cuBLAS-tn", "cuBLAS-nn", "cuBLAS-max",
                                            "cuBLASLt-heuristic-tn", "cuBLASLt-heuristic-nn", "cuBLASLt-heuristic-max",
                                            "cuBLASLt-auto-tuning-tn", "cuBLASLt-auto-tuning-nn",
                                            "cuBLASLt-auto-tuning-max"};
    static const char *const ours[] = {"torch", "cublas-tn", "cublas-nn", "cublas-max", "cublaslt-heuristic-tn",
                                       "cublaslt-heuristic-nn", "cublaslt-heuristic-max", "cublaslt-autotune-tn",
                                       "cublaslt-autotune-nn", "cublaslt-autotune-max"};
    for (int m = 0; m < 2; m++) {
        char path[PATH];
        path_in(path, f.out, m ? "speedup_server.csv" : "speedup_offline.csv");
        char *text = hb_test_read_file(path);
        assert_non_null(text);
        assert_int_equal(strncmp(text, header, strlen(header)), 0);
        assert_int_equal(text[strlen(header)], '\n');
        free(text);
        hb_published_table t;
        assert_int_equal(hb_read_published(path, &t), HB_OK);
        size_t counted = 0;
        for (size_t i = 0; i < f.fixture[m].count; i++) {
            const hb_fixture_config *c = &f.fixture[m].configs[i];
            const hb_published_row *row = hb_published_find(&t, c->mnk.m, c->mnk.n, c->mnk.k);
            assert_true((row != NULL) == counts(c));
            if (!row)
                continue;
            counted++;
            for (size_t col = 0; col < 10; col++)
                for (size_t r = 0; r < c->n_rows; r++)
                    if (!strcmp(c->rows[r].name, ours[col]) &&
                        fabs(row->ratio[col] - round(c->rows[r].paper * 1000) / 1000) > 1e-9)
                        fail_msg("%s of %ld_%ld_%ld: read %.6f, wrote %.3f", published[col], c->mnk.m, c->mnk.n,
                                 c->mnk.k, row->ratio[col], c->rows[r].paper);
        }
        assert_int_equal(t.count, counted);
        hb_published_free(&t);
    }
    drop_folders(&f);
}

/* --- compare ------------------------------------------------------------------------------------ */

/* Average ranks by counting: rank(x_i) = 1 + #{x_j < x_i} + (#{x_j == x_i} - 1) / 2. */
static void naive_ranks(const double *x, size_t n, double *rank)
{
    for (size_t i = 0; i < n; i++) {
        size_t below = 0, equal = 0;
        for (size_t j = 0; j < n; j++) {
            below += x[j] < x[i];
            equal += x[j] == x[i];
        }
        rank[i] = 1.0 + (double)below + (double)(equal - 1) / 2.0;
    }
}

static double naive_spearman(const double *x, const double *y, size_t n)
{
    double *rx = malloc(n * sizeof *rx), *ry = malloc(n * sizeof *ry);
    assert_non_null(rx);
    assert_non_null(ry);
    naive_ranks(x, n, rx);
    naive_ranks(y, n, ry);
    double mx = (double)(n + 1) / 2.0, my = mx, sxy = 0, sxx = 0, syy = 0; /* ranks average (n+1)/2 */
    for (size_t i = 0; i < n; i++) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    free(rx);
    free(ry);
    return sxy / sqrt(sxx * syy);
}

/* Ties share the average of the ranks they span; Spearman's rho agrees with
 * the counting definition above, and is undefined for a constant side. */
static void test_rank_correlation_with_ties(void **state)
{
    (void)state;
    const double x[] = {3.0, 1.0, 2.0, 2.0, 5.0, 2.0};
    double rank[6], naive[6];
    assert_int_equal(hb_average_ranks(x, 6, rank), HB_OK);
    naive_ranks(x, 6, naive);
    const double want[] = {5, 1, 3, 3, 6, 3};
    for (int i = 0; i < 6; i++) {
        assert_true(rank[i] == want[i]);
        assert_true(naive[i] == want[i]);
    }
    const double y[] = {1.5, 0.5, 0.7, 0.9, 2.0, 0.7};
    double rho;
    assert_int_equal(hb_spearman(x, y, 6, &rho), HB_OK);
    assert_close(rho, naive_spearman(x, y, 6), "spearman with ties");
    const double flat[] = {1, 1, 1, 1, 1, 1};
    assert_int_equal(hb_spearman(x, flat, 6, &rho), HB_OK);
    assert_true(isnan(rho));
    assert_int_equal(hb_spearman(x, y, 1, &rho), HB_OK);
    assert_true(isnan(rho));
}

/* A published file with every other configuration of the fixture's offline
 * ones that count, its torch column a coarse (tied) transform of ours, and
 * one size ours does not have. */
static size_t write_subset(const folders *f, const char *path, double *ours, double *theirs)
{
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fprintf(out, "%s\n", hb_published_header());
    size_t n = 0, kept = 0;
    for (size_t i = 0; i < f->fixture[0].count; i++) {
        const hb_fixture_config *c = &f->fixture[0].configs[i];
        if (!counts(c) || kept++ % 2)
            continue;
        double torch = NAN;
        for (size_t r = 0; r < c->n_rows; r++)
            if (!strcmp(c->rows[r].name, "torch"))
                torch = c->rows[r].paper;
        /* theirs: ours coarsened to steps of 0.25 (ties), times a size-dependent factor */
        double t = floor(torch * 4) / 4 + 0.25 + 0.001 * (double)(c->mnk.k % 7);
        fprintf(out, "%ld_%ld_%ld,%.3f", c->mnk.m, c->mnk.n, c->mnk.k, t);
        for (int col = 1; col < 10; col++)
            fprintf(out, ",%.3f", 1.0 + 0.01 * col);
        fputc('\n', out);
        ours[n] = torch;
        theirs[n++] = round(t * 1000) / 1000;
    }
    fprintf(out, "8_8_8,1.5,1,1,1,1,1,1,1,1,1\n");
    assert_int_equal(fclose(out), 0);
    return n;
}

static void test_compare_on_a_subset(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 60, 0.2, 31);
    char published[PATH], out[PATH];
    path_in(published, f.root, "cuda_l2_test_speedup_offline.csv");
    path_in(out, f.root, "compare.json");
    double ours[200], theirs[200];
    size_t n = write_subset(&f, published, ours, theirs);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("compare", f.offline, f.server, "--published", published, "--format",
                                               "json", "--out", f.out),
                         out, NULL),
                     0);
    json_t *doc = hb_test_load_json(out);
    const json_t *summary = hb_test_json_table(doc, "compare_summary");
    assert_string_equal(text_at(summary, 0, "baseline"), "torch");
    assert_int_equal((size_t)number_at(summary, 0, "configs"), n);
    double rho = naive_spearman(ours, theirs, n);
    assert_true(rho > 0.5 && rho < 1.0); /* the test's transform keeps the order, roughly */
    assert_close(number_at(summary, 0, "spearman"), rho, "spearman of torch");
    double both = 0, mean_ours = 0, mean_theirs = 0;
    for (size_t i = 0; i < n; i++) {
        both += ours[i] > 1 && theirs[i] > 1;
        mean_ours += ours[i];
        mean_theirs += theirs[i];
    }
    assert_close(fraction_at(summary, 0, "both_win_pct"), both / (double)n, "both win");
    assert_close(fraction_at(summary, 0, "ours_mean_pct"), mean_ours / (double)n - 1, "our mean");
    assert_close(fraction_at(summary, 0, "published_mean_pct"), mean_theirs / (double)n - 1, "published mean");
    /* the other columns are constant on the published side: no rank correlation */
    assert_true(isnan(number_at(summary, 1, "spearman")));

    /* what only one side has: 8_8_8 (published), the other half (ours), the failures (left out) */
    const json_t *missing = hb_test_json_table(doc, "compare_missing");
    size_t published_only = 0, ours_only = 0, left_out = 0;
    for (size_t row = 0; row < row_count(missing); row++) {
        const char *only = text_at(missing, row, "only_in"), *why = text_at(missing, row, "why");
        published_only += !strcmp(only, "published") && !strcmp(text_at(missing, row, "mnk"), "8_8_8");
        ours_only += !strcmp(only, "ours");
        left_out += !strncmp(why, "ours left it out", 16);
    }
    size_t counted = 0, failed = 0;
    for (size_t i = 0; i < f.fixture[0].count; i++) {
        counted += counts(&f.fixture[0].configs[i]);
        failed += !counts(&f.fixture[0].configs[i]);
    }
    assert_int_equal(published_only, 1);
    assert_int_equal(ours_only, counted - n);
    assert_int_equal(left_out, failed);
    assert_int_equal(row_count(missing), 1 + (counted - n) + failed);
    /* the largest disagreements: ten, largest first */
    const json_t *top = hb_test_json_table(doc, "compare_disagreements");
    assert_int_equal(row_count(top), 10);
    for (size_t row = 1; row < 10; row++)
        assert_true(number_at(top, row - 1, "abs_log") >= number_at(top, row, "abs_log"));
    assert_int_equal(row_count(hb_test_json_table(doc, "compare_configs")), n);
    json_decref(doc);
    char csv[PATH];
    path_in(csv, f.out, "compare_configs.csv");
    assert_true(hb_test_file_contains(csv, "torch_ours,torch_published,torch_ratio"));
    drop_folders(&f);
}

/* A report's own published-layout file compared with its folders agrees (to its 3 decimals). */
static void test_compare_with_the_report_itself(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 30, 0.2, 41);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.offline, f.server, "--out", f.out), NULL, NULL), 0);
    char published[PATH], out[PATH];
    path_in(published, f.out, "speedup_server.csv");
    path_in(out, f.root, "compare.json");
    assert_int_equal(hb_test_run(hb_test_bench(), ARGS("compare", f.server, "--published", published, "--format", "json"), out,
                         NULL),
                     0);
    json_t *doc = hb_test_load_json(out);
    const json_t *summary = hb_test_json_table(doc, "compare_summary");
    for (size_t row = 0; row < row_count(summary); row++) {
        assert_true(number_at(summary, row, "spearman") > 0.999); /* not 1: the file rounds to 3 decimals */
        assert_true(fabs(fraction_at(summary, row, "ours_mean_pct") - fraction_at(summary, row, "published_mean_pct")) <
                    1e-3);
    }
    const json_t *missing = hb_test_json_table(doc, "compare_missing");
    for (size_t row = 0; row < row_count(missing); row++)
        assert_int_equal(strncmp(text_at(missing, row, "why"), "ours left it out", 16), 0);
    json_decref(doc);
    drop_folders(&f);
}

/* --- bad input: exit 11, the place named, nothing written ------------------------------------------ */

/* `words` must fail with `status`, its message holding each of `needles`,
 * and leave `out` without a file. */
static void expect_refusal(const folders *f, const char *const *words, int status, const char *const *needles)
{
    char err[PATH];
    path_in(err, f->root, "stderr.txt");
    int got = hb_test_run(hb_test_report(), words, NULL, err);
    char *message = hb_test_read_file(err);
    if (got != status)
        fail_msg("exit %d, not %d: %s", got, status, message);
    for (; *needles; needles++)
        if (!strstr(message, *needles))
            fail_msg("the message does not name '%s': %s", *needles, message);
    free(message);
    if (!holds_nothing(f->out))
        fail_msg("%s holds files after a refused report", f->out);
}

#define NEEDLES(...) ((const char *const[]){__VA_ARGS__, NULL})

static void write_text(const char *path, const char *text)
{
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs(text, out);
    assert_int_equal(fclose(out), 0);
}

static void test_report_refuses_what_is_not_a_result_folder(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 6, 0.0, 51);
    char file[PATH], empty[PATH], other[PATH], other_csv[PATH];
    path_in(file, f.root, "a-file");
    write_text(file, "x\n");
    expect_refusal(&f, ARGS("report", file, "--out", f.out), 11, NEEDLES(file, "not a folder"));
    path_in(empty, f.root, "empty");
    assert_int_equal(mkdir(empty, 0755), 0);
    expect_refusal(&f, ARGS("report", f.offline, empty, "--out", f.out), 11, NEEDLES(empty, "not a result folder"));
    /* another tool's CSV */
    path_in(other, f.root, "other-tool");
    assert_int_equal(mkdir(other, 0755), 0);
    path_in(other_csv, other, "summary.csv");
    write_text(other_csv, "name,time_ms\nfoo,1.5\n");
    expect_refusal(&f, ARGS("report", other, "--out", f.out), 11, NEEDLES("other-tool/summary.csv:1", "'m'"));
    drop_folders(&f);
}

/* A summary.csv cut in the middle of its last line (a run killed while
 * writing it): the file, its last line and the column where it stops. */
static void test_report_refuses_a_truncated_summary(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 4, 0.0, 61);
    char csv[PATH];
    path_in(csv, f.offline, "summary.csv");
    char *text = hb_test_read_file(csv);
    size_t length = strlen(text), lines = 0;
    for (size_t i = 0; i < length; i++)
        lines += text[i] == '\n';
    /* cut 30 characters after the last line's 40th comma */
    const char *last = text + length - 1;
    while (last > text && last[-1] != '\n')
        last--;
    const char *cut = last;
    for (int commas = 0; commas < 40; cut++)
        commas += *cut == ',';
    text[cut - text + 3] = '\0';
    write_text(csv, text);
    free(text);
    char where[PATH + 32];
    snprintf(where, sizeof where, "summary.csv:%zu: column ", lines);
    expect_refusal(&f, ARGS("report", f.offline, "--out", f.out), 11, NEEDLES(where, "truncated"));
    /* whole again, then without its last newline: every field there, but cut short all the same */
    assert_int_equal(hb_fixture_write_run(&f.fixture[0], 0, f.fixture[0].count, f.offline, "Test GPU 80GB"), HB_OK);
    text = hb_test_read_file(csv);
    text[strlen(text) - 1] = '\0';
    write_text(csv, text);
    free(text);
    snprintf(where, sizeof where, "summary.csv:%zu: the last line has no newline", lines);
    expect_refusal(&f, ARGS("report", f.offline, f.server, "--out", f.out), 11, NEEDLES(where));
    drop_folders(&f);
}

static void test_report_refuses_a_configuration_in_two_folders(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 5, 0.0, 71);
    char copy[PATH], from[PATH], to[PATH];
    path_in(copy, f.root, "copy");
    assert_int_equal(mkdir(copy, 0755), 0);
    path_in(from, f.offline, "summary.csv");
    path_in(to, copy, "summary.csv");
    char *text = hb_test_read_file(from);
    write_text(to, text);
    free(text);
    expect_refusal(&f, ARGS("report", f.offline, copy, "--out", f.out), 11,
                   NEEDLES("copy/summary.csv:2", "offline-run/summary.csv:2", "disjoint"));
    drop_folders(&f);
}

static void test_compare_refuses_a_malformed_published_file(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 5, 0.0, 81);
    char published[PATH];
    path_in(published, f.root, "x_speedup_offline.csv");
    write_text(published, "mnk,torch,cuBLAS-tn\n64_64_64,1,1\n");
    expect_refusal(&f, ARGS("compare", f.offline, "--published", published, "--out", f.out), 11,
                   NEEDLES("x_speedup_offline.csv:1: column 2", "torch.matmul"));
    char text[2048];
    snprintf(text, sizeof text, "%s\n64_64_64,1,1,1,1,1,1,1,1,1,1\n64_64_128,1,1,oops,1,1,1,1,1,1,1\n",
             hb_published_header());
    write_text(published, text);
    expect_refusal(&f, ARGS("compare", f.offline, "--published", published, "--out", f.out), 11,
                   NEEDLES("x_speedup_offline.csv:3: column 4 (cuBLAS-nn)", "oops"));
    snprintf(text, sizeof text, "%s\n64_64_64,1,1,1,1,1,1,1,1,1,1\n64_64_128,1,1,1\n", hb_published_header());
    write_text(published, text);
    expect_refusal(&f, ARGS("compare", f.offline, "--published", published, "--out", f.out), 11,
                   NEEDLES("x_speedup_offline.csv:3: column 5", "cut short"));
    snprintf(text, sizeof text, "%s\n64x64x64,1,1,1,1,1,1,1,1,1,1\n", hb_published_header());
    write_text(published, text);
    expect_refusal(&f, ARGS("compare", f.offline, "--published", published, "--out", f.out), 11,
                   NEEDLES("x_speedup_offline.csv:2: column 1 (mnk)"));
    /* no mode in the name and no --mode: a usage error */
    char nameless[PATH];
    path_in(nameless, f.root, "numbers.csv");
    write_text(nameless, text);
    expect_refusal(&f, ARGS("compare", f.offline, "--published", nameless, "--out", f.out), 2, NEEDLES("--mode"));
    expect_refusal(&f, ARGS("report", f.offline, "--plots"), 2, NEEDLES("--out"));
    drop_folders(&f);
}

/* A sweep's folder: the plan's configurations no folder holds are listed as not run. */
static void test_report_lists_what_a_plan_expects_and_was_not_run(void **state)
{
    (void)state;
    folders f;
    make_folders(&f, 10, 0.0, 91);
    assert_int_equal(hb_fixture_write_plan(&f.fixture[0], 3, f.offline), HB_OK);
    char out[PATH];
    path_in(out, f.root, "report.json");
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.offline, "--format", "json"), out, NULL), 0);
    json_t *doc = hb_test_load_json(out);
    const json_t *not_run = hb_test_json_table(doc, "not_run");
    assert_int_equal(row_count(not_run), 3);
    assert_string_equal(text_at(not_run, 0, "mnk"), "8_64_64");
    assert_string_equal(text_at(not_run, 2, "mnk"), "10_64_64");
    json_decref(doc);
    /* a sweep that has not begun: a plan and no summary.csv yet */
    char plan_only[PATH];
    path_in(plan_only, f.root, "plan-only");
    assert_int_equal(mkdir(plan_only, 0755), 0);
    assert_int_equal(hb_fixture_write_plan(&f.fixture[0], 0, plan_only), HB_OK);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", plan_only, "--format", "json"), out, NULL), 0);
    doc = hb_test_load_json(out);
    assert_int_equal(row_count(hb_test_json_table(doc, "not_run")), f.fixture[0].count);
    json_decref(doc);
    drop_folders(&f);
}

/* --plots: every figure in PNG and SVG, every baseline and -max figure drawn. */
static void test_report_and_compare_draw_their_figures(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    folders f;
    make_folders(&f, 25, 0.1, 101);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", f.offline, f.server, "--out", f.out, "--plots"), NULL, NULL),
                     0);
    static const char *const figures[] = {"report_speedup_vs_size_offline", "report_speedup_vs_size_server",
                                          "report_ecdf_offline", "report_ecdf_server"};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        char png[PATH], svg[PATH], name[128];
        snprintf(name, sizeof name, "%s.png", figures[i]);
        path_in(png, f.out, name);
        snprintf(name, sizeof name, "%s.svg", figures[i]);
        path_in(svg, f.out, name);
        char *bytes = hb_test_read_file(png);
        assert_non_null(bytes);
        assert_int_equal(memcmp(bytes, "\x89PNG", 4), 0);
        free(bytes);
        assert_true(hb_test_file_contains(svg, "<svg"));
        /* every column in the key */
        assert_true(hb_test_file_contains(svg, "cublaslt-autotune-max"));
        assert_true(hb_test_file_contains(svg, "torch"));
    }
    char published[PATH];
    path_in(published, f.out, "speedup_offline.csv");
    char compare_out[PATH];
    path_in(compare_out, f.root, "compare-figures");
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("compare", f.offline, "--published", published, "--out", compare_out,
                                               "--plots"),
                         NULL, NULL),
                     0);
    char svg[PATH];
    path_in(svg, compare_out, "compare_offline.svg");
    assert_true(hb_test_file_contains(svg, "y = x"));
    assert_true(hb_test_file_contains(svg, "cublas-nn"));
    drop_folders(&f);
}

hb_test_list hb_report_command_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_tables_match_an_independent_computation),
        cmocka_unit_test(test_report_is_deterministic_in_both_binaries),
        cmocka_unit_test(test_published_layout_round_trip),
        cmocka_unit_test(test_rank_correlation_with_ties),
        cmocka_unit_test(test_compare_on_a_subset),
        cmocka_unit_test(test_compare_with_the_report_itself),
        cmocka_unit_test(test_report_refuses_what_is_not_a_result_folder),
        cmocka_unit_test(test_report_refuses_a_truncated_summary),
        cmocka_unit_test(test_report_refuses_a_configuration_in_two_folders),
        cmocka_unit_test(test_compare_refuses_a_malformed_published_file),
        cmocka_unit_test(test_report_lists_what_a_plan_expects_and_was_not_run),
        cmocka_unit_test(test_report_and_compare_draw_their_figures),
    };
    return HB_TEST_LIST(tests);
}
