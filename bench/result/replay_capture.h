/* What the launch recorder (bench/trace/launch_recorder.h) saw while a
 * launcher ran a few calls: every operation on its streams and every
 * allocation, with raw device addresses, in the order they were made; and
 * the harness's own buffers, so that addresses can be told apart.  Turned
 * into a replay plan by bench/result/replay_analysis.h.  Plain data, no CUDA. */
#ifndef HB_REPLAY_CAPTURE_H
#define HB_REPLAY_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/result/replay_plan.h"

#define HB_CAPTURE_MAX_CALLS 6
#define HB_CAPTURE_MAX_OPS (HB_REPLAY_MAX_PROLOGUE_OPS + HB_REPLAY_MAX_OPS * HB_CAPTURE_MAX_CALLS)
#define HB_CAPTURE_MAX_ALLOCS 1024 /* an autotuning first call allocates per trial */
#define HB_CAPTURE_MAX_MAPS 64
#define HB_CAPTURE_MAX_STREAMS 16

/* A buffer the harness owns, by target (A, B, B_col, C, workspace); bytes 0: none. */
typedef struct hb_capture_buffer {
    uint64_t base, bytes;
} hb_capture_buffer;

/* An allocation the launcher made.  `seq` orders it among the operations
 * (hb_capture_op.seq); freed_seq 0: never freed. */
typedef struct hb_capture_alloc {
    uint64_t base, bytes;
    int call;                        /* the call it was made in; -1 before the first (load, constructors) */
    uint64_t seq, freed_seq;
} hb_capture_alloc;

/* A cuTensorMapEncodeTiled call: its arguments with the raw global address, and what it encoded. */
typedef struct hb_capture_map {
    hb_replay_map map;               /* map.global unused: `address` holds the raw one */
    uint64_t address;
    uint64_t seq;
} hb_capture_map;

/* One operation with raw addresses.  A kernel's parameter words are in
 * kernel.params; `device_words` marks (bit i: the 8 bytes at 8*i) the
 * aligned words the recorder found to be device addresses (any, known to
 * the capture or not), so an unknown one can be refused. */
typedef struct hb_capture_op {
    hb_replay_op_kind kind;
    int call;                        /* 0-based call index */
    uint64_t seq;
    uint32_t stream;                 /* index into the capture's streams (0: the stream the launcher was given) */
    hb_replay_kernel kernel;         /* kind kernel: function, launch, params (relocs and maps not yet filled) */
    uint64_t device_words[HB_REPLAY_MAX_PARAM_BYTES / 8 / 64];
    uint64_t dst, src;               /* memset, copy: raw addresses */
    uint64_t bytes;                  /* copy: bytes; memset: elements */
    uint32_t value, element_bytes;   /* memset */
} hb_capture_op;

typedef struct hb_replay_capture {
    hb_capture_buffer buffers[HB_TARGET_ALLOC]; /* indexed by hb_replay_target */
    long mnk[3], padded[3];
    int sm;
    int calls;                       /* calls recorded */
    /* The first thing that makes the launcher not replayable, seen while
     * recording (a copy to the host, a graph launch, a host function, a
     * failed call); HB_REFUSE_NONE when nothing was. */
    hb_replay_refusal refusal;
    char reason[256];
    size_t n_ops;
    hb_capture_op ops[HB_CAPTURE_MAX_OPS];
    size_t n_allocs;
    hb_capture_alloc allocs[HB_CAPTURE_MAX_ALLOCS];
    size_t n_maps;
    hb_capture_map maps[HB_CAPTURE_MAX_MAPS];
    /* The kernels and cubins seen, as the plan will hold them. */
    uint32_t n_modules;
    hb_replay_module modules[HB_REPLAY_MAX_MODULES];
    uint32_t n_functions;
    hb_replay_function functions[HB_REPLAY_MAX_FUNCTIONS];
    uint32_t n_func_attrs;
    hb_replay_func_attr func_attrs[HB_REPLAY_MAX_FUNC_ATTRS];
    uint32_t n_streams;
    uint64_t streams[HB_CAPTURE_MAX_STREAMS]; /* raw handles; streams[0] the one given */
} hb_replay_capture;

/* A zeroed capture on the heap (a few MB); NULL with a message when out of memory. */
hb_replay_capture *hb_replay_capture_new(void);
void hb_replay_capture_free(hb_replay_capture *capture);

/* Marks the capture not replayable (the first refusal stays). */
void hb_capture_refuse(hb_replay_capture *capture, hb_replay_refusal refusal, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#endif
