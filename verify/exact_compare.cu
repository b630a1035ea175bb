// Exact comparison of an fp16 output with an integer-valued fp32 reference
// (paper 2.3.2; docs/methodology.md, "Correctness before timing").  On {0,1} or {-1,0,1} inputs every exact
// output of magnitude below 2048 is an integer that fp16 represents
// exactly, so a correct kernel of either accumulator class reproduces it
// bit for bit; larger outputs are not compared.
#include <cuda_fp16.h>

#include "verify/compare_kernels.h"

namespace {

// Counters in device memory, filled by atomics.
struct exact_counters {
    unsigned long long compared, mismatches, non_finite, first_index;
};

__global__ void exact_compare_kernel(const __half *c, const float *ref, size_t n, float limit, exact_counters *out)
{
    unsigned long long compared = 0, mismatches = 0, non_finite = 0, first = ~0ull;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float value = __half2float(c[i]);
        float expected = ref[i];
        bool finite = isfinite(value);
        bool in_range = fabsf(expected) < limit;
        non_finite += !finite;
        compared += in_range;
        // NaN compares unequal, so an unwritten (NaN-filled) output mismatches.
        bool bad = !finite || (in_range && value != expected);
        mismatches += bad;
        if (bad && i < first) first = i;
    }
    atomicAdd(&out->compared, compared);
    if (mismatches) atomicAdd(&out->mismatches, mismatches);
    if (non_finite) atomicAdd(&out->non_finite, non_finite);
    if (first != ~0ull) atomicMin(&out->first_index, first);
}

}  // namespace

extern "C" cudaError_t hb_compare_exact_f16(const uint16_t *c, const float *ref, size_t n, float limit,
                                            hb_exact_compare *out, cudaStream_t stream)
{
    exact_counters *counters = nullptr;
    cudaError_t err = cudaMalloc(&counters, sizeof *counters);
    if (err != cudaSuccess) return err;
    exact_counters host = {0, 0, 0, ~0ull};
    err = cudaMemcpyAsync(counters, &host, sizeof host, cudaMemcpyHostToDevice, stream);
    if (err == cudaSuccess) {
        const int threads = 256;
        size_t blocks = (n + threads - 1) / threads;
        if (blocks > 8192) blocks = 8192;
        exact_compare_kernel<<<(unsigned)blocks, threads, 0, stream>>>(reinterpret_cast<const __half *>(c), ref, n,
                                                                      limit, counters);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess) err = cudaMemcpyAsync(&host, counters, sizeof host, cudaMemcpyDeviceToHost, stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    cudaError_t free_err = cudaFree(counters);
    if (err != cudaSuccess) return err;
    if (free_err != cudaSuccess) return free_err;
    out->compared = host.compared;
    out->mismatches = host.mismatches;
    out->non_finite = host.non_finite;
    out->first_index = host.first_index;
    out->first_value = 0;
    out->first_reference = 0;
    if (host.mismatches == 0) return cudaSuccess;
    __half value_h;
    float reference = 0;
    err = cudaMemcpy(&value_h, reinterpret_cast<const __half *>(c) + host.first_index, sizeof value_h,
                     cudaMemcpyDeviceToHost);
    if (err == cudaSuccess) err = cudaMemcpy(&reference, ref + host.first_index, sizeof reference, cudaMemcpyDeviceToHost);
    out->first_value = __half2float(value_h);
    out->first_reference = reference;
    return err;
}
