// Finds bytes of a device buffer that differ from an expected fill value:
// the guard bands around every buffer a candidate can reach are filled
// with a known byte, and any change is a write out of bounds (docs/methodology.md).
#include "bench/gpu/buffer_check.h"

namespace {

__global__ void byte_scan_kernel(const unsigned char *data, size_t bytes, unsigned char expected,
                                 unsigned long long *counters)
{
    unsigned long long bad = 0, first = ~0ull;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < bytes; i += (size_t)gridDim.x * blockDim.x) {
        if (data[i] != expected) {
            bad++;
            if (i < first) first = i;
        }
    }
    if (bad) {
        atomicAdd(&counters[0], bad);
        atomicMin(&counters[1], first);
    }
}

}  // namespace

extern "C" cudaError_t hb_scan_bytes(const void *data, size_t bytes, unsigned char expected, hb_byte_scan *out,
                                     cudaStream_t stream)
{
    unsigned long long *counters = nullptr;
    cudaError_t err = cudaMalloc(&counters, 2 * sizeof *counters);
    if (err != cudaSuccess) return err;
    unsigned long long host[2] = {0, ~0ull};
    err = cudaMemcpyAsync(counters, host, sizeof host, cudaMemcpyHostToDevice, stream);
    if (err == cudaSuccess) {
        const int threads = 256;
        size_t blocks = (bytes + threads - 1) / threads;
        if (blocks > 1024) blocks = 1024;
        byte_scan_kernel<<<(unsigned)blocks, threads, 0, stream>>>(static_cast<const unsigned char *>(data), bytes,
                                                                   expected, counters);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess) err = cudaMemcpyAsync(host, counters, sizeof host, cudaMemcpyDeviceToHost, stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    cudaError_t free_err = cudaFree(counters);
    out->changed_bytes = host[0];
    out->first_offset = host[1];
    return err != cudaSuccess ? err : free_err;
}
