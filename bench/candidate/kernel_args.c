#include "bench/candidate/kernel_args.h"

#include <string.h>

hb_kernel_arg hb_kernel_arg_value(const hb_kernel_param *param, const hb_gemm_io *io, void *workspace)
{
    hb_kernel_arg value;
    memset(&value, 0, sizeof value); /* the bytes past an int are not the kernel's, but stay defined */
    switch (param->role) {
    case HB_PARAM_A: value.pointer = io->a; break;
    case HB_PARAM_B: value.pointer = io->b; break;
    case HB_PARAM_B_COL: value.pointer = io->b_col; break;
    case HB_PARAM_C: value.pointer = io->c; break;
    case HB_PARAM_WORKSPACE: value.pointer = workspace; break;
    /* At most HB_MAX_DIM, padded: an int holds it. */
    case HB_PARAM_M: value.i32 = (int32_t)io->m; break;
    case HB_PARAM_N: value.i32 = (int32_t)io->n; break;
    case HB_PARAM_K: value.i32 = (int32_t)io->k; break;
    case HB_PARAM_M64: value.i64 = io->m; break;
    case HB_PARAM_N64: value.i64 = io->n; break;
    case HB_PARAM_K64: value.i64 = io->k; break;
    case HB_PARAM_CONSTANT: value.i32 = param->constant; break;
    case HB_N_PARAM_ROLES: break;
    }
    return value;
}

void hb_kernel_args_fill(const hb_kernel_params *params, const hb_gemm_io *io, void *workspace, hb_kernel_args *out)
{
    for (int i = 0; i < params->n; i++) {
        out->values[i] = hb_kernel_arg_value(&params->list[i], io, workspace);
        out->pointers[i] = &out->values[i];
    }
}
