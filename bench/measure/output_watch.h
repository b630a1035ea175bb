/* Every call's whole output scanned (docs/methodology.md, "Every call's
 * output scanned"): after each call of the warm-up and timed windows, once
 * its time is taken, a scan kernel (bench/gpu/output_scan.h) is enqueued on
 * the timed stream over the output that participant's code wrote (a
 * padding candidate's padded C, its logical M x N region; else io->c), and
 * adds the elements it finds still poisoned (0xFFFF), NaN or Inf to that
 * participant's device counter.  After each round the counters are read
 * back in one small copy and judged: a candidate whose count rose fails
 * (incorrect, check "unwritten-output"), a baseline whose count rose is the
 * harness's error.  Every participant gets the same scan, so the scan
 * favours none of them. */
#ifndef HB_OUTPUT_WATCH_H
#define HB_OUTPUT_WATCH_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/candidate/participant.h"
#include "verify/check_failure.h"

/* The region a participant's code writes: rows x cols, rows ld elements apart. */
typedef struct hb_output_region {
    const uint16_t *c;
    long rows, cols, ld;
} hb_output_region;

typedef struct hb_output_watch {
    size_t count;
    hb_output_region region[HB_MAX_PARTICIPANTS];
    unsigned long long *device;             /* count counters, cumulative since create */
    unsigned long long *host;               /* pinned: where a round's read-back lands */
    uint64_t judged[HB_MAX_PARTICIPANTS];   /* each counter's value at the last read-back */
    uint64_t scans;                         /* calls scanned so far */
} hb_output_watch;

/* Which call a round's count belongs to: for the reason. */
typedef struct hb_watch_round {
    int timed;    /* 0: the warm-up window; 1: the timed window */
    size_t round; /* 1-based, within its window */
} hb_watch_round;

/* The region each participant writes, from `ios[i]` and its kernel's view
 * (bench/candidate/candidate_buffers.h, hb_candidate_kernel_io), and zeroed
 * counters.  HB_ERR_CUDA when the device or host memory cannot be had. */
hb_status hb_output_watch_create(hb_output_watch *watch, hb_participant *const *participants, const hb_gemm_io *ios,
                                 size_t count);
void hb_output_watch_free(hb_output_watch *watch);

/* Enqueues participant i's scan on `stream`.  Call after its call's
 * synchronize and before its output is poisoned again. */
hb_status hb_output_watch_scan(hb_output_watch *watch, size_t i, cudaStream_t stream);

/* After a round: reads every counter back (one copy on `stream`, waited
 * for) and judges the round (hb_output_watch_judge). */
hb_status hb_output_watch_after_round(hb_output_watch *watch, hb_participant *const *participants,
                                      cudaStream_t stream, hb_watch_round at, hb_check_failure *failure);

/* The round's verdict from the counts found in it (`found[i]` for
 * participant i; `elements` = M x N, one call's output): HB_OK when every
 * count is 0; HB_ERR_CUDA naming the first baseline with a count (a harness
 * or library fault: nothing can be judged against it); else HB_ERR_INCORRECT
 * with `failure` set (check "unwritten-output").  No CUDA. */
hb_status hb_output_watch_judge(hb_participant *const *participants, const uint64_t *found, size_t count,
                                uint64_t elements, hb_watch_round at, hb_check_failure *failure);

/* "a timed call (round 37 of the timed window) left 4096 of 4096 output
 * elements unwritten or non-finite (the poison 0xFFFF, NaN or Inf)". */
void hb_unwritten_reason(char *out, size_t size, hb_watch_round at, uint64_t found, uint64_t elements);

#endif
