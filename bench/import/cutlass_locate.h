/* Where the CUTLASS/CuTe headers the kernels include are: --cutlass DIR,
 * else $CUTLASS_DIR, else a pip-installed nvidia-cutlass (its package
 * cutlass_library ships the repository's include/ and tools/ under
 * source/).  And which version they are, from include/cutlass/version.h. */
#ifndef HB_CUTLASS_LOCATE_H
#define HB_CUTLASS_LOCATE_H

#include "bench/candidate/manifest.h"
#include "bench/core/status.h"

typedef struct hb_cutlass {
    char root[HB_PATH_MAX - 64];    /* holds include/cutlass/version.h */
    char include[HB_PATH_MAX];      /* root/include */
    char util_include[HB_PATH_MAX]; /* root/tools/util/include */
    char version[32];               /* "4.2.1" */
    const char *found_by;           /* "--cutlass", "CUTLASS_DIR" or "pip nvidia-cutlass" */
} hb_cutlass;

/* HB_ERR_BAD_INPUT when the named folder (flag or variable) holds no
 * include/cutlass/version.h, or when none of the three finds CUTLASS: the
 * message names all three, and the version `wanted` that `who` ("CUDA-L2's
 * kernels", an import format's) were written for. */
hb_status hb_cutlass_locate(const char *flag_dir, const char *wanted, const char *who, hb_cutlass *out);

#endif
