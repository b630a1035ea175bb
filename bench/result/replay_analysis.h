/* A capture (bench/result/replay_capture.h) made into a replay plan: every
 * parameter word, memset and copy address that lies in a buffer or a live
 * allocation becomes a relocation; every TMA descriptor found whole in a
 * kernel's parameters becomes a map use; calls 2..n must be one sequence
 * repeated (the steady state), and the first is kept as the prologue when it
 * differs.  The plan is refused, with the call and the operation named, when
 * the calls differ, a parameter holds a device address nothing known
 * contains, a kernel is a library's (bench/result/library_kernel.h), or a
 * limit is passed.  Plain data, no CUDA. */
#ifndef HB_REPLAY_ANALYSIS_H
#define HB_REPLAY_ANALYSIS_H

#include "bench/result/replay_capture.h"
#include "bench/result/replay_plan.h"

/* Fills `plan` (zeroed by the caller: hb_replay_plan_new) from `capture`.
 * Always returns with a plan: refused or replayable. */
void hb_replay_analyse(const hb_replay_capture *capture, hb_replay_plan *plan);

#endif
