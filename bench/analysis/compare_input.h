/* What compare works on: its settings and the two sides (ours, the
 * published file), the configurations both have, and the counts that decide
 * its exit code.  Shared by comparison.c (the summary tables) and
 * timer_comparison.c (the per-timer tables), which call nothing of each
 * other's but hb_build_timer_tables. */
#ifndef HB_COMPARE_INPUT_H
#define HB_COMPARE_INPUT_H

#include "bench/analysis/compare_status.h"
#include "bench/analysis/published_layout.h"
#include "bench/analysis/published_name.h"
#include "bench/analysis/result_set.h"

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

#endif
