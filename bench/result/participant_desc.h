/* What the results record about each participant of a configuration: how
 * it computes (compute and scale type, algorithm, workspace, B layout, the
 * padded size it sees) and, for a cuBLASLt baseline, the algorithm it runs
 * and how that was chosen.  Plain data, filled by the candidate and baseline
 * layers, read by the writers. */
#ifndef HB_PARTICIPANT_DESC_H
#define HB_PARTICIPANT_DESC_H

#include <stddef.h>

#include "bench/core/gemm_types.h"

/* Participants of one configuration at most: the candidate, seven timed
 * baselines and their -max rows, with room to spare. */
#define HB_MAX_PARTICIPANTS 16

/* The algorithm a cuBLASLt baseline runs, as cublasLtMatmulAlgoConfigGetAttribute
 * reports it, and how it was chosen (the results name it: docs/results.md). */
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
    char algorithm[64];      /* e.g. CUBLAS_GEMM_DEFAULT_TENSOR_OP, the cubin entry, or "launcher:<entry>" */
    size_t workspace_bytes;
    hb_b_layout b_layout;
    long padded[3];          /* M, N, K the kernel sees */
    hb_algo_record algo;     /* cuBLASLt baselines' chosen algorithm */
} hb_participant_desc;

/* "id=21 tile=128x256 stages=64x4 splitk=1 reduction=none swizzle=0 custom=0
 * inner=MMA16816 cluster=2x1x1": one line for messages, the report and the
 * autotune cache. */
void hb_algo_text(const hb_algo_record *algo, char *out, size_t size);

#endif
