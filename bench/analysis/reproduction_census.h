/* The census of a reproduction (docs/reproduce-cuda-l2.md, "The census"):
 * what the import built and why the rest did not (from the set's
 * import.csv), and what the sweep found (from its summary.csv): verdicts by
 * check per mode, the kernels failing the paper's own deviation rule, the
 * configurations whose timing is in doubt, the static accumulator audit
 * beside the deviation verdicts, and the mean speedups on every timer. */
#ifndef HB_REPRODUCTION_CENSUS_H
#define HB_REPRODUCTION_CENSUS_H

#include <stddef.h>

#include "bench/analysis/label_counts.h"
#include "bench/core/status.h"

/* The import's columns: files, built (or from the cache), failed or skipped, with a cubin form. */
enum { HB_KIND_FILES, HB_KIND_BUILT, HB_KIND_NOT_BUILT, HB_KIND_CUBIN };
/* The audit's columns: pass, incorrect by the deviation check, incorrect otherwise, any other verdict. */
enum { HB_AUDIT_PASS, HB_AUDIT_DEVIATION, HB_AUDIT_INCORRECT_OTHER, HB_AUDIT_OTHER };

typedef struct hb_import_census {
    size_t files, built, cached, failed, skipped, cubin_forms;
    double build_seconds_median, build_seconds_max, build_seconds_sum; /* over files built now, seconds */
    hb_label_counts by_kind;      /* kind x HB_KIND_* */
    hb_label_counts failures;     /* why a file did not build or was skipped */
    hb_label_counts no_cubin;     /* why a built file has no cubin form */
    hb_label_counts accumulators; /* mma_accumulators, where import.csv has the column */
    int has_accumulators;
} hb_import_census;

/* A configuration failing the paper's own rule (its max |candidate - fp32|
 * above the six baselines' largest). */
typedef struct hb_paper_failure {
    long m, n, k;
    char mode[16];
    char verdict[64];
    double ratio; /* the candidate's deviation over the bound; NaN if not written */
} hb_paper_failure;

/* The speedup figures the page sets side by side, per mode and baseline. */
#define HB_CENSUS_TIMERS 4 /* the headline's timer, events, wall clock, kernel-only */
#define HB_CENSUS_BASELINES 4
#define HB_CENSUS_MODES 2
typedef struct hb_timer_means {
    size_t n[HB_CENSUS_TIMERS];
    double sum[HB_CENSUS_TIMERS];        /* of t_base / t_cand - 1 */
    double log_sum[HB_CENSUS_TIMERS];    /* of log(t_base / t_cand) */
} hb_timer_means;

typedef struct hb_sweep_census {
    char gpu[128];                /* the GPU the candidate rows name (gpu_name), "" if none */
    char modes[HB_CENSUS_MODES][16];
    size_t n_modes;
    size_t configs[HB_CENSUS_MODES];
    hb_label_counts verdicts;     /* "verdict / check" x mode */
    hb_label_counts doubt;        /* why a configuration's timing is in doubt x mode */
    hb_label_counts audit;        /* mma_accumulators x HB_AUDIT_* (the first mode's verdicts) */
    int has_audit;
    int has_paper_rule;
    hb_paper_failure *paper_failures;
    size_t n_paper_failures, cap_paper_failures;
    hb_timer_means means[HB_CENSUS_MODES][HB_CENSUS_BASELINES];
} hb_sweep_census;

/* The baselines of the speedup table, in summary.csv's names, and the timers' names. */
extern const char *const hb_census_baselines[HB_CENSUS_BASELINES];
extern const char *const hb_census_timers[HB_CENSUS_TIMERS];

/* Reads SET/import.csv.  HB_ERR_BAD_RESULTS naming the place for a file that
 * is not one. */
hb_status hb_import_census_read(const char *import_csv, hb_import_census *out);
void hb_import_census_free(hb_import_census *c);

/* Reads a sweep's summary.csv; the audit joins `import` (may be NULL) where
 * summary.csv has no mma_accumulators column. */
hb_status hb_sweep_census_read(const char *summary_csv, const hb_import_census *import, const char *import_csv,
                               hb_sweep_census *out);
void hb_sweep_census_free(hb_sweep_census *c);

#endif
