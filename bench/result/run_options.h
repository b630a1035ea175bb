/* The settings of a run, as the command line gave them (bench/driver/options.c
 * parses them) and as env.json and verdict.json record them.  Plain data:
 * every layer that acts on a setting gets the value, not this struct, except
 * the driver that hands them out and the writers that record them. */
#ifndef HB_RUN_OPTIONS_H
#define HB_RUN_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/gemm_types.h"
#include "bench/result/replay_record.h"
#include "bench/result/deviation_rule.h"
#include "bench/result/reference_tolerance.h"
#include "bench/core/timing_policy.h"
#include "bench/result/report_options.h"
#include "bench/result/reward.h"

#define HB_MAX_CONFIGS 4096 /* --mnk flags one run takes, configurations one sweep plans */

/* Default of --workspace: 32 MiB, PyTorch's cuBLAS workspace on Hopper. */
#define HB_DEFAULT_WORKSPACE_BYTES ((size_t)32 << 20)

/* Default of --min-time-s: the least timed window before --target-ci may
 * end it, so a transient at the window's start cannot. */
#define HB_DEFAULT_MIN_TIME_S 5.0

/* `import FORMAT`'s flags as typed (bench/import/import_run.h acts on them). */
typedef struct hb_import_settings {
    const char *kernels_dir;  /* --kernels DIR */
    const char *out_dir;      /* --out SET */
    const char *cutlass_dir;  /* --cutlass DIR */
    const char *arch;         /* --arch sm_90a; NULL: from the GPU */
    const char *cache_dir;    /* --cache DIR; NULL: SET/.cache */
    const char *nvcc;         /* --nvcc PATH; NULL: $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc */
    const char *report_name;  /* --report NAME; NULL: import.csv */
    int jobs;                 /* --jobs / -j N; 0: from the cores and the memory available */
    const char *order;        /* --order cost|given; NULL: cost (costliest first) */
    int allow_arch_mismatch;  /* --allow-arch-mismatch */
    int rebuild;              /* --rebuild */
    double build_timeout_s;   /* --build-timeout S, per nvcc call */
} hb_import_settings;

/* `reproduce cuda-l2`'s own flags (bench/driver/cmd_reproduce.c); the stages'
 * flags it passes on are the fields above. */
typedef struct hb_reproduce_settings {
    const char *repo;         /* --repo DIR: a CUDA-L2 clone */
    const char *set;          /* --set NAME: h100, a100-fp32, a100-fp16, 3090 (or the folder's name) */
    const char *out_dir;      /* --out DIR: the reproduction's folder */
    int no_plots;             /* --no-plots: no figures even where gnuplot is installed */
    int tables_only;          /* --tables-only: report, compare and the page from what the folder holds */
    const char *forms;        /* --forms LIST: replay, launcher or replay,launcher; NULL: replay (--tables-only:
                                 the forms the folder holds) */
    int detach;               /* --detach: the same reproduction in a session of its own, logged into OUT */
    const char *status;       /* --status OUT: where the reproduction in OUT stands; nothing run */
} hb_reproduce_settings;

typedef struct hb_run_options {
    const char *candidate_path; /* manifest file or candidate-set folder */
    hb_mnk configs[HB_MAX_CONFIGS];
    size_t n_configs;
    double warmup_s;  /* warm-up window per configuration, seconds */
    double time_s;    /* timed window per configuration, seconds (at least) */
    uint64_t seed;
    int seed_given;   /* 0: seed drawn from the clock, and recorded */
    const char *out_dir; /* parent of results/<run-id>/ */
    int device;
    int progress;     /* progress line on stderr */
    int verbose;      /* --verbose: every error names its source line (bench/core/diag.h); passed on to children */
    /* correctness battery (docs/methodology.md) */
    int exact_reps;        /* repetitions of each exact-match check (default 3) */
    double exact_time_s;   /* cap on the time spent repeating them (default 10) */
    int spot_checks;       /* timed calls whose output is checked (default 4) */
    double cross_check_rounds; /* share of timed rounds whose event pairs CUPTI also reads (default 0.03; 0: none) */
    int deviation_reps;    /* deviation checks before timing, fresh inputs each (default 1) */
    hb_deviation_rule deviation_rule; /* the rule whose verdict counts (default ulp-excess) */
    int sanitize;          /* also run the checks under compute-sanitizer (--sanitize [TOOLS]) */
    unsigned sanitize_tools; /* HB_SANITIZE_BIT of each tool (bench/result/sanitize_record.h); memcheck alone by default */
    int profile;           /* --profile: an Nsight Compute pass after each evaluation (docs/gate.md, "Profile") */
    /* isolation (docs/cli.md) */
    int isolate;           /* each configuration in a child process (default 1) */
    hb_form_choice form;   /* --form replay|launcher: what a launcher candidate is timed as (default replay;
                              bench/driver/replay_pass.h) */
    int sandbox;           /* --sandbox on|off: the evaluating child sandboxed before the candidate loads (default 1;
                              none with --no-isolate; bench/driver/sandbox.h) */
    /* the call monitor (docs/trace.md) */
    int trace;             /* the CUPTI call monitor in the evaluating process (default 1; none with --no-isolate) */
    int trace_calls;       /* the first calls of each participant kept whole in trace.json (default 6) */
    double timeout_s;      /* a configuration silent this long is killed (default 60) */
    /* what to do: run (check + time), check (check only), gate (check + time + threshold) */
    int check_only;
    int gate;
    const char *vs;        /* gate: the baseline the speedup is taken over (default torch) */
    double min_speedup;    /* gate: least acceptable speedup, t_b / t_c - 1 (default 0) */
    const char *verdict_path; /* also write the verdict JSON here */
    int json_lines;        /* --json: stdout carries one JSON object per configuration, nothing else */
    int strict;            /* gate --strict: refuse the conduct hb_finding_strict_mask() names */
    const char *forbid;    /* gate --forbid LIST: refuse these findings (bench/result/conduct.h names) */
    hb_reward_settings reward; /* --reward, --reward-clip, --source (run, gate, sweep; docs/gate.md, "Reward") */
    int decide;            /* gate --decide: end each timed window once the threshold is decided (docs/gate.md) */
    double decide_alpha;   /* --decide-alpha: the error spent over its looks, (0, 0.5) (default 0.05) */
    /* baselines (docs/methodology.md, "Participants") */
    hb_acc_class acc;      /* accumulator class of the run (default fp32) */
    size_t workspace_bytes;   /* the one cuBLAS / cuBLASLt workspace (default 32 MiB) */
    const char *autotune_cache; /* cache file; NULL: the default path; "none": no cache */
    int retune;            /* search again even where the cache has an answer */
    int autotune_search;   /* 0: no search; a cache miss takes the heuristic's pick (default 1) */
    /* the baselines held to a clean process (docs/methodology.md, "Baselines held to a clean process") */
    const char *baseline_reference; /* the reference cache; NULL: the default path; "fresh": measured for every
                                       configuration and kept nowhere; "off": no reference, no check */
    double reference_warmup_s;      /* the clean process's warm-up window, seconds (default 0.2) */
    double reference_time_s;        /* its timed window, seconds (default 1) */
    hb_ref_tolerance baseline_tolerance; /* --baseline-tolerance */
    /* timing (docs/methodology.md) */
    hb_mode mode;          /* offline (default) or server */
    hb_gap_placement gap;  /* server mode: a gap before every call (default) or once per round */
    double mean_gap_ms;    /* server mode: mean of the exponential idle gap, milliseconds */
    hb_l2_policy l2;       /* fresh (default), flush or warm */
    hb_stream_policy stream; /* the timed stream: legacy (default) or own */
    double target_ci;      /* --target-ci: stop once every CI half-width is below this fraction; 0: off */
    double min_time_s;     /* with --target-ci: the least timed window, seconds (default 5, at most time_s) */
    const char *aa;        /* --aa NAME: that baseline, a second instance, timed as the candidate; NULL: none */
    int raw;               /* --raw: every sample into <run>/raw/ */
    const char *raw_dir;   /* set by the run command: where --raw files go */
    double peak_tflops;    /* --peak-tflops: the GPU's peak dense fp16 tensor TFLOP/s; 0: the table's (bench/result/peak_throughput.h) */
    /* sweep (docs/sweeps.md): the plan's source as typed; bench/sweep/ reads them */
    const char *grid;      /* --grid NAME: "paper" */
    const char *mnk_file;  /* --mnk-file FILE */
    const char *m_list, *n_list, *k_list; /* --m, --n, --k: comma-separated dimensions */
    int sample;            /* --sample N: a stratified subset of N configurations; 0: all */
    const char *modes;     /* --modes LIST: "offline", "server" or "offline,server"; NULL: --mode */
    const char *devices;   /* --devices all|LIST; NULL: --device */
    const char *shard;     /* --shard I/N; NULL: the whole plan */
    const char *resume;    /* --resume DIR: continue that sweep */
    int dry_run;           /* --dry-run: print the plan, write nothing */
    hb_report_options report; /* report and compare (no run): their own settings */
    hb_import_settings import; /* import (docs/importer.md): its own settings */
    hb_reproduce_settings reproduce; /* reproduce (docs/reproduce-cuda-l2.md): its own settings */
} hb_run_options;

/* What the results call the candidate: its path, or "aa:<baseline>" with --aa. */
const char *hb_candidate_label(const hb_run_options *run);

#endif
