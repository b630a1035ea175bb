/* The columns of the report's and compare's tables: the candidate's speedup
 * over each baseline of the registry (bench/result/baseline_registry.h) and
 * over each -max figure, in the order of CUDA-L2's published files: torch,
 * then per family TN, NN, max.  Derived from the registry, so a new baseline
 * there is a new column here. */
#ifndef HB_SPEEDUP_COLUMNS_H
#define HB_SPEEDUP_COLUMNS_H

#include <stddef.h>

/* Baselines plus -max figures, with room for a few more. */
#define HB_MAX_SPEEDUP_COLUMNS 24

/* A speedup ratio t_base / t_cand read from a file is believed only within
 * nine orders of magnitude of 1 either way: beyond what any timer of the
 * harness resolves (a nanosecond against a call the timeout lets run for
 * seconds), and small enough that every sum, mean and log the tables take
 * stays finite (a ratio of 1.7e308 sums to +inf over two configurations). */
#define HB_MIN_RATIO 1e-9
#define HB_MAX_RATIO 1e9

typedef struct hb_speedup_column {
    char name[48];       /* as summary.csv's participant column names it: "cublas-tn", "cublas-max" */
    char published[48];  /* as the published files head it: "cuBLAS-tn", "cuBLAS-max" */
    char plot_style[96]; /* its gnuplot style: the registry's; a -max figure: its NN row's, thicker */
    int is_max;          /* 1: a -max figure (the faster of NN and TN per configuration) */
} hb_speedup_column;

size_t hb_speedup_column_count(void);
const hb_speedup_column *hb_speedup_column_at(size_t index);
/* The index of the column named `name` (ours), or -1. */
int hb_speedup_column_find(const char *name);
/* The index of the column headed `published`, or -1. */
int hb_speedup_column_find_published(const char *published);
/* The -max figure of the autotuned cuBLASLt baseline: Table 3's reference
 * (the strongest baseline, paper Table 3). */
int hb_speedup_column_autotune_max(void);

#endif
