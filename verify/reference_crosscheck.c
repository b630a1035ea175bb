#include "verify/reference_crosscheck.h"

#include <math.h>
#include <stdlib.h>

#include "bench/gpu/cuda_check.h"

double hb_half_to_double(uint16_t bits)
{
    const int exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
    double value;
    if (exponent == 0)
        value = ldexp(fraction, -24); /* subnormal */
    else if (exponent == 31)
        value = fraction ? NAN : INFINITY;
    else
        value = ldexp(fraction + 1024, exponent - 25);
    return (bits & 0x8000) ? -value : value;
}

/* gamma_K * sum |a_k b_k|, gamma_K = K u / (1 - K u): the worst-case error
 * of recursive summation with unit roundoff u. */
static double dot_error_bound(long k, double sum_abs_products, double u)
{
    const double ku = (double)k * u;
    return ku / (1.0 - ku) * sum_abs_products;
}

double hb_fp32_dot_error_bound(long k, double sum_abs_products)
{
    return dot_error_bound(k, sum_abs_products, ldexp(1.0, -24));
}

/* Row `row` of A and column `col` of B (row `col` of B_col): K halves each. */
static hb_status fetch_operands(const hb_gemm_io *in, long row, long col, uint16_t *a_row, uint16_t *b_col)
{
    const size_t bytes = (size_t)in->k * 2u;
    HB_CUDA_TRY(cudaMemcpy(a_row, in->a + (size_t)row * (size_t)in->k, bytes, cudaMemcpyDeviceToHost));
    HB_CUDA_TRY(cudaMemcpy(b_col, in->b_col + (size_t)col * (size_t)in->k, bytes, cudaMemcpyDeviceToHost));
    return HB_OK;
}

/* |gpu - exact| / bound for one reference; a harness bug when above 1. */
static hb_status judge(const char *which, long row, long col, double gpu, double exact, double bound, double *ratio)
{
    const double r = fabs(gpu - exact) / bound;
    *ratio = fmax(*ratio, r);
    if (!(r <= 1.0))
        return hb_fail(HB_ERR_INTERNAL,
                       "the GPU %s reference is wrong at C[%ld][%ld]: %.17g, the host says %.17g (allowed error "
                       "%.3g); this is a harness bug, please report it",
                       which, row, col, gpu, exact, bound);
    return HB_OK;
}

static hb_status check_element(const hb_gemm_io *in, const float *ref32, const double *ref64, long row, long col,
                               uint16_t *a_row, uint16_t *b_col, double *ratio)
{
    HB_TRY(fetch_operands(in, row, col, a_row, b_col));
    const size_t at = (size_t)row * (size_t)in->n + (size_t)col;
    float gpu32 = 0;
    double gpu64 = 0;
    HB_CUDA_TRY(cudaMemcpy(&gpu32, ref32 + at, sizeof gpu32, cudaMemcpyDeviceToHost));
    HB_CUDA_TRY(cudaMemcpy(&gpu64, ref64 + at, sizeof gpu64, cudaMemcpyDeviceToHost));
    /* Products of halves are exact in double; the sum in long double (64-bit
     * significand on x86-64) errs far below the fp64 reference's own bound. */
    long double exact = 0;
    double sum_abs = 0;
    for (long k = 0; k < in->k; k++) {
        double product = hb_half_to_double(a_row[k]) * hb_half_to_double(b_col[k]);
        exact += product;
        sum_abs += fabs(product);
    }
    *ratio = 0;
    HB_TRY(judge("fp32", row, col, gpu32, (double)exact, hb_fp32_dot_error_bound(in->k, sum_abs) + 1e-30, ratio));
    return judge("fp64", row, col, gpu64, (double)exact, 2 * dot_error_bound(in->k, sum_abs, ldexp(1.0, -53)) + 1e-300,
                 ratio);
}

hb_status hb_crosscheck_reference(const hb_gemm_io *inputs, const float *ref32, const double *ref64, int samples,
                                  hb_rng *rng, hb_crosscheck *out)
{
    out->samples = 0;
    out->worst_ratio = 0;
    uint16_t *a_row = malloc((size_t)inputs->k * 2u), *b_col = malloc((size_t)inputs->k * 2u);
    hb_status status = a_row && b_col ? HB_OK : hb_fail(HB_ERR_INTERNAL, "out of host memory for the cross-check");
    for (int i = 0; i < samples && status == HB_OK; i++) {
        long row = (long)hb_rng_below(rng, (uint64_t)inputs->m), col = (long)hb_rng_below(rng, (uint64_t)inputs->n);
        double ratio = 0;
        status = check_element(inputs, ref32, ref64, row, col, a_row, b_col, &ratio);
        out->worst_ratio = fmax(out->worst_ratio, ratio);
        out->samples++;
    }
    free(a_row);
    free(b_col);
    return status;
}
