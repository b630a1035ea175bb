/* What builds an imported candidate: the target architecture, nvcc and
 * cuobjdump with their version, and the importer's data next to the binary:
 * a format's shim and adapter (bench/import/import_format.h), the launch
 * recorder (make copies them into build/import/). */
#ifndef HB_TOOLCHAIN_H
#define HB_TOOLCHAIN_H

#include <stddef.h>

#include "bench/candidate/manifest.h"
#include "bench/core/status.h"

typedef struct hb_target_arch {
    int sm;        /* 10*major + minor */
    int specific;  /* 1: the architecture-specific target ("sm_90a"), whose code runs on that one architecture */
    char name[16]; /* "sm_90a" */
} hb_target_arch;

/* "sm_80", "sm_86", "sm_90a", ... ; HB_ERR_USAGE with the accepted form otherwise. */
hb_status hb_target_arch_parse(const char *text, hb_target_arch *out);
/* The target for a GPU of compute capability `sm`: sm_90a on Hopper (its
 * wgmma and setmaxnreg exist only there), sm_100a on Blackwell, sm_XY else. */
void hb_target_arch_for_gpu(int sm, hb_target_arch *out);

typedef struct hb_toolchain {
    char nvcc[HB_PATH_MAX - 32];
    char cuobjdump[HB_PATH_MAX - 32];
    char version[128]; /* nvcc --version's last line: "Build cuda_13.0.r13.0/compiler.36424714_0" */
} hb_toolchain;

/* `nvcc` (--nvcc PATH) when given, else $CUDA_HOME/bin/nvcc, else
 * /usr/local/cuda/bin/nvcc; cuobjdump beside it.  HB_ERR_BAD_INPUT naming
 * what was tried when none is there.  Another installed toolkit builds
 * files written for it (CUDA-L2's for CUDA 12). */
hb_status hb_toolchain_find(const char *nvcc, hb_toolchain *out);

typedef struct hb_import_data {
    char shim[HB_PATH_MAX - 64];     /* the format's shim, an include folder (CUDA-L2's torch_shim) */
    char adapter[HB_PATH_MAX - 64];  /* the format's adapter (cuda_l2_adapter.cu) */
    char include[HB_PATH_MAX - 64];  /* holds bench/candidate/hgemm_launch.h */
    char recorder[HB_PATH_MAX - 64]; /* hgemm-l2-record */
    char root[HB_PATH_MAX - 128];
} hb_import_data;

/* $HB_IMPORT_DATA, else import/ beside the running binary, with the
 * format's `shim` folder and `adapter` file in it.  HB_ERR_BAD_INPUT naming
 * what is missing (was make run?). */
hb_status hb_import_data_find(const char *shim, const char *adapter, hb_import_data *out);

#endif
