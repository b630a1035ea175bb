/* The baselines a run times against, one row each (docs/methodology.md,
 * "Baselines"): the one list that names them for the results, `--vs`,
 * `--aa`, `hgemm-bench baselines` and the plots, pairs them into -max
 * figures, says which set the deviation bound, and which factory of
 * baselines/baseline_factory.c creates each.  Plain data, so layers without
 * CUDA (the writers, the option parser) read it too.
 *
 * To add a baseline: a row here, and, if it is of a new kind, a kind below
 * and its case in baselines/baseline_factory.c. */
#ifndef HB_BASELINE_REGISTRY_H
#define HB_BASELINE_REGISTRY_H

#include <stddef.h>

#include "bench/core/gemm_types.h"

/* Which factory creates a baseline. */
typedef enum hb_baseline_kind {
    HB_KIND_TORCH,         /* cublasGemmEx exactly as torch.matmul calls it */
    HB_KIND_CUBLAS,        /* cublasGemmEx, paper Listing 6 */
    HB_KIND_LT_HEURISTIC,  /* cublasLtMatmul with the heuristic's top algorithm, Listing 7 */
    HB_KIND_LT_AUTOTUNE    /* cublasLtMatmul with the fastest of the heuristic's algorithms, Listing 8 */
} hb_baseline_kind;

typedef struct hb_baseline_entry {
    const char *name;        /* as results, --vs and --aa spell it */
    hb_baseline_kind kind;
    hb_b_layout b_layout;    /* the copy of B it reads: row (NN) or col (TN) */
    int bounds_deviation;    /* 1: its deviation from the reference sets the correctness bound */
    const char *max_row;     /* the -max figure it is one half of ("cublas-max"); NULL: none */
    const char *plot_style;  /* gnuplot line and point style of its curves (plots/plot_run.sh) */
    const char *about;       /* one line, for `hgemm-bench baselines` and --help */
    const char *published;   /* its column in CUDA-L2's published speedup CSVs ("cuBLAS-nn"): the
                                report's published layout (bench/analysis/published_layout.h) */
} hb_baseline_entry;

#define HB_N_BASELINES 7
extern const hb_baseline_entry hb_baselines[HB_N_BASELINES];

/* A -max figure: per configuration, the faster of a baseline's NN and TN
 * rows.  Derived from the rows' max_row fields. */
typedef struct hb_max_pair {
    const char *name, *nn, *tn;
    char published[48]; /* its published column: the NN row's, "-max" for its last "-nn" ("cuBLAS-max") */
} hb_max_pair;

size_t hb_max_pair_count(void);
/* The i-th -max figure, in registry order of its NN row (i < hb_max_pair_count()). */
hb_max_pair hb_max_pair_at(size_t i);

/* The registry row named `name`, or NULL (-max names are not rows). */
const hb_baseline_entry *hb_baseline_find(const char *name);

/* 1 if `name` is a baseline or a -max figure: what --vs takes. */
int hb_baseline_name_known(const char *name);

/* "torch, cublas-nn, ..., cublaslt-autotune-max": every baseline, then
 * every -max figure (with_max = 1) or the baselines alone (0), for messages. */
const char *hb_baseline_name_list(int with_max);

#endif
