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

double hb_fp32_dot_error_bound(long k, double sum_abs_products)
{
    const double u = ldexp(1.0, -24); /* unit roundoff of fp32 */
    const double ku = (double)k * u;
    return ku / (1.0 - ku) * sum_abs_products;
}

/* Row `row` of A and column `col` of B (row `col` of B_col): K halves each. */
static hb_status fetch_operands(const hb_gemm_io *in, long row, long col, uint16_t *a_row, uint16_t *b_col)
{
    const size_t bytes = (size_t)in->k * 2u;
    HB_CUDA_TRY(cudaMemcpy(a_row, in->a + (size_t)row * (size_t)in->k, bytes, cudaMemcpyDeviceToHost));
    HB_CUDA_TRY(cudaMemcpy(b_col, in->b_col + (size_t)col * (size_t)in->k, bytes, cudaMemcpyDeviceToHost));
    return HB_OK;
}

static hb_status check_element(const hb_gemm_io *in, const float *ref, long row, long col, uint16_t *a_row,
                               uint16_t *b_col, double *ratio)
{
    HB_TRY(fetch_operands(in, row, col, a_row, b_col));
    float gpu = 0;
    HB_CUDA_TRY(cudaMemcpy(&gpu, ref + (size_t)row * (size_t)in->n + (size_t)col, sizeof gpu, cudaMemcpyDeviceToHost));
    double exact = 0, sum_abs = 0;
    for (long k = 0; k < in->k; k++) {
        double product = hb_half_to_double(a_row[k]) * hb_half_to_double(b_col[k]);
        exact += product; /* products of halves are exact in double; K <= 2^18 sums lose < 2^-30 relative */
        sum_abs += fabs(product);
    }
    const double bound = hb_fp32_dot_error_bound(in->k, sum_abs) + 1e-30;
    *ratio = fabs((double)gpu - exact) / bound;
    if (!(*ratio <= 1.0))
        return hb_fail(HB_ERR_INTERNAL,
                       "the GPU fp32 reference is wrong at C[%ld][%ld]: %.9g, fp64 says %.9g (allowed error %.3g); "
                       "this is a harness bug, please report it",
                       row, col, (double)gpu, exact, bound);
    return HB_OK;
}

hb_status hb_crosscheck_reference(const hb_gemm_io *inputs, const float *ref, int samples, hb_rng *rng,
                                  hb_crosscheck *out)
{
    out->samples = 0;
    out->worst_ratio = 0;
    uint16_t *a_row = malloc((size_t)inputs->k * 2u), *b_col = malloc((size_t)inputs->k * 2u);
    hb_status status = a_row && b_col ? HB_OK : hb_fail(HB_ERR_INTERNAL, "out of host memory for the cross-check");
    for (int i = 0; i < samples && status == HB_OK; i++) {
        long row = (long)hb_rng_below(rng, (uint64_t)inputs->m), col = (long)hb_rng_below(rng, (uint64_t)inputs->n);
        double ratio = 0;
        status = check_element(inputs, ref, row, col, a_row, b_col, &ratio);
        out->worst_ratio = fmax(out->worst_ratio, ratio);
        out->samples++;
    }
    free(a_row);
    free(b_col);
    return status;
}
