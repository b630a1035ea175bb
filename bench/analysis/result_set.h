/* The configurations one or more result folders hold, each once: for each
 * (M, N, K, mode), the candidate's verdict and the per-configuration speedup
 * t_base / t_cand over each column of bench/analysis/speedup_columns.h, by
 * both estimators and both timers, as summary.csv's rows give them.  Where
 * each came from (file and line) is kept for messages, and a configuration
 * found in two files is refused: shards must be merged or disjoint. */
#ifndef HB_RESULT_SET_H
#define HB_RESULT_SET_H

#include <stddef.h>

#include "bench/analysis/speedup_columns.h"
#include "bench/core/diag.h"
#include "bench/core/status.h"
#include "bench/core/timing_policy.h"

/* A configuration: the product's size and the mode it was timed in. */
typedef struct hb_config_key {
    long m, n, k;
    hb_mode mode;
} hb_config_key;

/* The per-configuration estimators of summary.csv (docs/results.md). */
typedef enum hb_estimator {
    HB_EST_PAPER,   /* speedup_paper + 1: the mean over rounds of t_b / t_c (the paper's eq. 2) */
    HB_EST_GEOMEAN, /* speedup_geomean + 1: the geometric mean of the paired per-round ratios */
    HB_EST_COUNT
} hb_estimator;

/* The timer behind them: CUDA events (speedup_paper, speedup_geomean: on
 * each configuration's headline timer, which is the wall clock where the
 * work left the events), the host's wall clock (speedup_paper_wall,
 * speedup_geomean_wall), or CUPTI's kernel-only time (speedup_kernel: the
 * ratio of the kernel medians, the same figure for both estimators). */
typedef enum hb_timer { HB_TIMER_EVENT, HB_TIMER_WALL, HB_TIMER_KERNEL, HB_TIMER_COUNT } hb_timer;

/* "event", "wall" or "kernel" (--timer): 1 if `text` names one. */
int hb_timer_parse(const char *text, hb_timer *out);

/* What `compare` reads besides the speedups above (docs/reports.md,
 * "compare"), from columns a summary.csv of an older harness may lack (NaN or
 * "" then): the candidate's speedup on each timer per column, the numbers the
 * CUDA-L2 repository's own estimator is computed from, our per-configuration
 * noise, and what says whether the timing is in doubt. */
typedef struct hb_config_timers {
    double paper_event[HB_MAX_SPEEDUP_COLUMNS];    /* speedup_paper_event + 1 (events, whatever the headline) */
    double kernel[HB_MAX_SPEEDUP_COLUMNS];         /* speedup_kernel + 1 (CUPTI kernel medians) */
    double wall_mean_us[HB_MAX_SPEEDUP_COLUMNS];   /* the baseline's mean wall time, us */
    double wall_rel_stdev[HB_MAX_SPEEDUP_COLUMNS]; /* its relative standard deviation */
    double ci_rel_half[HB_MAX_SPEEDUP_COLUMNS];    /* the headline CI's half-width over the headline ratio */
    double candidate_wall_mean_us, candidate_wall_rel_stdev;
    char headline_timer[8];  /* "event", "wall", or "" */
    char timer_reason[64];   /* why a wall headline: "other-stream,host-gap" */
    char trace_note[160];    /* why the call monitor did not run whole ("": it did) */
    int trace_recorded;      /* 1: the file has a trace_note column (a harness with the call monitor) */
    int candidate_called;    /* 1: its first check ran (exact_binary_reps written): the candidate was called */
    char acc_class[16];      /* the run's accumulator class: "fp32", "fp16" */
} hb_config_timers;

typedef struct hb_config_entry {
    hb_config_key key;
    char verdict[24];     /* the candidate's: "pass", "incorrect", ... ("" until its row is read) */
    char check[32];
    char *reason;
    const char *source;   /* the summary.csv it came from (owned by the set) */
    const char *candidate; /* its folder's env.json "candidate" (owned by the set); NULL: not recorded */
    char form[12];        /* what was timed (hb_result_forms): "cubin", "replay", "launcher", "unknown" */
    char replay_refusal[24]; /* why a launcher has no replay ("calls-differ", ...); "" when it has one or none was tried */
    size_t line;          /* the line of its first row there */
    size_t candidate_line; /* the line of the candidate's row; 0: none read */
    /* t_b / t_c per timer, estimator and column; NaN where the file has no figure */
    double ratio[HB_TIMER_COUNT][HB_EST_COUNT][HB_MAX_SPEEDUP_COLUMNS];
    size_t ratio_line[HB_MAX_SPEEDUP_COLUMNS]; /* the line of each column's row; 0: none read */
    hb_config_timers timers;
} hb_config_entry;

/* A configuration a sweep's plan expects that no folder holds. */
typedef struct hb_missing_config {
    hb_config_key key;
    const char *plan;     /* the plan.json that expects it (owned by the set) */
} hb_missing_config;

typedef struct hb_result_set {
    hb_config_entry *entries;
    size_t count, capacity;
    void *index;          /* a tsearch(3) tree over the keys */
    char **texts;         /* strings the set owns: paths, notes, GPU names */
    size_t n_texts, cap_texts;
    const char **notes;   /* sentences about the inputs for the reports (in texts) */
    size_t n_notes, cap_notes;
    const char **gpus;    /* the GPU names the folders record, each once (in texts) */
    size_t n_gpus, cap_gpus;
    const char **candidates; /* the candidates the folders record, each once (in texts) */
    size_t n_candidates, cap_candidates;
    hb_missing_config *missing;
    size_t n_missing, cap_missing;
} hb_result_set;

void hb_result_set_init(hb_result_set *set);
void hb_result_set_free(hb_result_set *set);

/* A copy of `text` the set owns (NULL: out of memory, reported). */
const char *hb_result_set_keep(hb_result_set *set, const char *text);

/* The entry of `key`, created if new (NaN ratios, no verdict).  A key the
 * set already has from another file is bad results naming both places. */
hb_status hb_result_set_entry(hb_result_set *set, const hb_config_key *key, const char *source, size_t line,
                              hb_config_entry **out);
/* The entry of `key`, or NULL. */
hb_config_entry *hb_result_set_find(const hb_result_set *set, const hb_config_key *key);

hb_status hb_result_set_note(hb_result_set *set, const char *fmt, ...) HB_PRINTF(2, 3);
hb_status hb_result_set_add_gpu(hb_result_set *set, const char *name);
/* The candidate's path as the set keeps it (added once; NULL: out of memory, reported). */
const char *hb_result_set_add_candidate(hb_result_set *set, const char *path);
hb_status hb_result_set_add_missing(hb_result_set *set, const hb_config_key *key, const char *plan);

/* 1 if the configuration's candidate was measured and passed every check
 * (verdict pass, or too-slow or undecided: gate's threshold, not a check): its speedups
 * count.  Every other verdict is excluded from the tables and listed. */
int hb_config_counts(const hb_config_entry *entry);

/* "M_N_K", the published files' name of a size. */
void hb_config_key_mnk(const hb_config_key *key, char *out, size_t size);

/* Entries in a fixed order: mode, then M, N, K ascending (qsort). */
hb_status hb_result_set_sort(hb_result_set *set);

#endif
