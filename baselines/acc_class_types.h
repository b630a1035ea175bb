/* What an accumulator class means to cuBLAS and cuBLASLt (docs/methodology.md,
 * "Participants"): its compute type, its scale type, and alpha = 1 / beta = 0 stored in
 * that scale type.  The two go together: cuBLAS 13 rejects a COMPUTE_16F
 * descriptor with an fp32 scale type. */
#ifndef HB_ACC_CLASS_TYPES_H
#define HB_ACC_CLASS_TYPES_H

#include <cublas_api.h>

#include "bench/core/gemm_types.h"

cublasComputeType_t hb_compute_type_of(hb_acc_class acc);
cudaDataType_t hb_scale_type_of(hb_acc_class acc);

/* The names the results print, e.g. "CUBLAS_COMPUTE_32F", "CUDA_R_32F". */
const char *hb_compute_type_name(hb_acc_class acc);
const char *hb_scale_type_name(hb_acc_class acc);

/* Host pointers to 1 and 0 in the class's scale type (float or fp16 bits). */
const void *hb_scale_one(hb_acc_class acc);
const void *hb_scale_zero(hb_acc_class acc);

#endif
