/* The deviation check (docs/methodology.md, "The deviation rule"): every
 * participant's output of one call on the same random-normal inputs is
 * compared element by element with the exact (fp64) and the fp32
 * reference of those inputs; the bounding baselines' outputs of that very
 * call set the tolerance; bench/result/deviation_rule.h decides.  Used
 * before timing (hb_check_deviation, which also makes the calls), and on
 * the outputs a timed round left (spot checks) and after timing
 * (hb_judge_outputs). */
#ifndef HB_DEVIATION_CHECK_H
#define HB_DEVIATION_CHECK_H

#include "bench/candidate/participant.h"
#include "bench/core/rng.h"
#include "bench/result/deviation_rule.h"
#include "verify/check_failure.h"
#include "verify/compare_kernels.h"
#include "verify/problem.h"

typedef struct hb_check_result {
    int passed;
    hb_rule_figures figures;                     /* the candidate's, under both rules */
    hb_deviation deviation[HB_MAX_PARTICIPANTS]; /* per participant vs the fp32 reference (the paper's rule) */
    hb_excess excess[HB_MAX_PARTICIPANTS];       /* per participant vs the fp64 reference */
    hb_check_failure failure;                    /* why the candidate failed */
} hb_check_result;

typedef struct hb_judge_setup {
    hb_deviation_rule rule; /* the one that decides */
    hb_acc_class acc;       /* the run's class: the analytic tolerance's precision */
    const char *check;      /* the check name a failure records (deviation, spot-check, post-timing) */
} hb_judge_setup;

/* Judges the outputs in ios[i].c, each participant's last call on the
 * problem's current inputs (already collected).  A candidate verdict
 * (incorrect) is in out->failure with passed = 0 and HB_ERR_INCORRECT
 * returned; a baseline with NaN/Inf is the harness's error (HB_ERR_CUDA). */
hb_status hb_judge_outputs(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                           hb_problem *problem, const hb_judge_setup *setup, cudaStream_t stream,
                           hb_check_result *out);

/* One checked call of every participant on the problem's current inputs,
 * in an order shuffled with `rng` (as a timed round), then the judgement. */
hb_status hb_check_deviation(hb_participant *const *participants, size_t count, hb_problem *problem,
                             const hb_judge_setup *setup, hb_rng *rng, cudaStream_t stream, hb_check_result *out);

#endif
