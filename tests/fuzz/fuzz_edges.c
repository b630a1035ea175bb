/* Numbers at the edges of what a double or a count holds, in the numeric
 * cells of summary.csv (a run's, or a sweep's with its journal kept in
 * step) and of a published CSV: 1e308, -1e308, 5e-324, -0, 0, nan, inf,
 * -inf, 1e-300, integers past 2^63, negative counts.  report --out and
 * compare --out exit 0 or 11 (compare 14 too), and when they exit 0 no
 * figure they wrote is inf or nan: every number read from a folder is
 * range-checked, or left out, before it reaches a mean. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/status.h"
#include "tests/fuzz/fuzz.h"

static const char *const edges[] = {"1e308",   "-1e308",  "1.7976931348623157e308", "5e-324", "-5e-324", "-0",
                                    "0",       "nan",     "-nan",                   "inf",    "-inf",    "1e-300",
                                    "-1e-300", "1e309",   "99999999999999999999",   "18446744073709551616",
                                    "9223372036854775807", "-9223372036854775808", "-1", "-7", "0x1p1023"};

/* Weighted to the finite ones: a reader refuses nan and inf in a number's column at once. */
static const char *const finite_edges[] = {"1e308", "-1e308", "1.7976931348623157e308", "5e-324", "-0", "1e-300",
                                           "99999999999999999999", "-1"};

/* The columns report and compare compute with (docs/reports.md, "What they read"), and counts. */
static const char *const numeric_columns[] = {
    "speedup_paper", "speedup_geomean", "speedup_paper_wall", "speedup_geomean_wall", "speedup_kernel",
    "speedup_paper_event", "wall_mean_us", "wall_rel_stdev", "speedup_ci95_low", "speedup_ci95_high",
    "event_median_us", "event_mean_us", "wall_median_us", "kernel_us", "samples", "speedup_pairs",
    "config_seconds", "check_seconds", "tflops_event_median", "excess_max", "paper_max_abs_dev", "gaps",
    "warmup_rounds", "timed_s", "m", "n", "k"};

/* What compare reads beyond report: the repository's estimator and the noise of each figure. */
static const char *const compare_columns[] = {"wall_mean_us", "wall_rel_stdev", "speedup_ci95_low",
                                              "speedup_ci95_high", "speedup_paper_event", "speedup_paper"};

/* The published layout's figures (its first column is the size). */
static const char *const published_columns[] = {
    "torch.matmul", "cuBLAS-tn", "cuBLAS-nn", "cuBLAS-max", "cuBLASLt-heuristic-tn", "cuBLASLt-heuristic-nn",
    "cuBLASLt-heuristic-max", "cuBLASLt-AutoTuning-tn", "cuBLASLt-AutoTuning-nn", "cuBLASLt-AutoTuning-max"};

typedef struct edging {
    hb_rng *rng;
    const char *const *columns; /* where the edges go */
    size_t n_columns;
    const char *column;         /* this case's: one of them */
    uint64_t share;             /* one row in `share` gets an edge there */
    const char *role;           /* only rows of this role ("candidate", "baseline"), or NULL: any */
    char row_role[32];          /* the role of the row being edited (its column comes first) */
    int finite;                 /* only the finite edges */
    size_t edited;
    char how[160];
} edging;

static const char *edge_cell(void *context, size_t row, const char *column, const char *value, size_t *length)
{
    edging *e = context;
    if (!strcmp(column, "role"))
        snprintf(e->row_role, sizeof e->row_role, "%s", value);
    if (strcmp(column, e->column) || (e->role && strcmp(e->row_role, e->role)) || fuzz_below(e->rng, e->share) != 0)
        return NULL;
    const char *edge = e->finite || fuzz_below(e->rng, 2) ? finite_edges[fuzz_below(e->rng, FUZZ_COUNT(finite_edges))]
                                                           : edges[fuzz_below(e->rng, FUZZ_COUNT(edges))];
    size_t used = strlen(e->how);
    if (e->edited++ < 6)
        snprintf(e->how + used, sizeof e->how - used, "%s%s@%zu", used ? "," : "", edge, row);
    *length = strlen(edge);
    return edge;
}

/* Edges into one column of `path`, in a row in 1, 4 or 16 of it. */
static int put_edges(const char *path, const char *journal, edging *e)
{
    e->column = e->columns[fuzz_below(e->rng, e->n_columns)];
    e->share = (uint64_t)1 << (2 * fuzz_below(e->rng, 3));
    static const char *const roles[] = {"candidate", "baseline", NULL};
    e->role = roles[fuzz_below(e->rng, 3)];
    e->row_role[0] = '\0';
    e->finite = (int)fuzz_below(e->rng, 2);
    e->edited = 0;
    e->how[0] = '\0';
    return fuzz_edit_csv(path, journal, edge_cell, e);
}

void fuzz_edges_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    static edging e;
    char s[FUZZ_PATH], csv[FUZZ_PATH], journal[FUZZ_PATH], published[FUZZ_PATH], how[400], d[FUZZ_PATH];
    e.rng = rng;
    const int sweep = (int)fuzz_below(rng, 2), in_published = fuzz_below(rng, 4) == 0;
    const int compare = in_published || fuzz_below(rng, 2);
    fuzz_join(s, dir, "s");
    fuzz_join(csv, s, "summary.csv");
    fuzz_join(journal, s, "journal.jsonl");
    fuzz_join(published, dir, "published_offline.csv");
    fuzz_join(d, dir, "d");
    char from[FUZZ_PATH];
    /* a published file of the seed's own sizes: report --out wrote it in CUDA-L2's layout */
    fuzz_join(from, sweep ? c->report_sweep : c->report_run, "speedup_offline.csv");
    size_t size;
    char *text = fuzz_read_file(from, &size);
    int failed = !text || fuzz_write_file(published, text, size) != 0 || fuzz_copy_tree(sweep ? c->sweep : c->run, s);
    free(text);
    if (failed)
        return fuzz_broke(out, "cannot copy the seeds");
    if (in_published) {
        e.columns = published_columns;
        e.n_columns = FUZZ_COUNT(published_columns);
        failed = put_edges(published, NULL, &e);
    } else {
        const int compared = compare && fuzz_below(rng, 3) != 0;
        e.columns = compared ? compare_columns : numeric_columns;
        e.n_columns = compared ? FUZZ_COUNT(compare_columns) : FUZZ_COUNT(numeric_columns);
        failed = put_edges(csv, sweep ? journal : NULL, &e);
    }
    if (failed)
        return fuzz_broke(out, "cannot edit the CSV");
    snprintf(how, sizeof how, "%s in %s's column %s%s%s; %s", e.how[0] ? e.how : "(no row of it)",
             in_published ? "the published CSV" : sweep ? "the sweep's summary.csv" : "the run's summary.csv",
             e.column, e.role ? ", rows of role " : "", e.role ? e.role : "", compare ? "compare" : "report");
    static const char *const formats[] = {"md", "csv", "json"};
    const char *format = formats[fuzz_below(rng, 3)];
    const char *report[] = {"hgemm-bench", "report", "s", "--format", format, "--out", "d", NULL};
    const char *comparison[] = {"hgemm-bench", "compare", "s", "--published", "published_offline.csv", "--format",
                                format, "--out", "d", NULL};
    static const int reported[] = {0, HB_ERR_BAD_RESULTS};
    static const int compared[] = {0, HB_ERR_BAD_RESULTS, HB_ERR_PUBLISHED_MISMATCH};
    const uint64_t before = fuzz_tree_digest(s);
    int code = fuzz_command(dir, compare ? comparison : report, out);
    if (compare)
        fuzz_judge(out, "compare", code, compared, FUZZ_COUNT(compared));
    else
        fuzz_judge(out, "report", code, reported, FUZZ_COUNT(reported));
    if (!out->failed && fuzz_tree_digest(s) != before)
        fuzz_broke(out, "it changed the folder it read");
    if (!out->failed && code == 0) {
        fuzz_check_listed(d, compare ? "compare" : "report", out);
        fuzz_check_text(d, FUZZ_CHECK_FINITE, out);
    }
    fuzz_say_how(out, how);
}
