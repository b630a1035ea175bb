/* `compare`: our per-configuration speedups against a published file's
 * (docs/reports.md, "compare"), for one mode.  Ours is the figure the
 * report's own published-layout table holds (the paper's per-configuration
 * estimator, with the chosen timer), so a report's speedup_<mode>.csv
 * compared with its own folders agrees exactly.  On the configurations both
 * sides have: per column the means of both sides, Spearman's rank
 * correlation, the share where both say the candidate wins; the largest
 * disagreements |log(ours / theirs)| over every configuration and column;
 * and the configurations only one side has, or that ours left out. */
#ifndef HB_COMPARISON_H
#define HB_COMPARISON_H

#include "bench/analysis/compare_status.h"
#include "bench/analysis/published_layout.h"
#include "bench/analysis/published_name.h"
#include "bench/analysis/report_doc.h"
#include "bench/analysis/result_set.h"

/* How many disagreements the table lists. */
#define HB_COMPARE_TOP_DISAGREEMENTS 10

typedef struct hb_compare_input {
    const hb_result_set *ours;
    const hb_published_table *theirs;
    const char *published_path;
    hb_mode mode;
    const char *mode_source; /* how the mode was chosen, for the caption: "--mode", "the file name" */
    hb_timer timer;
    hb_published_name name;  /* what the published file's name says */
    int mode_forced;         /* 1: --mode chose the mode */
    double noise_floor;      /* --noise: the published side's noise, a fraction (0: none) */
    double threshold;        /* --threshold: a fraction; < 0: none */
} hb_compare_input;

/* A configuration both sides have (ours: one that counts). */
typedef struct hb_compare_pair {
    const hb_config_entry *ours;
    const hb_published_row *theirs;
} hb_compare_pair;

/* What the comparison found that decides the exit code. */
typedef struct hb_compare_outcome {
    size_t pairs;            /* (configuration, column) pairs with both figures */
    size_t status[HB_CMP_STATUS_COUNT]; /* of them: same, faster, slower, unknown */
    size_t below_threshold;  /* slower, and by more than the threshold */
} hb_compare_outcome;

/* Adds the comparison's tables to `doc` (docs/reports.md, "compare"):
 * compare_summary, compare_status, compare_timers_<column> (one per
 * column), compare_disagreements; and, CSV and JSON only, compare_missing,
 * compare_configs and compare_timer_configs.  `out`: the statuses' counts. */
hb_status hb_build_comparison(const hb_compare_input *in, hb_doc *doc, hb_compare_outcome *out);

/* The doubt marker's reason for `entry` (bench/analysis/timing_doubt.h): 1 if in doubt. */
int hb_compare_doubt(const hb_config_entry *entry, char *why, size_t size);

/* The per-timer tables (bench/analysis/timer_comparison.c): compare_status,
 * compare_timers_<column>, compare_timer_configs, on `pairs`; the statuses
 * counted into `out`. */
hb_status hb_build_timer_tables(const hb_compare_input *in, const hb_compare_pair *pairs, size_t count, hb_doc *doc,
                                hb_compare_outcome *out);

#endif
