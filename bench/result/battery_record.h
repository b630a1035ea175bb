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

/* One output against the fp64 reference: how far each element lies beyond
 * the fp16 rounding interval around the exact value.  An output that is the
 * fp16 rounding of some s with |s - ref| <= d has an excess <= d, whichever
 * way it rounded: an element on a rounding midpoint costs nothing
 * (docs/methodology.md, "The deviation rule"). */
typedef struct hb_excess {
    double max;              /* largest max(0, |c - ref64| - ulp16(c)/2) over finite outputs; +inf with NaN/Inf */
    uint64_t index;          /* row-major index of that element */
    uint64_t beyond;         /* elements with a nonzero excess */
    uint64_t non_finite;     /* NaN or Inf outputs */
    double value;            /* c at index */
    double reference;        /* ref64 at index */
} hb_excess;

/* What the deviation checks of one configuration found (before timing,
 * spot checks of timed rounds, after timing), for the candidate. */
typedef struct hb_deviation_record {
    int rule;                   /* hb_deviation_rule (bench/result/deviation_rule.h): the one that decided */
    int checks;                 /* deviation checks that compared the candidate */
    int paper_failures;         /* of them, how many the paper's literal rule would have failed */
    double worst_ratio;         /* max over checks of the candidate's excess / tolerance; <= 1 passes */
    double tolerance;           /* the tolerance of that check */
    double analytic_tolerance;  /* its fp32-accumulation term */
    double baseline_excess;     /* its largest baseline excess */
    double paper_worst_ratio;   /* max over checks of |c - ref32| / paper bound */
    /* The candidate's largest |c - ref32| of each check, summed and its
     * largest (count: checks): the reward's diff term (bench/result/reward.h). */
    double paper_dev_sum;
    double paper_dev_max;
} hb_deviation_record;

/* One exact-match check ({0,1} or {-1,0,1} inputs), over its repetitions. */
typedef struct hb_exact_record {
    int ran;              /* 0: not run (signed variant with K > 2048, or an earlier failure) */
    int reps;             /* repetitions that ran */
    uint64_t compared;    /* output positions compared exactly, summed over reps */
    uint64_t ignored;     /* positions whose exact value was >= 2048, summed over reps */
} hb_exact_record;

/* The host cross-check of the GPU's references on a sample of outputs. */
typedef struct hb_crosscheck {
    int samples;         /* elements recomputed */
    double worst_ratio;  /* max over samples and both references of |ref - host| / bound; <= 1 to pass */
} hb_crosscheck;

typedef struct hb_battery_record {
    hb_exact_record exact_binary, exact_signed;
    int deviation_ran;      /* the deviation check compared every participant (passed or not) */
    hb_deviation_record deviation; /* every deviation check of the configuration, spot and post included */
    hb_crosscheck crosscheck;
    double seconds_before;  /* wall time of checks 1-3, seconds */
    int post_ran;
    double seconds_after;
} hb_battery_record;

#endif
