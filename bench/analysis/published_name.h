/* What a published file's name says (docs/reports.md, "compare"): CUDA-L2
 * names its files cuda_l2_<gpu>_<class>_speedup_<mode>.csv
 * (cuda_l2_h100_F32F16F16F32_speedup_offline.csv), the GPU they were
 * measured on, the accumulator class of the kernels (F32F16F16F32: fp32
 * accumulation; F16F16F16F16: fp16) and the mode; the report's own
 * speedup_<mode>.csv says the mode only. */
#ifndef HB_PUBLISHED_NAME_H
#define HB_PUBLISHED_NAME_H

#include "bench/core/timing_policy.h"

typedef struct hb_published_name {
    int has_mode;
    hb_mode mode;
    char gpu[32];       /* "h100", "a100", "3090"; "" when the name does not say */
    char class_tag[32]; /* "F32F16F16F32"; "" when the name does not say */
    const char *acc;    /* the class as --acc names it, "fp32" or "fp16"; NULL: not said or not known */
} hb_published_name;

/* Reads the name (the last part of `path`). */
void hb_published_name_parse(const char *path, hb_published_name *out);

#endif
