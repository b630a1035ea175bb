/* Vocabulary shared by candidates, baselines and checks. */
#ifndef HB_GEMM_TYPES_H
#define HB_GEMM_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* Which copy of B a kernel reads: B (K x N row-major) or B_col (the same
 * matrix column-major, i.e. N x K row-major).  Protocol section 2. */
typedef enum hb_b_layout { HB_B_ROW, HB_B_COL } hb_b_layout;

/* Accumulator class of a run (docs/methodology.md, "Participants"). */
typedef enum hb_acc_class { HB_ACC_FP32, HB_ACC_FP16 } hb_acc_class;

const char *hb_b_layout_name(hb_b_layout layout);
const char *hb_acc_class_name(hb_acc_class acc);

/* Device buffers of one problem: every participant reads the same A, B and
 * B_col and writes its own C.  fp16 elements are stored as uint16_t on the
 * host side, which never does arithmetic on them. */
typedef struct hb_gemm_io {
    const uint16_t *a;     /* M x K row-major */
    const uint16_t *b;     /* K x N row-major */
    const uint16_t *b_col; /* K x N column-major */
    uint16_t *c;           /* M x N row-major */
    long m, n, k;
} hb_gemm_io;

/* Largest accepted M, N or K: keeps every index of a 16-bit-element matrix
 * inside a signed 32-bit kernel parameter's reach per dimension. */
#define HB_MAX_DIM 262144L

/* One configuration: the product C (M x N) = A (M x K) B (K x N). */
typedef struct hb_mnk {
    long m, n, k;
} hb_mnk;

/* 2*M*N*K: the floating-point operations of one product. */
double hb_gemm_flops(long m, long n, long k);

#endif
