#include "baselines/acc_class_types.h"

#include <stdint.h>

static const float one_f32 = 1.0f, zero_f32 = 0.0f;
static const uint16_t one_f16 = 0x3C00, zero_f16 = 0x0000; /* IEEE binary16 bit patterns */

cublasComputeType_t hb_compute_type_of(hb_acc_class acc)
{
    return acc == HB_ACC_FP16 ? CUBLAS_COMPUTE_16F : CUBLAS_COMPUTE_32F;
}

cudaDataType_t hb_scale_type_of(hb_acc_class acc)
{
    return acc == HB_ACC_FP16 ? CUDA_R_16F : CUDA_R_32F;
}

const char *hb_compute_type_name(hb_acc_class acc)
{
    return acc == HB_ACC_FP16 ? "CUBLAS_COMPUTE_16F" : "CUBLAS_COMPUTE_32F";
}

const char *hb_scale_type_name(hb_acc_class acc)
{
    return acc == HB_ACC_FP16 ? "CUDA_R_16F" : "CUDA_R_32F";
}

const void *hb_scale_one(hb_acc_class acc)
{
    return acc == HB_ACC_FP16 ? (const void *)&one_f16 : (const void *)&one_f32;
}

const void *hb_scale_zero(hb_acc_class acc)
{
    return acc == HB_ACC_FP16 ? (const void *)&zero_f16 : (const void *)&zero_f32;
}
