/* The values of a cubin kernel's parameters at one call, in the order its
 * list names them (bench/result/kernel_params.h): the padded buffers and
 * dimensions of this call, the workspace, the constants.  What
 * cuLaunchKernel takes as kernelParams.  No allocation: a launch fills one on
 * its stack, so the timed path costs a loop over at most 16 entries. */
#ifndef HB_KERNEL_ARGS_H
#define HB_KERNEL_ARGS_H

#include "bench/core/gemm_types.h"
#include "bench/result/kernel_params.h"

/* One parameter's value: a pointer, an int or a long long, each at the
 * union's start, where cuLaunchKernel reads the parameter's size. */
typedef union hb_kernel_arg {
    const void *pointer;
    int32_t i32;
    long long i64;
} hb_kernel_arg;

typedef struct hb_kernel_args {
    hb_kernel_arg values[HB_KERNEL_PARAMS_MAX];
    void *pointers[HB_KERNEL_PARAMS_MAX]; /* pointers[i] = &values[i]: cuLaunchKernel's kernelParams */
} hb_kernel_args;

/* The value `param` has in a call on `io` (its padded buffers and dimensions)
 * with `workspace`. */
hb_kernel_arg hb_kernel_arg_value(const hb_kernel_param *param, const hb_gemm_io *io, void *workspace);

/* Every value of `params` (a full list: hb_kernel_params_contract's when a
 * manifest gives none) for one call into `out`. */
void hb_kernel_args_fill(const hb_kernel_params *params, const hb_gemm_io *io, void *workspace, hb_kernel_args *out);

#endif
