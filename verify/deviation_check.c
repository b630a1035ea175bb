#include "verify/deviation_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/shuffle.h"
#include "bench/gpu/cuda_check.h"
#include "verify/checked_call.h"

static void element_of(const hb_gemm_io *io, uint64_t index, long *row, long *col)
{
    *row = (long)(index / (uint64_t)io->n);
    *col = (long)(index % (uint64_t)io->n);
}

static hb_status fail_non_finite(const hb_participant *cand, const hb_excess *e, const hb_gemm_io *io,
                                 const char *check, hb_check_failure *failure)
{
    long row, col;
    element_of(io, e->index, &row, &col);
    return hb_check_failed(failure, HB_ERR_INCORRECT, HB_CHECK_NON_FINITE,
                           "%s wrote %llu NaN/Inf or unwritten outputs on random normal inputs (%s; one at "
                           "C[%ld][%ld], expected %.6g)",
                           cand->name, (unsigned long long)e->non_finite, check, row, col, e->reference);
}

static hb_status fail_rule(const hb_participant *cand, const hb_excess *e, const hb_rule_figures *f,
                           const hb_gemm_io *io, const hb_judge_setup *setup, hb_check_failure *failure)
{
    long row, col;
    element_of(io, e->index, &row, &col);
    if (setup->rule == HB_RULE_PAPER)
        return hb_check_failed(failure, HB_ERR_INCORRECT, setup->check,
                               "%s max |C - ref32| = %.6g exceeds the cuBLAS bound %.6g (the paper's rule; the "
                               "ulp-excess rule gives excess %.3g against tolerance %.3g)",
                               cand->name, f->paper_dev, f->paper_bound, f->excess, f->tolerance);
    return hb_check_failed(failure, HB_ERR_INCORRECT, setup->check,
                           "%s C[%ld][%ld] = %.6g lies %.3g beyond the fp16 rounding of the exact %.9g: above the "
                           "tolerance %.3g (= max(fp32 accumulation %.3g, 2 x baseline excess %.3g)), %.1fx; %llu "
                           "elements beyond rounding; paper's rule: %.6g vs bound %.6g (%s)",
                           cand->name, row, col, e->value, f->excess, e->reference, f->tolerance, f->analytic,
                           f->baseline_excess, f->ratio, (unsigned long long)e->beyond, f->paper_dev,
                           f->paper_bound, f->paper_pass ? "pass" : "fail");
}

/* Every participant against both references; the bounds from the bounding baselines. */
static hb_status compare_all(hb_participant *const *parts, const hb_gemm_io *ios, size_t count, hb_problem *problem,
                             cudaStream_t stream, hb_check_result *out, double *baseline_excess,
                             double *paper_bound)
{
    const size_t elements = (size_t)problem->inputs.m * (size_t)problem->inputs.n;
    *baseline_excess = 0;
    *paper_bound = 0;
    for (size_t i = 0; i < count; i++) {
        HB_CUDA_TRY(hb_max_deviation_f16(ios[i].c, problem->reference, elements, &out->deviation[i], stream));
        HB_CUDA_TRY(hb_excess_f16(ios[i].c, problem->ref64.c, elements, &out->excess[i], stream));
        if (!parts[i]->bounds_deviation)
            continue;
        if (out->excess[i].non_finite)
            return hb_fail(HB_ERR_CUDA, "baseline %s produced %llu NaN/Inf outputs on random normal inputs",
                           parts[i]->name, (unsigned long long)out->excess[i].non_finite);
        *baseline_excess = fmax(*baseline_excess, out->excess[i].max);
        *paper_bound = fmax(*paper_bound, out->deviation[i].max_abs);
    }
    return HB_OK;
}

hb_status hb_judge_outputs(hb_participant *const *parts, const hb_gemm_io *ios, size_t count, hb_problem *problem,
                           const hb_judge_setup *setup, cudaStream_t stream, hb_check_result *out)
{
    memset(out, 0, sizeof *out);
    const hb_gemm_io *in = &problem->inputs;
    HB_CUDA_TRY(hb_reference_gemm_f32(in->a, in->b, problem->reference, in->m, in->n, in->k, stream));
    HB_TRY(hb_reference64_compute(&problem->ref64, in, stream));
    double baseline_excess, paper_bound;
    HB_TRY(compare_all(parts, ios, count, problem, stream, out, &baseline_excess, &paper_bound));
    out->passed = 1;
    for (size_t i = 0; i < count; i++) {
        if (!parts[i]->is_candidate)
            continue;
        hb_rule_judge(setup->acc, in->k, problem->ref64.rms, baseline_excess, out->excess[i].max, paper_bound,
                      out->deviation[i].max_abs, &out->figures);
        if (out->excess[i].non_finite) {
            out->passed = 0;
            return fail_non_finite(parts[i], &out->excess[i], in, setup->check, &out->failure);
        }
        if (!hb_rule_passes(setup->rule, &out->figures)) {
            out->passed = 0;
            return fail_rule(parts[i], &out->excess[i], &out->figures, in, setup, &out->failure);
        }
    }
    return HB_OK;
}

hb_status hb_check_deviation(hb_participant *const *parts, size_t count, hb_problem *problem,
                             const hb_judge_setup *setup, hb_rng *rng, cudaStream_t stream, hb_check_result *out)
{
    size_t order[HB_MAX_PARTICIPANTS];
    hb_shuffle_order(rng, order, count);
    for (size_t slot = 0; slot < count; slot++) {
        const size_t i = order[slot];
        hb_status status = hb_checked_call(parts[i], &problem->ios[i], &problem->inputs, stream, &out->failure);
        if (status != HB_OK) {
            out->passed = 0;
            return status;
        }
    }
    return hb_judge_outputs(parts, problem->ios, count, problem, setup, stream, out);
}
