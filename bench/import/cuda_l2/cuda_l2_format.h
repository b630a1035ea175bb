/* CUDA-L2's published kernel files as an import format (docs/importer.md):
 * kernels/<gpu>_<class>/M_N_K.cu, each ending in a torch entry
 * `void cuda_l2_<gpu>_<fp32|fp16>(torch::Tensor a, torch::Tensor b,
 * torch::Tensor b_col_major, torch::Tensor c)`, built with CUDA-L2's flags
 * against the torch shim (torch_shim/) and called through the adapter
 * (cuda_l2_adapter.cu); the published sets and their results CSVs for
 * `reproduce` (docs/reproduce-cuda-l2.md).  Its row of
 * bench/import/import_formats.c. */
#ifndef HB_CUDA_L2_FORMAT_H
#define HB_CUDA_L2_FORMAT_H

#include "bench/import/import_format.h"

extern const hb_import_format hb_cuda_l2_format;

/* The flags of CUDA-L2's build (tools/utils.py, get_build_cuda_cflags), in its order; NULL-terminated. */
extern const char *const hb_cuda_l2_nvcc_flags[];

/* The CUTLASS version CUDA-L2's published sets were written against. */
#define HB_CUDA_L2_CUTLASS_VERSION "4.2.1"

#endif
