/* The replay form's recording (docs/launchers.md, "The replay form"): for a
 * launcher candidate under --form replay, before the evaluation, a
 * throwaway child (bench/driver/isolate.h, sandboxed as the evaluation is)
 * creates the configuration's buffers, opens the launch recorder
 * (bench/trace/launch_recorder.h), loads the launcher, makes a few calls
 * (HB_REPLAY_CALLS), and writes the plan (bench/result/replay_analysis.h)
 * and its cubins to <run>/replay/<M>_<N>_<K>/ (bench/candidate/replay_file.h).
 * A replay already there for the same library, size and GPU is used again.
 * The evaluation then loads the replay when it is replayable, and the
 * launcher, sealed, when it is not; r->replay says which and why. */
#ifndef HB_REPLAY_PASS_H
#define HB_REPLAY_PASS_H

#include <stddef.h>

#include "bench/candidate/manifest.h"
#include "bench/core/status.h"
#include "bench/driver/isolate.h"
#include "bench/result/config_result.h"
#include "bench/result/device_info.h"
#include "bench/result/run_options.h"

#define HB_REPLAY_CALLS 4 /* the first, and three to show the steady state */

/* What the pass does for a candidate of `kind` under `options`, before any
 * GPU work (a pure function: tests/test_replay_pass.c). */
typedef enum hb_replay_decision {
    HB_REPLAY_SKIP,       /* the candidate itself is timed: a cubin, --form launcher, --aa (nothing recorded) */
    HB_REPLAY_NO_ISOLATE, /* a launcher under --no-isolate: refused (HB_REFUSE_UNSUPPORTED), its host code timed */
    HB_REPLAY_RECORD      /* a launcher under --form replay: recorded, or its replay used again */
} hb_replay_decision;

/* The reason recorded for HB_REPLAY_NO_ISOLATE. */
#define HB_REPLAY_NO_ISOLATE_REASON "no replay under --no-isolate: the recording needs a process of its own"

hb_replay_decision hb_replay_decide(const hb_run_options *options, hb_candidate_kind kind);

/* Records configuration `index`'s launcher when the options ask for its
 * replay; fills r->replay (form, refusal, reason, folder).  `folder` gets
 * the replay folder to evaluate ("" when the launcher itself is timed: a
 * cubin candidate, --form launcher, --aa, or no replay).  `claim` is taken
 * before a recording process starts (not when a replay is reused).  A recording that
 * fails is a refusal (HB_REFUSE_FAILED), never the configuration's error;
 * *cut is set when a signal cut it short. */
hb_status hb_replay_prepare(const hb_run_options *options, const hb_device_info *device, const char *run_path,
                            size_t index, const hb_gpu_claim *claim, hb_config_result *r, char *folder, size_t size,
                            int *cut);

/* 1 when configuration `index`'s evaluation runs candidate host code in the process that times the baselines: a
 * launcher timed as itself (--form launcher, or no replay: `recorded` is what hb_replay_prepare wrote).  0 for a
 * cubin, a replay, --aa, or a manifest that cannot be read (the evaluation then fails before any timing). */
int hb_host_code_timed(const hb_run_options *options, size_t index, const hb_replay_record *recorded);

#endif
