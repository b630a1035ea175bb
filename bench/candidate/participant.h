/* A participant: anything the harness times on the same product — a
 * baseline library call or the candidate kernel.  The timing loop sees only
 * this interface, so new baselines (cuBLASLt) plug in without touching it. */
#ifndef HB_PARTICIPANT_H
#define HB_PARTICIPANT_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/result/participant_desc.h"

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
    /* Untimed, optional (NULL: nothing): called after every call once its
     * work is finished, timed or checked.  A launcher candidate checks here
     * that its host code left the device as the harness set it, restores
     * it, and says what it found in device_state (docs/launchers.md). */
    hb_status (*after_call)(hb_participant *self);
} hb_participant_ops;

struct hb_participant {
    char name[64];           /* "torch", "cublas-nn", "cublas-tn", "candidate" */
    int is_candidate;
    int bounds_deviation;    /* 1: its deviation counts toward the correctness bound (cuBLAS baselines) */
    const hb_participant_ops *ops;
    void *impl;
    hb_participant_desc desc;
    char device_state[200];  /* what after_call found changed (and reset); "" if nothing */
};

#endif
