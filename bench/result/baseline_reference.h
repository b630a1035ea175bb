/* Baselines held to a clean process (docs/methodology.md, "Baselines held
 * to a clean process").  A launcher runs inside the process that times the
 * baselines and can slow them through the driver (a kernel of its own
 * before each of their launches, a host wait before their event records,
 * a thread hammering the driver), below every entry point the harness
 * checks.  So each baseline's reference comes from a process that never
 * loaded candidate code: the kernels it ran (names, the most in one call),
 * its copies and sets per call, and its event, wall and kernel-only medians with their spread, from a
 * short window of the baselines alone (bench/driver/reference_eval.h).  In
 * the candidate's process the same figures are judged against it here: a
 * kernel the reference lacks, more kernels in a call, more copies or sets
 * per call, another algorithm
 * where both processes read the same autotune choice, or a median above the
 * reference's beyond the tolerance (bench/result/reference_tolerance.h) is
 * the verdict `baseline-interference` (exit 16).
 * Plain data, no CUDA: the judgement is CPU-testable. */
#ifndef HB_BASELINE_REFERENCE_H
#define HB_BASELINE_REFERENCE_H

#include <stddef.h>

#include "bench/result/baseline_registry.h"
#include "bench/result/call_trace.h"
#include "bench/result/config_result.h"
#include "bench/result/reference_tolerance.h"
#include "bench/result/watched_calls.h"

/* Check names (the verdict's `check`). */
#define HB_CHECK_BASELINE_KERNELS "baseline-kernels" /* a kernel, more kernels or copies, or an algorithm the clean
                                                        process did not run */
#define HB_CHECK_BASELINE_TIMES "baseline-times"     /* a median above the clean process's beyond the tolerance */

#define HB_REF_KERNEL_NAMES 16 /* distinct kernel names kept per baseline (the call monitor's tally keeps as many) */

/* One baseline in one process: what it ran and how long it took. */
typedef struct hb_baseline_figures {
    char name[64];
    char algo[192];              /* a cuBLASLt baseline's algorithm (hb_algo_text); "" for the others */
    char algo_source[16];        /* how it was chosen: "heuristic", "search", "cache", "fallback"; "" */
    char choice[192];            /* an autotune baseline's entry in the autotune cache when the reference was
                                    measured (its algo_text); "" where it had none */
    hb_ref_spread timer[HB_REF_FIGURES]; /* the timed window's medians and spread, microseconds */
    int traced;                  /* 1: the call monitor saw its calls (the kernels below are known) */
    int kernel_names, more_kernel_names; /* distinct names kept, and those past HB_REF_KERNEL_NAMES */
    char kernel_name[HB_REF_KERNEL_NAMES][HB_TRACE_KERNEL_NAME]; /* mangled, as CUPTI names them */
    int kernels_per_call;        /* the most kernels of one call after its first */
    double copies_per_call;      /* copies and sets per call, over every call (a baseline makes the same each call) */
} hb_baseline_figures;

/* Every baseline of one configuration in a clean process. */
typedef struct hb_baseline_reference {
    size_t count;
    hb_baseline_figures baseline[HB_N_BASELINES];
    size_t rounds;               /* timed rounds of its window */
    double warmup_s, time_s;     /* the windows it was measured with */
    double seconds;              /* the clean process's wall time, set-up included */
    char created[32];            /* UTC, ISO 8601 */
} hb_baseline_reference;

/* What the candidate's process is handed: the reference and how to judge against it. */
typedef struct hb_held_reference {
    hb_baseline_reference reference;
    hb_ref_tolerance tolerance;
    int shared_choices; /* 1: both processes take the autotune baselines' algorithm from the same place (the
                           autotune cache, or the heuristic with no search): another algorithm is interference;
                           0: each searched on its own, and a baseline that chose another is not held */
} hb_held_reference;

/* The judgement's outcome. */
typedef struct hb_ref_judgement {
    int interfered;          /* 1: baseline-interference; check and reason below */
    char check[24];
    char reason[512];
    int held;                /* baselines judged against their reference */
    double worst_ratio;      /* the largest median over its reference among them (NaN: none) */
    char worst[96];          /* whose and which: "torch wall" */
    char not_held[256];      /* the baselines not judged, and why ("" when every one was) */
} hb_ref_judgement;

/* A participant's figures from its result (event and wall summaries,
 * milliseconds; its algorithm) and what the call monitor kept of it (NULL:
 * no monitor), over the first `rounds` timed calls. */
void hb_baseline_figures_of(const hb_participant_result *p, const hb_watched *w, size_t rounds,
                            hb_baseline_figures *out);

/* The reference's baseline named `name`, or NULL. */
const hb_baseline_figures *hb_reference_find(const hb_baseline_reference *ref, const char *name);

/* 1 when the reference holds every baseline of the registry, each timed; 0
 * and why otherwise (a damaged cache entry is measured again). */
int hb_reference_complete(const hb_baseline_reference *ref, char *why, size_t why_size);

/* Whether a cached reference still describes what an autotune baseline will
 * run: `cached_algo` is the autotune cache's entry now (its algo_text; NULL:
 * none there), the same as when the reference was measured (f->choice); or,
 * with no entry and no search (`search` 0), the heuristic's pick, as then. */
int hb_reference_choice_current(const hb_baseline_figures *f, const char *cached_algo, int search);

/* Judges the baselines' figures in the candidate's process (`seen`, the
 * candidate's own left out by the caller) against the held reference. */
void hb_judge_baselines(const hb_held_reference *held, const hb_baseline_figures *seen, size_t count,
                        hb_ref_judgement *out);

#endif
