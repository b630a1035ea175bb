/* Cross-check of the GPU's references on the CPU (docs/methodology.md, "The
 * deviation rule"): a random sample of elements is recomputed from the same
 * fp16 inputs in extended precision; the fp32 reference must lie within the
 * worst-case error of fp32 recursive summation, gamma_K * sum_k |a_k b_k|
 * with gamma_K = K u / (1 - K u), u = 2^-24, and the fp64 one within twice
 * that bound for u = 2^-53.  A reference outside its bound is a harness
 * bug, never a verdict. */
#ifndef HB_REFERENCE_CROSSCHECK_H
#define HB_REFERENCE_CROSSCHECK_H

#include <cuda_runtime_api.h>

#include "bench/core/gemm_types.h"
#include "bench/core/rng.h"
#include "bench/core/status.h"
#include "bench/result/battery_record.h"

/* HB_ERR_INTERNAL, naming the element, when the reference is out of bounds. */
hb_status hb_crosscheck_reference(const hb_gemm_io *inputs, const float *ref32, const double *ref64, int samples,
                                  hb_rng *rng, hb_crosscheck *out);

/* IEEE binary16 bits to double (exact). */
double hb_half_to_double(uint16_t bits);

/* gamma_K * sum_k |a_k b_k|: the bound above, for one output element. */
double hb_fp32_dot_error_bound(long k, double sum_abs_products);

#endif
