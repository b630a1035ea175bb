/* A cubin kernel's parameter list, as a manifest's "params" names it
 * (docs/candidates.md, "Parameter order"): each parameter a role (the padded
 * A, the column-major B, the padded M, the workspace, ...) or a 32-bit integer
 * constant.  Published kernels take their operands in their own order, e.g.
 * (a, b_col_major, c, M, N, K); the list says which of the harness's values
 * goes where, so the harness launches them as they are.  The roles, their
 * names and their sizes are one table, in kernel_params.c; the manifest reader
 * (bench/candidate/manifest.c), the launch (bench/candidate/kernel_args.c)
 * and the importer, which writes manifests, all read it.  Plain data, no CUDA. */
#ifndef HB_KERNEL_PARAMS_H
#define HB_KERNEL_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#define HB_KERNEL_PARAMS_MAX 16   /* entries of a "params" list */
#define HB_KERNEL_PARAMS_TEXT 256 /* room for hb_kernel_params_format's text of any list */

/* What the harness passes in a parameter.  The dimensions are the padded ones
 * the kernel sees (docs/candidates.md, "padding"). */
typedef enum hb_param_role {
    HB_PARAM_A,         /* "a": const half *, the padded A (M x K row-major) */
    HB_PARAM_B,         /* "b": const half *, B (K x N row-major) */
    HB_PARAM_B_COL,     /* "b_col": const half *, B column-major (N x K row-major) */
    HB_PARAM_C,         /* "c": half *, C (M x N row-major) */
    HB_PARAM_M,         /* "m", "n", "k": int */
    HB_PARAM_N,
    HB_PARAM_K,
    HB_PARAM_WORKSPACE, /* "workspace": void *, workspace_bytes of device memory */
    HB_PARAM_M64,       /* "m64", "n64", "k64": long long */
    HB_PARAM_N64,
    HB_PARAM_K64,
    HB_PARAM_CONSTANT,  /* an integer in the list: an int passed as is (a split count, a tile size) */
    HB_N_PARAM_ROLES
} hb_param_role;

typedef struct hb_kernel_param {
    hb_param_role role;
    int32_t constant; /* HB_PARAM_CONSTANT's value; 0 for the others */
} hb_kernel_param;

typedef struct hb_kernel_params {
    int n; /* 0: the manifest gives none, and the kernel takes the contract's (hb_kernel_params_contract) */
    hb_kernel_param list[HB_KERNEL_PARAMS_MAX];
} hb_kernel_params;

/* The role named `name` ("a", "b_col", "m64", ...) into *out; 0 when no role
 * has that name.  A constant has no name: it is written as its value. */
int hb_param_role_find(const char *name, hb_param_role *out);

/* "a", "b_col", ...; "constant" for HB_PARAM_CONSTANT. */
const char *hb_param_role_name(hb_param_role role);

/* Bytes the kernel's parameter takes: 8 for a pointer or a long long, 4 for
 * an int or a constant. */
size_t hb_param_role_size(hb_param_role role);

/* "a, b, b_col, c, m, n, k, workspace, m64, n64, k64": every name, for a
 * message that lists the valid ones. */
void hb_param_role_names(char *out, size_t size);

/* One parameter as a list shows it: its role's name, or a constant's value. */
void hb_kernel_param_text(const hb_kernel_param *param, char *out, size_t size);

/* "(a, b_col, c, m, n, k)", constants as their values: "(a, b, c, m, n, k, 4)". */
void hb_kernel_params_format(const hb_kernel_params *params, char *out, size_t size);

/* How many entries of the list are `role`. */
int hb_kernel_params_count(const hb_kernel_params *params, hb_param_role role);

/* The candidate contract's list, what a kernel takes when its manifest gives
 * no "params": (a, b, b_col, c, m, n, k, workspace). */
const hb_kernel_params *hb_kernel_params_contract(void);

#endif
