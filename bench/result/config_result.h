/* Everything measured or decided for one configuration: what the report
 * writers read.  Plain data, so the writers are testable without a GPU. */
#ifndef HB_CONFIG_RESULT_H
#define HB_CONFIG_RESULT_H

#include "bench/core/child_note.h"
#include "bench/core/code_pages.h"
#include "bench/core/gemm_types.h"
#include "bench/core/stats.h"
#include "bench/core/timing_policy.h"
#include "bench/result/battery_record.h"
#include "bench/result/conduct.h"
#include "bench/result/cross_check.h"
#include "bench/result/decision_record.h"
#include "bench/result/item_cost.h"
#include "bench/result/kernel_profile.h"
#include "bench/result/mma_audit.h"
#include "bench/result/module_state.h"
#include "bench/result/replay_record.h"
#include "bench/result/participant_desc.h"
#include "bench/result/plausibility_record.h"
#include "bench/result/reference_record.h"
#include "bench/result/reward.h"
#include "bench/result/sanitize_record.h"
#include "bench/result/telemetry_summary.h"
#include "bench/result/timer_check.h"
#include "bench/result/verdict.h"
#include "bench/result/window_report.h"

typedef struct hb_participant_result {
    char name[64];
    int is_candidate;
    char max_of[64];                 /* a -max row (bench/result/max_rows.h): the variant it takes its figures from; "" otherwise */
    hb_participant_desc desc;
    hb_deviation deviation;          /* vs the fp32 reference, first check before timing (the paper's rule) */
    hb_excess excess;                /* vs the fp64 reference, same check (the verdict's rule) */
    hb_time_summary event_ms;        /* CUDA-event times, milliseconds */
    hb_time_summary wall_ms;         /* host wall times, milliseconds */
    /* Candidate over this participant (baselines only): paired per round. */
    hb_speedup_summary speedup_event;
    hb_speedup_summary speedup_wall;
    hb_kernel_time kernel;           /* kernel-only time from the call monitor (docs/trace.md) */
    hb_timer_agreement timers;       /* its events against CUPTI's reading and the wall clock */
    hb_ref_medians reference;        /* a baseline's medians in its clean process (bench/result/baseline_reference.h) */
} hb_participant_result;

/* The run's timing policy, as the results record it on every row. */
typedef struct hb_timing_record {
    hb_mode mode;
    hb_gap_placement gap;
    double mean_gap_ms;      /* server mode */
    hb_l2_policy l2;
    hb_stream_policy stream; /* the timed stream (--stream) */
    double target_ci;        /* --target-ci as a fraction; 0: off */
    char aa_of[64];          /* --aa: the baseline timed as the candidate; "" otherwise */
} hb_timing_record;

/* The GPU a configuration ran on, recorded by the parent that handed it out. */
typedef struct hb_gpu_record {
    int ordinal;             /* CUDA ordinal; -1: it never reached a GPU */
    char uuid[64];
    char name[256];
} hb_gpu_record;

typedef struct hb_config_result {
    hb_mnk mnk;
    hb_status status;                /* HB_OK: every check passed (and measured, unless check-only) */
    hb_verdict verdict;              /* the name results give the status */
    char check[24];                  /* the failed check (verify/check_failure.h names), "" if none */
    char reason[512];                /* one line, when status != HB_OK */
    char manifest_path[4096];
    int checked;                     /* the deviation check ran to completion */
    double deviation_bound;          /* the paper's bound in the first check: max |b - ref32| */
    hb_battery_record battery;       /* what the correctness battery compared, and its time */
    int spot_checks;                 /* timed calls whose output was checked */
    double seconds;                  /* wall time of the whole configuration, seconds */
    hb_item_cost cost;               /* where the item's time went (bench/result/item_cost.h) */
    int measured;                    /* timing windows ran */
    size_t rounds;
    hb_timing_record timing;         /* filled by the run command (bench/driver/run_loop.c) */
    hb_window_report window;         /* what the warm-up and timed windows did */
    hb_telemetry_summary telemetry;  /* NVML through the timed window */
    size_t count;
    hb_participant_result participants[HB_MAX_PARTICIPANTS];
    hb_module_state module_state;    /* what the candidate's cubin can keep between calls (read at load) */
    int mma_audited;                 /* 1: the candidate's file was audited (mma; its findings are in conduct) */
    hb_mma_audit mma;                /* its tensor-core instructions by accumulator (unknown without cuobjdump) */
    hb_sanitize_record sanitize;     /* what each --sanitize tool found */
    hb_profile_record profile;       /* what --profile's Nsight Compute pass found (after the evaluation) */
    hb_plausibility plausibility;    /* its time against the GPU's peak (judged after timing) */
    hb_gpu_record gpu;
    hb_conduct conduct;              /* the candidate's, from the call monitor */
    char trace_note[256];            /* why there is no trace ("" when it ran) */
    char trace_file[4096];           /* the first calls of every participant, whole (trace.json); "" when none */
    hb_timer headline_timer;         /* the timer every speedup headline of this configuration is on */
    unsigned timer_reasons;          /* HB_TIMER_REASON_* behind a wall headline */
    char timer_why[400];             /* what each reason saw; "" on events */
    int integrity_checked;           /* the timing entry points were verified after every window */
    hb_code_pages_cost code_pages;   /* every page of code sealed and checked: what it cost (ranges 0: not sealed) */
    hb_cross_check cross_check;      /* the timed rounds CUPTI also read the events of (judged once timed) */
    char sandbox[HB_CHILD_NOTE_SANDBOX]; /* what the evaluating process applied before the candidate loaded
                                          * (bench/driver/sandbox.h): "mseal+seccomp+landlock7", "off", "none
                                          * (--no-isolate)", ...; "" when it ended before */
    hb_reward_record reward;         /* --reward: r and its terms (docs/gate.md, "Reward") */
    hb_decision_record decision;     /* gate --decide: the sequential test's verdict on the threshold (ran 0 without) */
    hb_replay_record replay;         /* the candidate's form: cubin, a launcher's replay, or its host code (and why) */
    hb_reference_record baseline_reference; /* the baselines' clean-process reference and its judgement */
} hb_config_result;

/* The headline speedup of the candidate over `p` (a baseline's row) and p's
 * times on the configuration's headline timer (bench/result/timer_check.h). */
const hb_speedup_summary *hb_headline_speedup(const hb_config_result *r, const hb_participant_result *p);
const hb_time_summary *hb_headline_times(const hb_config_result *r, const hb_participant_result *p);

/* The kernel-time speedup of the candidate over participant `p` in `r`
 * (t_p / t_cand - 1 on the medians of the kernel spans); NaN when either
 * side has no kernel time or the candidate's span is 0. */
double hb_kernel_speedup(const hb_config_result *r, const hb_participant_result *p);

/* The part of a configuration's result a parent knows before the
 * child runs: configuration, a row for the candidate.  Also what a crashed
 * or killed child leaves. */
void hb_config_result_init(hb_config_result *result, const hb_mnk *mnk);

#endif
