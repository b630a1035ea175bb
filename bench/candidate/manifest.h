/* Candidate manifest: how to launch a kernel from a cubin (docs/candidates.md).
 * A JSON file read with jansson; unknown keys are errors so that a typo such
 * as "dynamic_smem" cannot silently launch with 0 bytes. */
#ifndef HB_MANIFEST_H
#define HB_MANIFEST_H

#include <limits.h>
#include <stddef.h>

#include "bench/candidate/dim_expr.h"
#include "bench/core/gemm_types.h"
#include "bench/core/status.h"

#define HB_MANIFEST_FORMAT "hgemm-bench-candidate/1"
#define HB_MANIFEST_MAX_CUBINS 8
#define HB_PATH_MAX 4096

typedef struct hb_cubin_ref {
    int sm;                  /* compute capability as 10*major+minor; 0 = any (one file for all) */
    char path[HB_PATH_MAX];  /* resolved against the manifest's folder */
} hb_cubin_ref;

typedef struct hb_manifest {
    char path[HB_PATH_MAX];  /* the manifest file itself */
    char name[128];
    int n_cubins;
    hb_cubin_ref cubins[HB_MANIFEST_MAX_CUBINS];
    char entry[256];
    hb_dim_expr grid[3];
    unsigned block[3];
    size_t dynamic_smem_bytes;
    hb_b_layout b_layout;
    hb_acc_class accumulator;
    long pad[3];             /* multiples M, N, K are rounded up to (1 = none) */
    int pad_inputs;          /* 1: the harness pads; 0: dimensions must already be multiples */
    hb_dim_expr workspace_bytes;
} hb_manifest;

/* Reads and validates a manifest file. HB_ERR_BAD_INPUT with a message that
 * names the file and the field on any problem. */
hb_status hb_manifest_load(const char *path, hb_manifest *out);

/* Same, from text; `origin` names the source in messages and its folder is
 * where relative cubin paths are resolved. */
hb_status hb_manifest_parse(const char *json_text, const char *origin, hb_manifest *out);

/* The cubin for compute capability `sm`, or NULL if the manifest has none. */
const hb_cubin_ref *hb_manifest_cubin_for(const hb_manifest *manifest, int sm);

/* Padded dimensions the kernel sees; HB_ERR_UNSUPPORTED (with reason) when
 * pad_inputs is 0 and a dimension is not a multiple. */
hb_status hb_manifest_padded_dims(const hb_manifest *manifest, long m, long n, long k, long padded[3]);

#endif
