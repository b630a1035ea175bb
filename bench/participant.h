/* A participant: anything the harness times on the same product — a
 * baseline library call or the candidate kernel.  The timing loop sees only
 * this interface, so new baselines (cuBLASLt) plug in without touching it. */
#ifndef HB_PARTICIPANT_H
#define HB_PARTICIPANT_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "gemm_types.h"
#include "hb_status.h"

typedef struct hb_participant hb_participant;

/* 0xFFFF is a NaN in IEEE binary16: an element a kernel never writes stays NaN. */
#define HB_NAN_FILL_BYTE 0xFF

typedef struct hb_participant_ops {
    /* Untimed: called after the inputs change (e.g. the candidate pads them). */
    hb_status (*prepare)(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream);
    /* Untimed: NaN-fill every output buffer it writes (HB_NAN_FILL_BYTE),
     * so an element it leaves unwritten is caught by the checks. */
    hb_status (*poison)(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream);
    /* Timed: enqueue exactly one product on `stream`, writing io->c. */
    hb_status (*launch)(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream);
    /* Untimed: make io->c hold the logical M x N result (e.g. un-pad). */
    hb_status (*collect)(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream);
    void (*destroy)(hb_participant *self);
} hb_participant_ops;

/* The algorithm a cuBLASLt baseline runs, as cublasLtMatmulAlgoConfigGetAttribute
 * reports it, and how it was chosen (protocol section 2: the results name it). */
typedef struct hb_algo_record {
    int known;                    /* 1 for cuBLASLt baselines; 0: nothing below applies */
    int id, splitk;
    unsigned swizzle, custom;
    char tile[16], stages[16], reduction[16], inner[16], cluster[16]; /* cublasLt.h enum names */
    size_t needed_workspace_bytes; /* what the heuristic says the algorithm needs */
    char source[16];              /* "heuristic" (result 0), "search" (autotuned now), "cache" (an earlier search) */
    int rank;                     /* its index among this run's heuristic results, -1 if not among them */
    int heuristic_results;        /* results the heuristic returned (up to 100) */
    double search_s;              /* wall time of the autotune search that chose it, seconds (from the cache: that search's) */
    double search_median_us;      /* its median time in that search, microseconds */
    double setup_s;               /* this run's set-up of the baseline (query, search or cache lookup), seconds */
} hb_algo_record;

/* 1 if a search chose the algorithm (in this run or, through the cache, an earlier one). */
static inline int hb_algo_from_search(const hb_algo_record *a)
{
    return a->source[0] == 's' || a->source[0] == 'c'; /* "search" or "cache" */
}

/* What the results record about how a participant computes. */
typedef struct hb_participant_desc {
    char compute_type[40];   /* e.g. CUBLAS_COMPUTE_32F, or the candidate's claimed class */
    char scale_type[24];     /* e.g. CUDA_R_32F */
    char algorithm[64];      /* e.g. CUBLAS_GEMM_DEFAULT_TENSOR_OP, or the cubin entry */
    size_t workspace_bytes;
    hb_b_layout b_layout;
    long padded[3];          /* M, N, K the kernel sees */
    hb_algo_record algo;     /* cuBLASLt baselines' chosen algorithm */
} hb_participant_desc;

struct hb_participant {
    char name[64];           /* "torch", "cublas-nn", "cublas-tn", "candidate" */
    int is_candidate;
    int bounds_deviation;    /* 1: its deviation counts toward the correctness bound (cuBLAS baselines) */
    const hb_participant_ops *ops;
    void *impl;
    hb_participant_desc desc;
};

#endif
