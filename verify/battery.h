/* The correctness battery (docs/methodology.md, "Correctness before timing"), run on one configuration
 * before any timing (and again after it):
 *   1. exact match on {0,1} inputs, repeated on fresh inputs;
 *   2. the same on {-1,0,1} inputs when K <= 2048;
 *   3. the deviation check on N(0,1) inputs (--deviation-reps times, fresh
 *      inputs each), every participant called as in a timed round, with
 *      both references cross-checked on the host on a sample of outputs;
 * every call under the per-call checks (the same preparation as a timed
 * call, guard bands, input hashes).  After timing: the deviation check
 * again on fresh inputs.
 * The first failure ends the battery: a candidate gets no speedup figure
 * unless every check passed. */
#ifndef HB_BATTERY_H
#define HB_BATTERY_H

#include "bench/result/battery_record.h"
#include "verify/check_failure.h"
#include "verify/deviation_check.h"
#include "verify/problem.h"
#include "verify/reference_crosscheck.h"

#define HB_EXACT_LIMIT 2048.0f /* outputs below this are integers fp16 holds exactly */
#define HB_SIGNED_MAX_K 2048   /* {-1,0,1}: every partial sum is exact in fp16 up to here */
#define HB_CROSSCHECK_SAMPLES 256

typedef struct hb_battery_options {
    int exact_reps;       /* repetitions of each exact-match check on fresh inputs (>= 1) */
    double exact_time_s;  /* stop repeating once this many seconds have passed (after the first) */
    int deviation_reps;   /* deviation checks before timing, each on fresh inputs (>= 1) */
    hb_deviation_rule rule; /* the rule that decides (the other is computed and reported) */
    hb_acc_class acc;     /* the run's accumulator class */
} hb_battery_options;

/* `parts[cand]` is the candidate; the others are baselines.  `check`
 * gets the first deviation check's figures for every participant.  HB_ERR_INCORRECT / HB_ERR_CANDIDATE_FAULT with `failure` set
 * when the candidate fails. */
hb_status hb_battery_before_timing(hb_participant *const *parts, size_t count, size_t cand, hb_problem *problem,
                                   const hb_battery_options *options, hb_rng *rng, cudaStream_t stream,
                                   hb_battery_record *record, hb_check_result *check, hb_check_failure *failure);

/* The deviation check again, on fresh N(0,1) inputs, after timing. */
hb_status hb_battery_after_timing(hb_participant *const *parts, size_t count, hb_problem *problem,
                                  const hb_battery_options *options, hb_rng *rng, cudaStream_t stream,
                                  hb_battery_record *record, hb_check_failure *failure);

#endif
