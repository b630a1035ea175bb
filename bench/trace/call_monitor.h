/* The call monitor (docs/trace.md): CUPTI on in every process that runs
 * candidate code, for the checks, the warm-up and the timed windows alike,
 * so that no call can tell it is traced.  It watches every call of every
 * participant (hb_call_watcher, bench/candidate/participant.h): CUPTI's
 * activity records give each call the kernels, copies and sets that started
 * in its window, and CUPTI's device timestamps of the harness's start and
 * stop events; CUPTI's callbacks, enabled for the API calls of the conduct
 * classes alone (allocations, synchronizations, creations, graph launches,
 * event timing), give it the calls its host code made.  A launch, a set or
 * a copy costs no callback, so an honest call's path is not slowed.
 *
 * Records are handed to calls at checkpoints, between rounds, with the
 * device idle (hb_monitor_checkpoint), never while a call is in flight: a
 * timed call never waits for the monitor.  One monitor per process, opened
 * before the CUDA context exists. */
#ifndef HB_CALL_MONITOR_H
#define HB_CALL_MONITOR_H

#include <cuda_runtime_api.h>

#include "bench/candidate/participant.h"
#include "bench/core/status.h"
#include "bench/result/watched_calls.h"

typedef struct hb_call_monitor hb_call_monitor;

/* What the monitor turns on.  The harness always turns on everything
 * (HB_MONITOR_ALL); scripts/bench_call_monitor.c measures each part's cost. */
#define HB_MONITOR_KERNELS 1u   /* CUPTI's concurrent-kernel activity */
#define HB_MONITOR_COPIES 2u    /* its copy and set activity */
#define HB_MONITOR_EVENTS 4u    /* CUDA event records with device timestamps: the events' cross-check */
#define HB_MONITOR_CALLBACKS 8u /* callbacks on the API calls of the conduct classes */
#define HB_MONITOR_ALL 15u

/* HB_MONITOR_PARTS=kernels,copies,events,callbacks (any of them; unset:
 * all): the parts a run turns on, to measure what each costs the headline
 * (docs/trace.md, "What it costs").  Not for verdicts: without a part, its
 * findings and checks are missing.  0 and *bad naming the first unknown word
 * on a bad list. */
#define HB_MONITOR_PARTS_ENV "HB_MONITOR_PARTS"
int hb_monitor_parts(const char *list, unsigned *features, char *bad, size_t bad_size);

/* Loads CUPTI, registers its buffers, turns on the activity kinds and
 * subscribes the callbacks (those of `features`).  `detail_calls`: each
 * participant's first calls kept whole for trace.json.  HB_ERR_UNSUPPORTED
 * with a message naming what was searched when CUPTI is missing or refuses
 * (another profiler attached). */
hb_status hb_monitor_open(int detail_calls, unsigned features, hb_call_monitor **out);

/* Watches `parts` (their watcher set, their index their place here) and
 * learns the timed stream's CUPTI id from a 1-byte set on it. */
hb_status hb_monitor_attach(hb_call_monitor *m, hb_participant *const *parts, size_t count, cudaStream_t timed_stream);

/* 1 when enough has gathered since the last checkpoint that one is due
 * (4096 calls or half a second): the windows ask between rounds. */
int hb_monitor_due(const hb_call_monitor *m);

/* Synchronizes the device, flushes CUPTI and hands every record to its
 * call.  No call may be in flight. */
hb_status hb_monitor_checkpoint(hb_call_monitor *m);

/* Turns CUPTI's records of CUDA events (with their device timestamps) on or
 * off; a no-op for a monitor opened without HB_MONITOR_EVENTS.  They cost a
 * few microseconds inside every event pair (docs/trace.md): the evaluation
 * keeps them for the checks and the warm-up and turns them off for the timed
 * window.  The monitor itself turns them on for each call of a timed round
 * drawn for the cross-check (kind HB_CALL_CROSS_CHECKED, which the
 * statistics leave out: bench/measure/cross_check_rounds.h), from its call
 * begin to its call end, and off again before the harness reads its events. */
hb_status hb_monitor_event_timestamps(hb_call_monitor *m, int on);

/* What it found of participant `index` (after a checkpoint). */
hb_watched *hb_monitor_watched(hb_call_monitor *m, size_t index);

/* Records CUPTI reported dropped (full buffers) and calls not logged (out of memory). */
unsigned long long hb_monitor_lost(const hb_call_monitor *m);

/* Unsubscribes, turns the activity off and frees it; NULL is allowed.  The
 * participants' watcher must not outlive it (tear them down first). */
void hb_monitor_close(hb_call_monitor *m);

#endif
