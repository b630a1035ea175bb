/* The warm-up and timed windows of one configuration (docs/methodology.md,
 * "Rounds and windows").
 * A round times every participant once, in a freshly shuffled order; rounds
 * repeat until a stopping criterion (bench/measure/stop_criterion.h) ends the
 * window: its length has passed (and, for the timed window, at least
 * HB_MIN_TIMED_ROUNDS rounds have run), or --target-ci is met at some round
 * n, and then the samples and the window report are those of the first n
 * rounds.  Around the timed calls, untimed: every call's preparation
 * (verify/checked_call.h: its buffers re-made and poisoned), the scan of
 * every call's whole output, read back after each round
 * (bench/measure/output_watch.h), the L2 policy's work (fresh inputs or a
 * stir of them per round, and an L2 flush per call under flush) and, in
 * server mode, an exponential idle gap before every call or round.  NVML is
 * sampled through the timed window.  A few timed rounds, drawn at random,
 * are cross-checked: CUPTI also reads their event pairs, and the samples
 * leave them out (hb_window_options.cross_check_fraction). */
#ifndef HB_WINDOWS_H
#define HB_WINDOWS_H

#include <stdint.h>

#include "bench/candidate/participant.h"
#include "bench/core/progress.h"
#include "bench/core/rng.h"
#include "bench/gpu/telemetry.h"
#include "bench/measure/sample_timer.h"
#include "bench/measure/target_ci_criterion.h"
#include "bench/result/decision_record.h"
#include "bench/result/window_report.h"
#include "bench/result/window_samples.h"
#include "verify/check_failure.h"

#define HB_MIN_TIMED_ROUNDS 10

/* Spot checks of timed calls (docs/methodology.md, "Indistinguishable
 * calls"): a few timed rounds, drawn at random, are checked after they ran,
 * on the outputs every participant left and the inputs of that round (the
 * baselines' outputs of the round set the tolerance).  Nothing before or
 * during a checked round differs from any other.  The rounds are drawn
 * with a probability set from the warm-up's round rate, so about
 * `max_checks` of them fall in the window; at least one always runs. */
typedef struct hb_spot_check {
    int max_checks;
    hb_status (*after)(void *context);  /* untimed: check the round's outputs */
    void *context;
    int done;                           /* spot checks that ran */
} hb_spot_check;

/* Untimed work around the calls, set by the L2 policy (bench/core/timing_policy.h). */
typedef struct hb_input_hooks {
    /* Before every round: new inputs (--l2 fresh) or a stir of them (warm, flush).  NULL: none. */
    hb_status (*before_round)(void *context);
    /* Before every call (--l2 flush): evict the inputs from L2.  NULL: none. */
    hb_status (*before_call)(void *context);
    void *context;
} hb_input_hooks;

/* Server mode: an exponential idle gap before every call or every round. */
typedef struct hb_pacing {
    int server;        /* 0: offline, back to back */
    int per_round;     /* 1: one gap per round, before its first call */
    double mean_gap_s; /* mean of the exponential gap, seconds */
} hb_pacing;

/* --target-ci: end the timed window once every baseline's CI half-width of
 * the headline is below `halfwidth`, judged after `min_time_s` and
 * HB_TARGET_CI_MIN_ROUNDS rounds; the window's length stays the cap.  The
 * criterion (bench/measure/target_ci_criterion.h) bootstraps with the
 * summary's seed, so the half-widths it decides on are the summary's. */
typedef struct hb_stop_rule {
    double halfwidth;        /* fraction, 0.01 = 1 %; 0: off */
    double min_time_s;
    uint64_t bootstrap_seed; /* the summary's (participant i: + i), known before the window */
} hb_stop_rule;

/* gate --decide: end the timed window once the sequential test decides the
 * speedup over the judged baselines is above or below the threshold, the
 * window's length being the cap (bench/measure/decide_criterion.h). */
typedef struct hb_decide_rule {
    double alpha;           /* 0: off */
    double log_threshold;   /* log(1 + --min-speedup) */
    size_t column[HB_SEQUENTIAL_MAX_SERIES]; /* the judged baselines' participant indices */
    size_t columns;
    hb_decision_record *record; /* the looks go here */
} hb_decide_rule;

/* The watchers' work between rounds, untimed (bench/trace/call_monitor.h:
 * the monitor's checkpoints; bench/gpu/entry_points.h: the timers' check
 * after every window).  NULL: none. */
typedef struct hb_window_hooks {
    hb_status (*between_rounds)(void *context); /* after every round, with the device idle */
    hb_status (*before_timed)(void *context);   /* between the warm-up and the timed window */
    hb_status (*after_window)(void *context);   /* after the warm-up and after the timed window */
    void *context;
} hb_window_hooks;

typedef struct hb_window_options {
    double warmup_s;
    double time_s;
    hb_spot_check *spot;   /* NULL: none */
    hb_input_hooks inputs;
    hb_pacing pacing;
    hb_stop_rule stop;
    hb_decide_rule decide;
    int keep_detail;       /* 1: also keep each call's slot, start and gap (--raw) */
    const char *telemetry_uuid; /* sample NVML through the timed window for this GPU; NULL: no telemetry */
    hb_window_hooks hooks;
    /* Of the timed rounds, the share drawn at random, one draw between
     * rounds, whose calls go to the watcher as HB_CALL_CROSS_CHECKED (the
     * call monitor then reads their event pairs: bench/trace/call_monitor.h):
     * left out of the samples and of every criterion, every participant's
     * call of the round alike (bench/measure/cross_check_rounds.h); 0: none
     * (the evaluation gives 0 where no monitor runs). */
    double cross_check_fraction;
    hb_check_failure *failure;  /* where a candidate's failed check in the windows goes (the output scan,
                                   bench/measure/output_watch.h); NULL: only the status and message say it */
} hb_window_options;

/* `ios[i]` is participant i's view of the problem (its own output buffer). */
hb_status hb_measure_windows(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                             hb_sample_timer *timer, hb_rng *rng, const hb_window_options *options,
                             hb_progress *progress, hb_participant_samples *samples, hb_window_report *report,
                             hb_telemetry_summary *telemetry);


#endif
