/* The accumulator audit's census over a set's results (docs/validation.md,
 * "Accumulator audit"): how many candidates that claim fp32 accumulate in
 * fp16 only (findings fp16-mma-only and fp16-simt-only), how many of the
 * deviation check's failures they account for, and which of them passed.
 * Fed one row at a time from summary.csv's candidate rows (acc_class,
 * verdict, check, mma_accumulators) or from import.csv (mma_accumulators,
 * with the set's class and no verdict).  Plain data: no CUDA, no files. */
#ifndef HB_MMA_CENSUS_H
#define HB_MMA_CENSUS_H

#include <stddef.h>

typedef struct hb_mma_census {
    size_t rows;                      /* rows added */
    size_t unknown;                   /* ... whose audit is unknown or empty (no cuobjdump, not audited) */
    size_t mma_f16, mma_f32, mma_both;/* ... whose MMA accumulate in fp16 only, fp32 only, both */
    size_t simt;                      /* ... with no MMA (simt-* or none) */
    size_t fp16_only;                 /* ... claiming fp32 with a finding: fp16-mma-only or fp16-simt-only */
    size_t deviation_failures;        /* ... that failed the deviation check (check "deviation") */
    size_t deviation_failures_fp16;   /* ... of which fp16-only */
    size_t fp16_only_passed;          /* fp16-only rows whose verdict is pass */
} hb_mma_census;

/* What one row was, for a caller that lists rows (the fp16-only ones that passed, say). */
typedef enum hb_mma_census_row {
    HB_CENSUS_OTHER,            /* nothing to say */
    HB_CENSUS_FP16_ONLY,        /* claims fp32, accumulates in fp16 only, did not pass (or no verdict) */
    HB_CENSUS_FP16_ONLY_PASSED  /* the same, and its verdict is pass */
} hb_mma_census_row;

/* Adds a row: `mma_cell` the mma_accumulators cell, `acc_class` "fp32" or
 * "fp16" (the run's or the set's), `verdict` and `check` as summary.csv has
 * them (NULL or "" for import.csv, which has none). */
hb_mma_census_row hb_mma_census_add(hb_mma_census *census, const char *mma_cell, const char *acc_class,
                                    const char *verdict, const char *check);

#endif
