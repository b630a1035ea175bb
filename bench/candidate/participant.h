/* A participant: anything the harness times on the same product — a
 * baseline library call or the candidate kernel.  The timing loop sees only
 * this interface, so new baselines (cuBLASLt) plug in without touching it. */
#ifndef HB_PARTICIPANT_H
#define HB_PARTICIPANT_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/result/call_trace.h"
#include "bench/result/participant_desc.h"

typedef struct hb_participant hb_participant;

/* Who watches every call of a participant: the CUPTI call monitor
 * (bench/trace/call_monitor.h), on in every process that runs candidate code
 * (docs/trace.md).  It is told where each call begins (before the start
 * event), where the participant's own code begins and returns, and where the
 * call ends (after the device synchronize), so that it can give the call the
 * kernels, copies and API calls that fall inside.  The timed calls, the
 * checked calls and the spot-checked calls are watched alike: no call can
 * tell it is traced.  `sample` is the timed call's index among its
 * participant's timed samples (a cross-checked call's among the
 * cross-checked rounds), -1 for other calls. */
typedef struct hb_call_watcher {
    void (*call_begin)(void *context, const hb_participant *p, hb_call_kind kind, long sample);
    void (*launch_begin)(void *context);
    void (*launch_end)(void *context);
    void (*call_end)(void *context);
    /* After a timed or warm-up call: what the harness's own timers read of
     * it, milliseconds (the watcher holds them against its own clocks). */
    void (*call_timed)(void *context, double event_ms, double wall_ms);
    void *context;
} hb_call_watcher;

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
    size_t index;            /* its place among the configuration's participants (the watcher's key) */
    const hb_call_watcher *watcher; /* NULL: nobody watches */
};

/* A call's watch points (each does nothing without a watcher). */
void hb_watch_call_begin(const hb_participant *p, hb_call_kind kind, long sample);
void hb_watch_call_end(const hb_participant *p);
void hb_watch_call_timed(const hb_participant *p, double event_ms, double wall_ms);

/* p's launch between the watcher's launch_begin and launch_end: the one way
 * the harness runs a participant's own code, timed or checked. */
hb_status hb_participant_launch(hb_participant *p, const hb_gemm_io *io, cudaStream_t stream);

#endif
