/* Checked calls into the CUDA runtime and cuBLAS.  Each macro returns an
 * hb_status from the enclosing function on failure, naming the call, the
 * library's own error name and the file:line. */
#ifndef HB_CUDA_CHECK_H
#define HB_CUDA_CHECK_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "bench/core/diag.h"

const char *hb_cublas_status_name(cublasStatus_t status);

#define HB_CUDA_TRY(call)                                                                      \
    do {                                                                                       \
        cudaError_t hb_err_ = (call);                                                          \
        if (hb_err_ != cudaSuccess)                                                            \
            return hb_fail(HB_ERR_CUDA, "%s failed: %s (%s)", #call, cudaGetErrorName(hb_err_), \
                           cudaGetErrorString(hb_err_));                                       \
    } while (0)

#define HB_CUBLAS_TRY(call)                                                                    \
    do {                                                                                       \
        cublasStatus_t hb_st_ = (call);                                                        \
        if (hb_st_ != CUBLAS_STATUS_SUCCESS)                                                   \
            return hb_fail(HB_ERR_CUDA, "%s failed: %s", #call, hb_cublas_status_name(hb_st_)); \
    } while (0)

#endif
