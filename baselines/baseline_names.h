/* The baselines' names as the results, the report and `gate --vs` spell
 * them (protocol section 2), and the "-max" pairs: per configuration, the
 * faster of a baseline's NN and TN variants. */
#ifndef HB_BASELINE_NAMES_H
#define HB_BASELINE_NAMES_H

#include <stddef.h>

/* The timed baselines, in the order the results list them. */
#define HB_N_TIMED_BASELINES 7
extern const char *const hb_timed_baseline_names[HB_N_TIMED_BASELINES];

typedef struct hb_max_pair {
    const char *name; /* e.g. "cublas-max" */
    const char *nn, *tn;
} hb_max_pair;

#define HB_N_MAX_PAIRS 3
extern const hb_max_pair hb_max_pairs[HB_N_MAX_PAIRS];

/* 1 if `name` is a timed baseline or a -max figure. */
int hb_baseline_name_known(const char *name);

/* "torch, cublas-nn, ..., cublaslt-autotune-max" for messages. */
const char *hb_baseline_name_list(void);

#endif
