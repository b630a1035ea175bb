/* One place for a configuration's verdict (docs/architecture.md, "Adding a
 * check"): every check's outcome, the timed samples and the gate's settings
 * go in; the verdict, the check that decided it and its reason, the
 * headline timer and why, the speedup figures, the gate's outcome and the
 * reward come out, into the configuration's result.  Pure: no GPU, so made-up
 * inputs test it (tests/test_headline.c).
 *
 * Its steps, in the one order of headline.c's table:
 *   figures      each participant's event and wall summaries, the paired
 *                speedups over each baseline (bench/core/stats.h);
 *   timer-cross-check  the headline timer and the timers' agreement
 *                (bench/result/timer_check.h): a disagreement fails the check;
 *   the --decide decision re-judged on the wall clock where the headline
 *                moved there; the -max rows (bench/result/max_rows.h); the
 *                reward's terms (bench/result/reward.h); --target-ci's final
 *                half-width;
 *   verdict      the first failed check of the list decides it;
 *   peak-throughput  a passed, timed configuration faster than the GPU's
 *                peak is implausible, and its speedups no longer count
 *                (bench/result/plausibility.h);
 *   speedup      gate: below the threshold is too-slow, --decide's
 *                undecided likewise (bench/result/gate.h);
 *   conduct      gate --strict / --forbid: a refused finding is forbidden,
 *                a too-slow one too (it was correct);
 *   reward       settled last, on the final verdict.
 * The figures' steps run only when the timed window ran and no check has
 * failed; a check among them appends its outcome to the list.
 *
 * Stages.  The evaluation is split between two processes, with GPU work
 * between the steps, so a caller runs the stages it is at:
 *   FIGURES  the evaluating child, once the timed window's checks passed;
 *   VERDICT  the same child, once its calls are judged and its GPU work torn
 *            down (the reason of an error is the last message then);
 *   GATE     the parent, which knows the GPU's peak, the candidate file's
 *            audit (conduct findings) and the gate's settings.
 * HB_HEADLINE_ALL runs every step in one call, as the tests do. */
#ifndef HB_HEADLINE_H
#define HB_HEADLINE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/status.h"
#include "bench/result/check_list.h"
#include "bench/result/config_result.h"
#include "bench/result/decision_record.h"
#include "bench/result/device_info.h"
#include "bench/result/reward.h"
#include "bench/result/run_options.h"
#include "bench/result/window_samples.h"

/* One participant's timed rounds and the call monitor's figures of them. */
typedef struct hb_headline_participant {
    const char *name;
    int is_candidate;
    const hb_participant_samples *samples; /* event_ms and wall_ms, index = round; NULL: not timed */
    /* the call monitor's (NULL and 0: no trace) */
    const double *kernel_us;      /* kernel-only microseconds of each timed round, NaN where it saw no kernel; as
                                     many as the candidate's rounds */
    const double *device_diff_us; /* event - CUPTI's device reading of the same two events, microseconds, per call
                                     it read them (the warm-up's) */
    size_t n_device;
    int other_stream_calls;       /* calls that put work on another stream */
} hb_headline_participant;

typedef struct hb_headline_options {
    const char *vs;               /* the baseline the gate and the reward pair with (torch for run and sweep) */
    int gate;                     /* `gate`: the threshold and the refused conduct apply */
    double min_speedup;           /* gate: least speedup, t_b / t_c - 1 */
    unsigned forbidden;           /* the findings gate --strict / --forbid refuse (hb_gate_forbidden_findings) */
    const hb_reward_settings *reward;   /* --reward; NULL or off: none */
    const hb_decision_record *decision; /* what gate --decide's window decided; NULL or not ran: no --decide */
    double target_ci;             /* --target-ci's fraction; 0: off */
    uint64_t bootstrap_seed;      /* the summary's CIs: participant i's is this + i (bench/driver/config_eval.h) */
    const hb_device_info *device; /* the GPU, for the peak-throughput check; NULL: not judged */
    double peak_tflops;           /* --peak-tflops; 0: the table's */
} hb_headline_options;

#define HB_HEADLINE_FIGURES 1u
#define HB_HEADLINE_VERDICT 2u
#define HB_HEADLINE_GATE 4u
#define HB_HEADLINE_ALL (HB_HEADLINE_FIGURES | HB_HEADLINE_VERDICT | HB_HEADLINE_GATE)

typedef struct hb_headline_input {
    const hb_headline_participant *participants; /* the candidate first, then the baselines */
    size_t count;
    int timed;                    /* the timed window ran (not `check`) */
    hb_check_list *checks;        /* the checks that ran, in their order; the figures' checks are appended.
                                     FIGURES and VERDICT need it; GATE reads the verdict in r (NULL there) */
    hb_headline_options options;
} hb_headline_input;

/* The settings of a run's options; decision, bootstrap_seed and device are
 * the caller's (0 and NULL here). */
hb_headline_options hb_headline_options_of(const hb_run_options *o);

/* Runs the steps of `stages` (HB_HEADLINE_*) in their order, into r.  r
 * holds what the evaluation recorded before: mnk, the participants' rows,
 * battery (the reward averages its deviation checks), window, telemetry (the
 * peak's clock), conduct and trace_note (the gate's conduct); the GATE stage
 * alone reads the verdict the child recorded there.  Returns a step's error
 * as the harness's (out of memory, a -max row without its variant: nothing
 * recorded, the caller adds it to the list with hb_check_list_add_ending
 * and runs VERDICT); else r->status where VERDICT or GATE ran, and the status
 * of the list's first failure (HB_OK: none) where only FIGURES did. */
hb_status hb_headline_decide(const hb_headline_input *in, unsigned stages, hb_config_result *r);

#endif
