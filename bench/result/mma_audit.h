/* A static audit of a candidate's accumulators (docs/validation.md,
 * "Accumulator audit"): which tensor-core instructions its SASS holds, by
 * the type they accumulate in, read from `cuobjdump -sass` text.  HMMA
 * (mma.sync, sm_80 on) and HGMMA (wgmma, sm_90a) name their accumulator
 * after the shape: HMMA.16816.F32, HMMA.16816.F32.BF16, HGMMA.64x128x16.F16.
 * A kernel with no MMA at all computes on the FMA pipes: HFMA2 accumulates
 * in fp16, FFMA in fp32, DFMA in fp64 (with their adds and multiplies).
 * Counts are of instructions in the code, not of instructions executed.  Plain data and text: no CUDA, testable on the CPU
 * (bench/import/sass_audit.h runs cuobjdump). */
#ifndef HB_MMA_AUDIT_H
#define HB_MMA_AUDIT_H

#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/result/conduct.h"

/* The instructions counted, in the order the cell lists them. */
typedef enum hb_mma_kind {
    HB_MMA_HMMA_F32,  /* "hmma.f32": HMMA.<shape>.F32[.BF16|.TF32] */
    HB_MMA_HMMA_F16,  /* "hmma.f16": HMMA.<shape>.F16 */
    HB_MMA_HGMMA_F32, /* "hgmma.f32": HGMMA.<MxNxK>.F32[...] */
    HB_MMA_HGMMA_F16, /* "hgmma.f16": HGMMA.<MxNxK>.F16 */
    HB_SIMT_F16,      /* "simt.f16": HFMA2, HADD2, HMUL2 (fp16 pairs) */
    HB_SIMT_F32,      /* "simt.f32": FFMA, FADD, FMUL */
    HB_SIMT_F64,      /* "simt.f64": DFMA, DADD, DMUL */
    HB_MMA_N_KINDS
} hb_mma_kind;

/* The cell's longest text: the class and every kind with a 19-digit count. */
#define HB_MMA_CELL 256

typedef struct hb_mma_audit {
    int known;                    /* 1: the SASS was read; 0: unknown (no cuobjdump, not a GPU binary, ...) */
    long count[HB_MMA_N_KINDS];   /* instructions of each kind in the file, every kernel and architecture */
} hb_mma_audit;

/* "hmma.f32", "hmma.f16", ... */
const char *hb_mma_kind_name(hb_mma_kind kind);

/* Counts the instruction of one line of `cuobjdump -sass` text (other lines:
 * headers, function names, the encodings' second lines, count nothing). */
void hb_mma_audit_add_line(hb_mma_audit *audit, const char *line);

/* The whole class, from the counts: "f32" (only fp32-accumulating MMA),
 * "f16" (only fp16), "f16+f32" (both); with no MMA at all "simt-" and the
 * SIMT types found joined by "+" ("simt-f32", "simt-f16+f32", "simt-f64"),
 * or "none"; "unknown" when not known.  SIMT arithmetic beside MMA (an
 * epilogue's scaling) does not change an MMA class. */
const char *hb_mma_audit_class(const hb_mma_audit *audit);

/* The mma_accumulators cell: the class, then ";kind=count" for each kind
 * counted at least once, in hb_mma_kind's order: "f16;hmma.f16=64;simt.f32=2",
 * "simt-f32;simt.f32=512", "none", "unknown". */
void hb_mma_audit_format(const hb_mma_audit *audit, char *out, size_t size);

/* Reads a cell back (as hb_mma_audit_format writes it); 0 when it is not
 * one, and then *out is unknown.  An empty cell is unknown too. */
int hb_mma_audit_parse_cell(const char *cell, hb_mma_audit *out);

/* 1 when the file holds MMA instructions and every one accumulates in fp16. */
int hb_mma_fp16_only(const hb_mma_audit *audit);

/* 1 when the file holds no MMA and its only arithmetic is fp16 (HFMA2, HADD2, HMUL2). */
int hb_mma_fp16_simt_only(const hb_mma_audit *audit);

/* The static findings of a candidate that claims `claimed`, added to
 * `conduct` with their lines: "fp16-mma-only" when it claims fp32 and its
 * MMA all accumulate in fp16, "fp16-simt-only" when it claims fp32, has no
 * MMA and computes in fp16 alone.  None for an fp16 claim or an unknown audit.
 * Returns the mask of the findings added. */
unsigned hb_mma_findings(const hb_mma_audit *audit, hb_acc_class claimed, hb_conduct *conduct);

#endif
