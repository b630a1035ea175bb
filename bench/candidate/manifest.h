/* Candidate manifest: how to run a candidate (docs/candidates.md).  Two
 * kinds: a kernel in a cubin that the harness launches as the manifest says
 * (grid, block, shared memory), or a launcher, a shared library whose own
 * host code launches (docs/launchers.md).  A JSON file read with jansson;
 * unknown keys, and keys of the other kind, are errors so that a typo such
 * as "dynamic_smem" cannot silently launch with 0 bytes. */
#ifndef HB_MANIFEST_H
#define HB_MANIFEST_H

#include <limits.h>
#include <stddef.h>

#include "bench/candidate/dim_expr.h"
#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/result/kernel_params.h"

#define HB_MANIFEST_FORMAT "hgemm-bench-candidate/1"
#define HB_MANIFEST_MAX_FILES 8
#define HB_PATH_MAX 4096

/* "kind": what the files are and who launches. */
typedef enum hb_candidate_kind {
    HB_CANDIDATE_CUBIN,    /* "cubin" (the default): a kernel the harness launches */
    HB_CANDIDATE_LAUNCHER  /* "launcher": a shared library with its own host code (bench/candidate/hgemm_launch.h) */
} hb_candidate_kind;

/* "cubin", "launcher". */
const char *hb_candidate_kind_name(hb_candidate_kind kind);

/* A file for one architecture: a cubin, or a launcher's library. */
typedef struct hb_arch_file {
    int sm;                  /* compute capability as 10*major+minor; 0 = any (one file for all) */
    char path[HB_PATH_MAX];  /* resolved against the manifest's folder */
} hb_arch_file;

typedef struct hb_manifest {
    char path[HB_PATH_MAX];  /* the manifest file itself */
    char name[128];
    hb_candidate_kind kind;
    int n_files;             /* "cubin" (kind cubin) or "library" (kind launcher) */
    hb_arch_file files[HB_MANIFEST_MAX_FILES];
    char entry[8192];        /* the kernel (cubin; a mangled C++ name too) or the exported function (launcher) */
    hb_dim_expr grid[3];     /* grid, block, dynamic_smem_bytes: kind cubin only (0 for a launcher) */
    unsigned block[3];
    size_t dynamic_smem_bytes;
    hb_b_layout b_layout;
    hb_acc_class accumulator;
    long pad[3];             /* multiples M, N, K are rounded up to (1 = none) */
    int pad_inputs;          /* 1: the harness pads; 0: dimensions must already be multiples */
    hb_dim_expr workspace_bytes;
    hb_kernel_params params; /* "params": kind cubin only; n = 0 when not given (the contract's list) */
} hb_manifest;

/* Reads and validates a manifest file. HB_ERR_BAD_INPUT with a message that
 * names the file and the field on any problem. */
hb_status hb_manifest_load(const char *path, hb_manifest *out);

/* Same, from text; `origin` names the source in messages and its folder is
 * where relative file paths are resolved. */
hb_status hb_manifest_parse(const char *json_text, const char *origin, hb_manifest *out);

/* The file (cubin or library) for compute capability `sm`, or NULL if the
 * manifest has none. */
const hb_arch_file *hb_manifest_file_for(const hb_manifest *manifest, int sm);

/* "sm_80, sm_90": the architectures the manifest has files for (a single
 * file for any architecture shows as "any"). */
void hb_manifest_list_archs(const hb_manifest *manifest, char *out, size_t size);

/* Padded dimensions the kernel sees; HB_ERR_UNSUPPORTED (with reason) when
 * pad_inputs is 0 and a dimension is not a multiple. */
hb_status hb_manifest_padded_dims(const hb_manifest *manifest, long m, long n, long k, long padded[3]);

#endif
