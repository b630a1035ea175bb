#define _POSIX_C_SOURCE 200809L /* strdup */
#include "bench/analysis/reproduction_census.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/bad_results.h"
#include "bench/analysis/csv_reader.h"
#include "bench/analysis/number_ranges.h"
#include "bench/core/array_room.h"
#include "bench/core/diag.h"
#include "bench/core/timing_policy.h"
#include "bench/result/mma_audit.h"

const char *const hb_census_baselines[HB_CENSUS_BASELINES] = {"torch", "cublas-max", "cublaslt-heuristic-max",
                                                               "cublaslt-autotune-max"};
const char *const hb_census_timers[HB_CENSUS_TIMERS] = {"headline", "events", "wall clock", "kernel-only"};

static int present(const char *field)
{
    return field && *field;
}


/* The audit's class of an mma_accumulators cell, "f32;hmma.f32=32" -> "f32",
 * read back and named by the audit itself (bench/result/mma_audit.h). */
static void accumulator_class(const char *cell, char *out, size_t size)
{
    hb_mma_audit audit;
    hb_mma_audit_parse_cell(cell ? cell : "", &audit); /* a cell it cannot read is unknown */
    snprintf(out, size, "%s", hb_mma_audit_class(&audit));
}

/* --- import.csv ---------------------------------------------------------------------- */

enum { I_M, I_N, I_K, I_KIND, I_STATE, I_FORMS, I_NO_CUBIN, I_REASON, I_SECONDS, I_MMA, I_FAILURE_CLASS, I_COUNT };
static const char *const import_columns[I_COUNT] = {"m", "n", "k", "kind", "state", "forms", "no_cubin_because",
                                                    "reason", "build_seconds", "mma_accumulators", "failure_class"};
static const unsigned char import_optional[I_COUNT] = {[I_MMA] = 1, [I_FAILURE_CLASS] = 1};

typedef struct import_reading {
    hb_import_census *c;
    double *seconds;
    size_t n_seconds, cap_seconds;
} import_reading;

/* Why a file did not build, as a census groups it: its failure class where
 * import.csv has one, else the reason up to its first detail. */
static void failure_label(const hb_csv_row *row, char *out, size_t size)
{
    const char *cls = row->text[I_FAILURE_CLASS], *reason = row->text[I_REASON];
    if (present(cls)) {
        snprintf(out, size, "%s", cls);
        return;
    }
    size_t cut = strcspn(reason, "(\"'`");
    if (cut > 90)
        cut = 90;
    while (cut > 0 && (reason[cut - 1] == ' ' || reason[cut - 1] == ':'))
        cut--;
    snprintf(out, size, "%.*s", (int)cut, present(reason) ? reason : "no reason given");
}

static hb_status keep_seconds(import_reading *r, double seconds)
{
    void *items = r->seconds;
    if (!hb_array_room(&items, &r->cap_seconds, r->n_seconds, sizeof *r->seconds))
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    r->seconds = items;
    r->seconds[r->n_seconds++] = seconds;
    return HB_OK;
}

static hb_status import_row(void *context, const hb_csv_row *row)
{
    import_reading *r = context;
    hb_import_census *c = r->c;
    const char *state = row->text[I_STATE], *kind = present(row->text[I_KIND]) ? row->text[I_KIND] : "unknown";
    int built = !strcmp(state, "built") || !strcmp(state, "cached");
    int cubin = strstr(row->text[I_FORMS], "cubin") != NULL;
    c->files++;
    c->built += !strcmp(state, "built");
    c->cached += !strcmp(state, "cached");
    c->failed += !strcmp(state, "failed");
    c->skipped += !strcmp(state, "skipped");
    c->cubin_forms += built && cubin;
    HB_TRY(hb_label_add(&c->by_kind, kind, HB_KIND_FILES));
    HB_TRY(hb_label_add(&c->by_kind, kind, built ? HB_KIND_BUILT : HB_KIND_NOT_BUILT));
    if (built && cubin)
        HB_TRY(hb_label_add(&c->by_kind, kind, HB_KIND_CUBIN));
    char label[128];
    if (!built) {
        failure_label(row, label, sizeof label);
        HB_TRY(hb_label_add(&c->failures, label, 0));
    } else if (!cubin && present(row->text[I_NO_CUBIN])) {
        snprintf(label, sizeof label, "%.100s", row->text[I_NO_CUBIN]);
        HB_TRY(hb_label_add(&c->no_cubin, label, 0));
    }
    if (row->text[I_MMA]) {
        c->has_accumulators = 1;
        char cls[64];
        accumulator_class(row->text[I_MMA], cls, sizeof cls);
        if (built)
            HB_TRY(hb_label_add(&c->accumulators, cls, 0));
    }
    double seconds;
    HB_TRY(hb_csv_number(row, I_SECONDS, &seconds)); /* a cached row keeps its build's time */
    if (built && isfinite(seconds))
        HB_TRY(keep_seconds(r, seconds));
    return HB_OK;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

hb_status hb_import_census_read(const char *const *reports, size_t n_reports, hb_import_census *out)
{
    memset(out, 0, sizeof *out);
    import_reading r = {.c = out};
    hb_csv_spec spec = {.what = "an hgemm-bench import.csv", .wanted = import_columns, .n_wanted = I_COUNT,
                        .optional = import_optional, .row = import_row, .context = &r};
    hb_status status = HB_OK;
    for (size_t i = 0; i < n_reports && status == HB_OK; i++)
        status = hb_csv_read(reports[i], &spec);
    if (status == HB_OK && r.n_seconds) {
        qsort(r.seconds, r.n_seconds, sizeof *r.seconds, by_value);
        out->build_seconds_median = r.seconds[r.n_seconds / 2];
        out->build_seconds_max = r.seconds[r.n_seconds - 1];
        for (size_t i = 0; i < r.n_seconds; i++)
            out->build_seconds_sum += r.seconds[i];
    }
    free(r.seconds);
    hb_label_sort(&out->failures);
    hb_label_sort(&out->no_cubin);
    hb_label_sort(&out->accumulators);
    return status;
}

void hb_import_census_free(hb_import_census *c)
{
    hb_label_counts_free(&c->by_kind);
    hb_label_counts_free(&c->failures);
    hb_label_counts_free(&c->no_cubin);
    hb_label_counts_free(&c->accumulators);
}

/* --- the accumulators of each imported configuration, for the audit's join ----------- */

typedef struct config_mma {
    long m, n, k;
    char *mma;
} config_mma;

typedef struct mma_table {
    config_mma *rows;
    size_t n, cap;
} mma_table;

static hb_status mma_row(void *context, const hb_csv_row *row)
{
    mma_table *t = context;
    if (!row->text[I_MMA])
        return HB_OK;
    void *items = t->rows;
    if (!hb_array_room(&items, &t->cap, t->n, sizeof *t->rows))
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    t->rows = items;
    config_mma c = {0};
    HB_TRY(hb_csv_dimension(row, I_M, &c.m));
    HB_TRY(hb_csv_dimension(row, I_N, &c.n));
    HB_TRY(hb_csv_dimension(row, I_K, &c.k));
    c.mma = strdup(present(row->text[I_MMA]) ? row->text[I_MMA] : "unknown");
    if (!c.mma)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    t->rows[t->n++] = c;
    return HB_OK;
}

static const char *mma_of(const mma_table *t, long m, long n, long k)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->rows[i].m == m && t->rows[i].n == n && t->rows[i].k == k)
            return t->rows[i].mma;
    return NULL;
}

static void mma_table_free(mma_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->rows[i].mma);
    free(t->rows);
}

/* --- summary.csv ---------------------------------------------------------------------- */

enum {
    S_M, S_N, S_K, S_MODE, S_ROLE, S_PARTICIPANT, S_VERDICT, S_CHECK, S_SPEEDUP, S_SPEEDUP_EVENT, S_SPEEDUP_WALL,
    S_SPEEDUP_KERNEL, S_PAPER_RULE, S_PAPER_RATIO, S_HEADLINE_TIMER, S_TIMER_REASON, S_TRACE_NOTE, S_CONDUCT, S_MMA,
    S_GPU, S_COUNT
};
static const char *const summary_columns[S_COUNT] = {
    "m", "n", "k", "mode", "role", "participant", "verdict", "check", "speedup_paper", "speedup_paper_event",
    "speedup_paper_wall", "speedup_kernel", "paper_rule", "paper_ratio", "headline_timer", "timer_reason",
    "trace_note", "conduct", "mma_accumulators", "gpu_name"};
static const unsigned char summary_optional[S_COUNT] = {
    [S_SPEEDUP_EVENT] = 1, [S_SPEEDUP_KERNEL] = 1, [S_PAPER_RULE] = 1, [S_PAPER_RATIO] = 1, [S_HEADLINE_TIMER] = 1,
    [S_TIMER_REASON] = 1, [S_TRACE_NOTE] = 1, [S_CONDUCT] = 1, [S_MMA] = 1,
    [S_GPU] = 1};

/* A row's configuration, its numbers range-checked (bench/analysis/number_ranges.h). */
typedef struct row_key {
    long m, n, k;
    const char *mode;
} row_key;

typedef struct sweep_reading {
    hb_sweep_census *c;
    const mma_table *mma;
    /* the configuration of the last candidate row, and whether it passed: a
     * configuration's baseline rows follow its candidate row */
    long m, n, k;
    char mode[16];
    int passed;
} sweep_reading;

/* The row's m, n, k and mode: whole numbers in range and a mode this harness writes, else bad results. */
static hb_status read_row_key(const hb_csv_row *row, row_key *key)
{
    HB_TRY(hb_csv_dimension(row, S_M, &key->m));
    HB_TRY(hb_csv_dimension(row, S_N, &key->n));
    HB_TRY(hb_csv_dimension(row, S_K, &key->k));
    hb_mode mode;
    if (!hb_mode_parse(row->text[S_MODE], &mode))
        return hb_bad_results(row->path, row->line, row->column[S_MODE], row->name[S_MODE],
                              "'%s' is not a mode (offline or server)", row->text[S_MODE]);
    key->mode = hb_mode_name(mode);
    return HB_OK;
}

static size_t mode_column(hb_sweep_census *c, const char *mode)
{
    for (size_t i = 0; i < c->n_modes; i++)
        if (!strcmp(c->modes[i], mode))
            return i;
    if (c->n_modes == HB_CENSUS_MODES)
        return HB_CENSUS_MODES - 1; /* a third mode cannot happen: summary.csv has two */
    snprintf(c->modes[c->n_modes], sizeof c->modes[0], "%.15s", mode);
    return c->n_modes++;
}

static hb_status paper_failure(hb_sweep_census *c, const hb_csv_row *row, const row_key *key, const char *verdict)
{
    double ratio;
    HB_TRY(hb_csv_number(row, S_PAPER_RATIO, &ratio));
    void *items = c->paper_failures;
    if (!hb_array_room(&items, &c->cap_paper_failures, c->n_paper_failures, sizeof *c->paper_failures))
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    c->paper_failures = items;
    hb_paper_failure *f = &c->paper_failures[c->n_paper_failures++];
    *f = (hb_paper_failure){key->m, key->n, key->k, "", "", ratio};
    snprintf(f->mode, sizeof f->mode, "%.15s", key->mode);
    snprintf(f->verdict, sizeof f->verdict, "%.63s", verdict);
    return HB_OK;
}

static size_t audit_column(const char *verdict, const char *check)
{
    if (!strcmp(verdict, "pass"))
        return HB_AUDIT_PASS;
    if (!strcmp(verdict, "incorrect"))
        return strstr(check, "deviation") ? HB_AUDIT_DEVIATION : HB_AUDIT_INCORRECT_OTHER;
    return HB_AUDIT_OTHER;
}

/* Why the headline's timing of this configuration is in doubt: its work
 * left the timed stream or the events read short (the headline is then on
 * the wall clock), or it was never traced; "" if it is not. */
static void doubt_of(const hb_csv_row *row, char *out, size_t size)
{
    const char *timer = row->text[S_HEADLINE_TIMER], *reason = row->text[S_TIMER_REASON];
    const char *trace = row->text[S_TRACE_NOTE];
    if (present(timer) && !strcmp(timer, "wall"))
        snprintf(out, size, "headline on the wall clock: %.60s", present(reason) ? reason : "reason not written");
    else if (present(trace)) /* the call monitor did not run; the note says why */
        snprintf(out, size, "not traced (%.60s): conduct and the events unchecked", trace);
    else
        out[0] = '\0';
}

static hb_status candidate_row(sweep_reading *r, const hb_csv_row *row, const row_key *key, size_t mode)
{
    hb_sweep_census *c = r->c;
    const char *verdict = row->text[S_VERDICT], *check = row->text[S_CHECK];
    r->m = key->m, r->n = key->n, r->k = key->k;
    snprintf(r->mode, sizeof r->mode, "%.15s", key->mode);
    r->passed = !strcmp(verdict, "pass");
    char label[128];
    snprintf(label, sizeof label, "%.40s%s%.60s", verdict, present(check) ? " / " : "", check);
    c->configs[mode]++;
    if (!c->gpu[0] && present(row->text[S_GPU]))
        snprintf(c->gpu, sizeof c->gpu, "%.127s", row->text[S_GPU]);
    HB_TRY(hb_label_add(&c->verdicts, label, mode));
    if (row->text[S_PAPER_RULE])
        c->has_paper_rule = 1;
    if (present(row->text[S_PAPER_RULE]) && !strcmp(row->text[S_PAPER_RULE], "fail"))
        HB_TRY(paper_failure(c, row, key, label));
    char doubt[128];
    doubt_of(row, doubt, sizeof doubt);
    if (doubt[0] && !strcmp(verdict, "pass"))
        HB_TRY(hb_label_add(&c->doubt, doubt, mode));
    /* summary.csv's own cell where the run audited, else the import's of the same file */
    const char *mma = present(row->text[S_MMA]) && strcmp(row->text[S_MMA], "unknown")
                          ? row->text[S_MMA]
                          : mma_of(r->mma, key->m, key->n, key->k);
    if (mma && mode == 0) {
        c->has_audit = 1;
        char cls[64];
        accumulator_class(mma, cls, sizeof cls);
        HB_TRY(hb_label_add(&c->audit, cls, audit_column(verdict, check)));
    }
    return HB_OK;
}

/* A speedup column into a timer's sums: empty is no figure; anything else
 * is range-checked (its ratio within 1e-9..1e9), so the sums stay finite. */
static hb_status add_speedup(hb_timer_means *t, int timer, const hb_csv_row *row, size_t which)
{
    double s;
    HB_TRY(hb_csv_number(row, which, &s));
    if (isnan(s))
        return HB_OK;
    t->n[timer]++;
    t->sum[timer] += s;
    t->log_sum[timer] += log1p(s);
    return HB_OK;
}

static hb_status baseline_row(hb_sweep_census *c, const hb_csv_row *row, size_t mode)
{
    for (int b = 0; b < HB_CENSUS_BASELINES; b++) {
        if (strcmp(row->text[S_PARTICIPANT], hb_census_baselines[b]))
            continue;
        hb_timer_means *t = &c->means[mode][b];
        HB_TRY(add_speedup(t, 0, row, S_SPEEDUP));
        HB_TRY(add_speedup(t, 1, row, row->text[S_SPEEDUP_EVENT] ? S_SPEEDUP_EVENT : S_SPEEDUP));
        HB_TRY(add_speedup(t, 2, row, S_SPEEDUP_WALL));
        HB_TRY(add_speedup(t, 3, row, S_SPEEDUP_KERNEL));
    }
    return HB_OK;
}

static hb_status summary_row(void *context, const hb_csv_row *row)
{
    sweep_reading *r = context;
    row_key key;
    HB_TRY(read_row_key(row, &key));
    size_t mode = mode_column(r->c, key.mode);
    if (!strcmp(row->text[S_ROLE], "candidate"))
        return candidate_row(r, row, &key, mode);
    int same = key.m == r->m && key.n == r->n && key.k == r->k && !strcmp(key.mode, r->mode);
    if (same && r->passed) /* the speedups of passing configurations only, as the paper's tables */
        return baseline_row(r->c, row, mode);
    return HB_OK;
}

hb_status hb_sweep_census_read(const char *summary_csv, const hb_import_census *import, const char *const *reports,
                               size_t n_reports, hb_sweep_census *out)
{
    memset(out, 0, sizeof *out);
    mma_table mma = {0};
    hb_status status = HB_OK;
    if (import && import->has_accumulators) {
        hb_csv_spec spec = {.what = "an hgemm-bench import.csv", .wanted = import_columns, .n_wanted = I_COUNT,
                            .optional = import_optional, .row = mma_row, .context = &mma};
        for (size_t i = 0; i < n_reports && status == HB_OK; i++)
            status = hb_csv_read(reports[i], &spec);
    }
    sweep_reading r = {.c = out, .mma = &mma};
    hb_csv_spec spec = {.what = "an hgemm-bench summary.csv", .wanted = summary_columns, .n_wanted = S_COUNT,
                        .optional = summary_optional, .row = summary_row, .context = &r};
    if (status == HB_OK)
        status = hb_csv_read(summary_csv, &spec);
    mma_table_free(&mma);
    hb_label_sort(&out->verdicts);
    hb_label_sort(&out->doubt);
    hb_label_sort(&out->audit);
    return status;
}

void hb_sweep_census_free(hb_sweep_census *c)
{
    hb_label_counts_free(&c->verdicts);
    hb_label_counts_free(&c->doubt);
    hb_label_counts_free(&c->audit);
    free(c->paper_failures);
}
