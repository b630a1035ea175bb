/* What the correctness battery (verify/battery.h) compared and found, as the
 * results record it: plain data, so the writers need no GPU code. */
#ifndef HB_BATTERY_RECORD_H
#define HB_BATTERY_RECORD_H

#include <stdint.h>

/* One output compared with the reference, element by element. */
typedef struct hb_deviation {
    double max_abs;          /* largest |c - ref| over finite outputs; +inf if any output is NaN/Inf */
    uint64_t worst_index;    /* row-major index of that element */
    uint64_t non_finite;     /* count of NaN or Inf outputs */
    double worst_value;      /* c at worst_index */
    double worst_reference;  /* ref at worst_index */
} hb_deviation;

/* One exact-match check ({0,1} or {-1,0,1} inputs), over its repetitions. */
typedef struct hb_exact_record {
    int ran;              /* 0: not run (signed variant with K > 2048, or an earlier failure) */
    int reps;             /* repetitions that ran */
    uint64_t compared;    /* output positions compared exactly, summed over reps */
    uint64_t ignored;     /* positions whose exact value was >= 2048, summed over reps */
} hb_exact_record;

/* The fp64 cross-check of the GPU's fp32 reference on a sample of outputs. */
typedef struct hb_crosscheck {
    int samples;         /* elements recomputed */
    double worst_ratio;  /* max over samples of |ref32 - ref64| / bound; <= 1 to pass */
} hb_crosscheck;

typedef struct hb_battery_record {
    hb_exact_record exact_binary, exact_signed;
    int deviation_ran;      /* the deviation check compared every participant (passed or not) */
    hb_crosscheck crosscheck;
    double seconds_before;  /* wall time of checks 1-3, seconds */
    int post_ran;
    double post_bound, post_deviation;  /* after timing, on fresh inputs */
    double seconds_after;
} hb_battery_record;

#endif
