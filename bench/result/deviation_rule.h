/* The deviation rule (docs/methodology.md, "The deviation rule"): how a
 * candidate's output on random-normal inputs is judged against the exact
 * product and the baselines' outputs of the same call.
 *
 * ulp-excess (the verdict by default).  Per element, the excess is how far
 * |c - ref64| goes beyond half an fp16 ulp of c: an output that is the fp16
 * rounding of any s with |s - ref64| <= d has excess <= d, so an element
 * whose exact value sits on a rounding midpoint costs an honest kernel
 * nothing, whichever way it rounds.  The candidate passes when its largest
 * excess is at most the tolerance
 *     max(32 u sqrt(K) rms(ref64), 2 x the largest baseline excess),
 * u = 2^-24 for the fp32 class (2^-11 for fp16).  For these N(0, 1)
 * inputs rms(ref64) = sqrt(K), so the first term is 32 u K.  The largest
 * excess of an honest fp32 kernel grows like u K (partial sums grow like
 * sqrt(k), and so does each addition's error; tensor cores truncate, which
 * biases the errors); the largest measured was 9.5 u K (cuBLAS and the mma
 * sample at 128 x 4096 x 16384 on an H100), while 16-deep fp16 chunks
 * added in fp32 gave 112 u K there and more at every other size: 32 lies
 * between them, about 3.4x from each (docs/validation.md, "The deviation
 * rule").
 * The second term keeps a baseline's own accumulation from ever making
 * the rule stricter than the library it is compared with.
 *
 * paper (the paper's literal rule, always computed and reported): fp32
 * reference; bound = the largest |b - ref32| over the bounding baselines;
 * the candidate passes when its largest |c - ref32| is at most the bound.
 * One element at an fp16 midpoint, where the fp32 reference itself may lie
 * on the wrong side, can decide it against an honest kernel. */
#ifndef HB_DEVIATION_RULE_H
#define HB_DEVIATION_RULE_H

#include "bench/core/gemm_types.h"
#include "bench/result/battery_record.h"

#define HB_RULE_ANALYTIC_FACTOR 32.0 /* on u sqrt(K) rms(ref64) */
#define HB_RULE_BASELINE_FACTOR 2.0  /* on the largest baseline excess */

typedef enum hb_deviation_rule { HB_RULE_ULP_EXCESS, HB_RULE_PAPER } hb_deviation_rule;

/* "ulp-excess", "paper". */
const char *hb_deviation_rule_name(hb_deviation_rule rule);

/* 1 and *out set when `text` names a rule. */
int hb_deviation_rule_parse(const char *text, hb_deviation_rule *out);

/* Both rules' figures for one check of the candidate. */
typedef struct hb_rule_figures {
    double analytic;         /* 32 u sqrt(K) rms(ref64) */
    double baseline_excess;  /* largest excess among the bounding baselines */
    double tolerance;        /* max(analytic, 2 baseline_excess) */
    double excess;           /* the candidate's largest excess */
    double ratio;            /* excess / tolerance */
    double paper_bound;      /* largest |b - ref32| among the bounding baselines */
    double paper_dev;        /* the candidate's largest |c - ref32| */
    double paper_ratio;      /* paper_dev / paper_bound */
    int excess_pass, paper_pass;
} hb_rule_figures;

/* Unit roundoff of the class's accumulator: 2^-24 (fp32), 2^-11 (fp16). */
double hb_unit_roundoff(hb_acc_class acc);

/* Fills every field from the measured figures (non-finite candidate
 * figures fail both rules). */
void hb_rule_judge(hb_acc_class acc, long k, double ref_rms, double baseline_excess, double excess,
                   double paper_bound, double paper_dev, hb_rule_figures *out);

/* Whether the candidate passes under the rule that decides. */
int hb_rule_passes(hb_deviation_rule rule, const hb_rule_figures *figures);

/* Adds one check's figures to the configuration's record (worst kept). */
void hb_deviation_record_add(hb_deviation_record *record, const hb_rule_figures *figures);

#endif
