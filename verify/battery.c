#include "verify/battery.h"

#include <stdio.h>
#include <string.h>

#include "bench/core/clock.h"
#include "bench/core/heartbeat.h"
#include "bench/gpu/cuda_check.h"
#include "verify/checked_call.h"
#include "verify/compare_kernels.h"

static hb_status exact_mismatch(const hb_exact_compare *cmp, const hb_gemm_io *io, const char *check, int rep,
                                hb_check_failure *failure)
{
    long row = (long)(cmp->first_index / (uint64_t)io->n), col = (long)(cmp->first_index % (uint64_t)io->n);
    const char *inputs = strcmp(check, HB_CHECK_EXACT_SIGNED) ? "{0,1}" : "{-1,0,1}";
    if (cmp->non_finite)
        return hb_check_failed(failure, HB_ERR_INCORRECT, HB_CHECK_NON_FINITE,
                               "candidate wrote %llu NaN/Inf or unwritten outputs on %s inputs (first at "
                               "C[%ld][%ld], expected %g)",
                               (unsigned long long)cmp->non_finite, inputs, row, col, cmp->first_reference);
    return hb_check_failed(failure, HB_ERR_INCORRECT, check,
                           "C[%ld][%ld] = %g, exact value %g (%llu of %llu compared outputs differ; %s inputs, "
                           "repetition %d)",
                           row, col, cmp->first_value, cmp->first_reference, (unsigned long long)cmp->mismatches,
                           (unsigned long long)cmp->compared, inputs, rep + 1);
}

/* One repetition: fresh inputs, the candidate's checked call, exact compare.
 * The reference is computed after the call: while the candidate runs, no
 * product of these inputs exists anywhere in device memory for it to find
 * and copy (docs/methodology.md, "Threat model"). */
static hb_status exact_rep(hb_participant *cand, size_t ci, hb_problem *problem, hb_input_kind kind, int rep,
                           hb_rng *rng, cudaStream_t stream, hb_exact_record *record, hb_check_failure *failure)
{
    const hb_gemm_io *in = &problem->inputs;
    const char *check = kind == HB_INPUTS_SIGNED ? HB_CHECK_EXACT_SIGNED : HB_CHECK_EXACT_BINARY;
    HB_TRY(hb_problem_fill(problem, kind, hb_rng_next(rng), stream));
    HB_TRY(cand->ops->prepare(cand, &problem->ios[ci], stream));
    HB_TRY(hb_checked_call(cand, &problem->ios[ci], in, stream, failure));
    /* fp32 sums of integers below 2^24 are exact: this reference is the exact product. */
    HB_CUDA_TRY(hb_reference_gemm_f32(in->a, in->b, problem->reference, in->m, in->n, in->k, stream));
    hb_exact_compare cmp;
    const size_t elements = (size_t)in->m * (size_t)in->n;
    HB_CUDA_TRY(hb_compare_exact_f16(problem->ios[ci].c, problem->reference, elements, HB_EXACT_LIMIT, &cmp, stream));
    record->reps++;
    record->compared += cmp.compared;
    record->ignored += elements - cmp.compared;
    hb_heartbeat();
    if (cmp.mismatches)
        return exact_mismatch(&cmp, in, check, rep, failure);
    return HB_OK;
}

static hb_status exact_check(hb_participant *cand, size_t ci, hb_problem *problem, hb_input_kind kind,
                             const hb_battery_options *options, hb_rng *rng, cudaStream_t stream,
                             hb_exact_record *record, hb_check_failure *failure)
{
    record->ran = 1;
    const double start = hb_now_s();
    for (int rep = 0; rep < options->exact_reps; rep++) {
        if (rep > 0 && hb_now_s() - start >= options->exact_time_s)
            break;
        HB_TRY(exact_rep(cand, ci, problem, kind, rep, rng, stream, record, failure));
    }
    return HB_OK;
}

/* One deviation check on fresh N(0,1) inputs, drawn as a timed round's are;
 * its figures join the configuration's record. */
static hb_status deviation_on_fresh_inputs(hb_participant *const *parts, size_t count, hb_problem *problem,
                                           const hb_judge_setup *setup, hb_rng *rng, cudaStream_t stream,
                                           hb_deviation_record *record, hb_check_result *check,
                                           hb_check_failure *failure)
{
    HB_TRY(hb_problem_fill(problem, HB_INPUTS_NORMAL, hb_rng_next(rng), stream));
    hb_status status = hb_check_deviation(parts, count, problem, setup, rng, stream, check);
    if (status == HB_OK || (status == HB_ERR_INCORRECT && !strcmp(check->failure.check, setup->check)))
        hb_deviation_record_add(record, &check->figures);
    if (status == HB_ERR_INCORRECT || status == HB_ERR_CANDIDATE_FAULT)
        *failure = check->failure;
    hb_heartbeat();
    return status;
}

/* --deviation-reps checks; `first` keeps the first one's figures for every participant. */
static hb_status deviation_reps(hb_participant *const *parts, size_t count, hb_problem *problem,
                                const hb_battery_options *options, hb_rng *rng, cudaStream_t stream,
                                hb_battery_record *record, hb_check_result *first, hb_check_failure *failure)
{
    static hb_check_result later; /* large: keep it off the stack */
    const hb_judge_setup setup = {options->rule, options->acc, HB_CHECK_DEVIATION};
    for (int rep = 0; rep < options->deviation_reps; rep++) {
        hb_check_result *check = rep == 0 ? first : &later;
        hb_status status = deviation_on_fresh_inputs(parts, count, problem, &setup, rng, stream, &record->deviation,
                                                     check, failure);
        if (rep == 0)
            record->deviation_ran = status == HB_OK || (status == HB_ERR_INCORRECT &&
                                                        !strcmp(failure->check, HB_CHECK_DEVIATION));
        HB_TRY(status);
    }
    return HB_OK;
}

hb_status hb_battery_before_timing(hb_participant *const *parts, size_t count, size_t cand, hb_problem *problem,
                                   const hb_battery_options *options, hb_rng *rng, cudaStream_t stream,
                                   hb_battery_record *record, hb_check_result *check, hb_check_failure *failure)
{
    const double start = hb_now_s();
    memset(record, 0, sizeof *record);
    record->deviation.rule = (int)options->rule;
    hb_status status = exact_check(parts[cand], cand, problem, HB_INPUTS_BINARY, options, rng, stream,
                                   &record->exact_binary, failure);
    if (status == HB_OK && problem->inputs.k <= HB_SIGNED_MAX_K)
        status = exact_check(parts[cand], cand, problem, HB_INPUTS_SIGNED, options, rng, stream,
                             &record->exact_signed, failure);
    if (status == HB_OK)
        status = deviation_reps(parts, count, problem, options, rng, stream, record, check, failure);
    if (status == HB_OK)
        status = hb_crosscheck_reference(&problem->inputs, problem->reference, problem->ref64.c,
                                         HB_CROSSCHECK_SAMPLES, rng, &record->crosscheck);
    record->seconds_before = hb_now_s() - start;
    return status;
}

hb_status hb_battery_after_timing(hb_participant *const *parts, size_t count, hb_problem *problem,
                                  const hb_battery_options *options, hb_rng *rng, cudaStream_t stream,
                                  hb_battery_record *record, hb_check_failure *failure)
{
    const double start = hb_now_s();
    static hb_check_result check; /* large: keep it off the stack */
    const hb_judge_setup setup = {options->rule, options->acc, HB_CHECK_POST_TIMING};
    hb_status status = deviation_on_fresh_inputs(parts, count, problem, &setup, rng, stream, &record->deviation,
                                                 &check, failure);
    record->post_ran = 1;
    record->seconds_after = hb_now_s() - start;
    return status;
}
