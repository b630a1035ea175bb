#include "bench/driver/options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/doc_writers.h"
#include "bench/analysis/result_set.h"
#include "bench/core/diag.h"
#include "bench/core/text_wrap.h"
#include "bench/driver/commands.h"
#include "bench/result/baseline_registry.h"
#include "bench/result/call_trace.h"
#include "bench/result/conduct.h"
#include "bench/result/sanitize_record.h"

/* --- the table ---------------------------------------------------------------- */

typedef struct option_spec option_spec;

/* Reads `text` into the option's field of `run`; a usage error naming the
 * flag otherwise.  Switches get text NULL. */
typedef hb_status (*parse_fn)(const option_spec *o, const char *text, hb_run_options *run);
/* Writes the field's value as the flag would take it; 0 when it has none
 * (an unset text, a switch that is off). */
typedef int (*format_fn)(const option_spec *o, const hb_run_options *run, char *out, size_t size);

typedef enum section { INPUT, SWEEP, CHECKS, BASELINES, TIMING, GATE, REWARD, REPORTING, SECTION_COUNT } section;
static const char *const section_heading[SECTION_COUNT] = {
    "options", "the sweep's plan, folder and GPUs", "correctness checks and isolation", "baselines", "timing", "gate",
    "reward (a kernel-generation loop's score, docs/gate.md)", "options"};

struct option_spec {
    const char *flag;        /* without "--" */
    const char *value;       /* the value's name in --help ("S"); NULL: a switch */
    unsigned commands;       /* a bit per hb_command that takes it (CMDS below) */
    section section;
    const char *fallback;    /* the default, as text, parsed like a value; NULL: zero or none */
    const char *help;        /* --help's line; the default is appended */
    parse_fn parse;
    format_fn format;        /* NULL: never written on a child's command line (--mnk, aliases) */
    size_t field;            /* offsetof in hb_run_options */
    double low, high;        /* a number's accepted range */
    int sets;                /* a switch: the value it sets (its default is the other) */
};

#define CMD(id) (1u << (id))
#define EVALUATING (CMD(HB_CMD_RUN) | CMD(HB_CMD_CHECK) | CMD(HB_CMD_GATE) | CMD(HB_CMD_SWEEP))
#define TIMING_CMDS (CMD(HB_CMD_RUN) | CMD(HB_CMD_GATE) | CMD(HB_CMD_SWEEP)) /* check times nothing */
#define SWEEPS CMD(HB_CMD_SWEEP)
#define IMPORTS CMD(HB_CMD_IMPORT)
#define REPRODUCES CMD(HB_CMD_REPRODUCE) /* takes the flags it passes on to its stages */
#define PLANNING (SWEEPS | IMPORTS) /* take a plan of configurations */
#define READING_CMDS (CMD(HB_CMD_REPORT) | CMD(HB_CMD_COMPARE)) /* read result folders, no GPU */
#define FIELD(name) offsetof(hb_run_options, name)

static hb_status parse_text(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_mnk_flag(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_seed(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_count(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_seconds(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_number(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_positive(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_percent(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_qps(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_bytes(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_switch(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_acc(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_mode(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_gap(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_l2(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_rule(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_stream(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_forbid(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_sanitize(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_vs(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_aa(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_alpha(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_format(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_timer(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_mode_name(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_report_name(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_threshold(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_reward(const option_spec *o, const char *text, hb_run_options *run);
static hb_status parse_reward_clip(const option_spec *o, const char *text, hb_run_options *run);
static int format_text(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_int(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_seed(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_double(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_percent(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_bytes(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_switch(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_acc(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_mode(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_gap(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_l2(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_rule(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_stream(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_positive(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_sanitize(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_reward(const option_spec *o, const hb_run_options *run, char *out, size_t size);
static int format_reward_clip(const option_spec *o, const hb_run_options *run, char *out, size_t size);

/* Every flag, once.  Seconds lie in 0..86400 (a day); counts are bounded so
 * a typo cannot ask for a month of repetitions. */
static const option_spec table[] = {
    {"candidate", "PATH", EVALUATING, INPUT, NULL,
     "manifest.json of one candidate, or a candidate-set folder holding M_N_K.json files and optionally generic.json",
     parse_text, format_text, FIELD(candidate_path), 0, 0, 0},
    {"mnk", "M,N,K", EVALUATING | IMPORTS, INPUT, NULL, "a configuration; repeat for several (at most 4096), each dimension 1..262144",
     parse_mnk_flag, NULL, 0, 0, 0, 0},
    {"seed", "N", EVALUATING | IMPORTS | REPRODUCES, INPUT, NULL, "seed for inputs, round order and --sample (default: from the clock, recorded)",
     parse_seed, format_seed, FIELD(seed), 0, 0, 0},
    {"out", "DIR", EVALUATING, INPUT, "results", "results go to DIR/<run-id>/ (sweep: DIR is the sweep folder itself)",
     parse_text, format_text, FIELD(out_dir), 0, 0, 0},
    {"device", "N", EVALUATING, INPUT, "0", "CUDA device ordinal", parse_count, format_int, FIELD(device), 0, 1024, 0},
    {"no-progress", NULL, EVALUATING | REPRODUCES, INPUT, NULL, "no progress line on stderr", parse_switch, format_switch,
     FIELD(progress), 0, 0, 0},
    {"verdict", "FILE", EVALUATING, INPUT, NULL, "also write the verdict JSON to FILE (always in the run folder)",
     parse_text, format_text, FIELD(verdict_path), 0, 0, 0},
    {"json", NULL, EVALUATING & ~SWEEPS, INPUT, NULL,
     "stdout carries only one JSON object per configuration as it ends (verdict.json's item; docs/gate.md); the "
     "table and the verdict line go to stderr",
     parse_switch, format_switch, FIELD(json_lines), 0, 0, 1},

    {"grid", "NAME", PLANNING | REPRODUCES, SWEEP, NULL,
     "the plan: every (M, N, K) of a named grid; paper: {64, 128, ..., 8192, 12288, 16384}^3, 1000 configurations",
     parse_text, format_text, FIELD(grid), 0, 0, 0},
    {"mnk-file", "FILE", PLANNING | REPRODUCES, SWEEP, NULL, "the plan: one M,N,K or M_N_K per line, # comments", parse_text,
     format_text, FIELD(mnk_file), 0, 0, 0},
    {"m", "LIST", PLANNING | REPRODUCES, SWEEP, NULL, "the plan: M of every configuration, comma-separated (with --n and --k)",
     parse_text, format_text, FIELD(m_list), 0, 0, 0},
    {"n", "LIST", PLANNING | REPRODUCES, SWEEP, NULL, "N, comma-separated (with --m and --k)", parse_text, format_text,
     FIELD(n_list), 0, 0, 0},
    {"k", "LIST", PLANNING | REPRODUCES, SWEEP, NULL, "K, comma-separated (with --m and --n)", parse_text, format_text,
     FIELD(k_list), 0, 0, 0},
    {"sample", "N", PLANNING | REPRODUCES, SWEEP, NULL,
     "a reproducible subset of N configurations of the plan, stratified over log2(M*N*K), drawn with --seed",
     parse_count, format_int, FIELD(sample), 1, HB_MAX_CONFIGS, 0},
    {"modes", "LIST", SWEEPS | REPRODUCES, SWEEP, NULL, "offline, server or offline,server: each configuration in each mode",
     parse_text, format_text, FIELD(modes), 0, 0, 0},
    {"devices", "LIST", SWEEPS | REPRODUCES, SWEEP, NULL,
     "all, or CUDA ordinals like 0,1: one worker per GPU, each configuration on one (default: --device)", parse_text,
     format_text, FIELD(devices), 0, 0, 0},
    {"shard", "I/N", SWEEPS | REPRODUCES, SWEEP, NULL,
     "only the plan's items i with i mod N = I, 0 <= I < N (the same on any machine), for a cluster", parse_text,
     format_text, FIELD(shard), 0, 0, 0},
    {"resume", "DIR", SWEEPS, SWEEP, NULL,
     "continue the sweep in DIR after a crash, kill or reboot, with its own plan and options", parse_text,
     format_text, FIELD(resume), 0, 0, 0},
    {"dry-run", NULL, SWEEPS | REPRODUCES, SWEEP, NULL, "print the plan (this shard's items) and exit; writes nothing",
     parse_switch, format_switch, FIELD(dry_run), 0, 0, 1},

    {"exact-reps", "N", EVALUATING | REPRODUCES, CHECKS, "3", "repetitions of each exact-match check on fresh inputs", parse_count,
     format_int, FIELD(exact_reps), 1, 1000, 0},
    {"exact-time-s", "S", EVALUATING | REPRODUCES, CHECKS, "10", "stop repeating them after S seconds; the first always runs",
     parse_seconds, format_double, FIELD(exact_time_s), 0, 86400, 0},
    {"deviation-reps", "N", EVALUATING | REPRODUCES, CHECKS, "1", "deviation checks before timing, each on fresh random inputs",
     parse_count, format_int, FIELD(deviation_reps), 1, 1000, 0},
    {"deviation-rule", "RULE", EVALUATING | REPRODUCES, CHECKS, "ulp-excess",
     "the deviation rule whose verdict counts: ulp-excess, or paper (the paper's literal rule); both are reported",
     parse_rule, format_rule, FIELD(deviation_rule), 0, 0, 0},
    {"spot-checks", "N", TIMING_CMDS | REPRODUCES, CHECKS, "4", "timed calls whose output is checked", parse_count, format_int,
     FIELD(spot_checks), 0, 1000, 0},
    /* "[TOOLS]": the value is optional (--sanitize alone is memcheck), given as --sanitize=TOOLS or --sanitize TOOLS. */
    {"sanitize", "[TOOLS]", EVALUATING | REPRODUCES, CHECKS, NULL,
     "also run each configuration's checks under compute-sanitizer, once per tool: memcheck (alone, the default), "
     "racecheck, synccheck, comma-separated",
     parse_sanitize, format_sanitize, FIELD(sanitize), 0, 0, 0},
    {"profile", NULL, TIMING_CMDS, CHECKS, NULL,
     "after each configuration is evaluated, profile one call of the candidate and of the --vs baseline (torch for "
     "run and sweep) under Nsight Compute: DRAM, SM and tensor-pipe throughput, occupancy, L2 hit rate, registers, "
     "shared memory; never changes a verdict (ncu: HB_NCU, $CUDA_HOME/bin, /usr/local/cuda/bin, PATH)",
     parse_switch, format_switch, FIELD(profile), 0, 0, 1},
    {"timeout-s", "S", EVALUATING | REPRODUCES, CHECKS, "60", "kill a configuration that shows no progress for S seconds",
     parse_seconds, format_double, FIELD(timeout_s), 1, 86400, 0},
    {"no-isolate", NULL, EVALUATING, CHECKS, NULL, "evaluate in this process (debugging; a crash then ends the run)",
     parse_switch, format_switch, FIELD(isolate), 0, 0, 0},
    {"no-trace", NULL, EVALUATING | REPRODUCES, CHECKS, NULL,
     "no CUPTI call monitor: no kernel-only time, no conduct findings, no cross-check of the events against CUPTI "
     "(docs/trace.md)", parse_switch, format_switch, FIELD(trace), 0, 0, 0},
    {"trace-calls", "N", EVALUATING | REPRODUCES, CHECKS, "6",
     "the first calls of each participant kept whole in trace.json (every call is judged)", parse_count,
     format_int, FIELD(trace_calls), 2, HB_TRACE_MAX_CALLS, 0},

    {"acc", "CLASS", EVALUATING, BASELINES, "fp32", "accumulator class: fp32 or fp16; torch stays fp32", parse_acc,
     format_acc, FIELD(acc), 0, 0, 0},
    {"workspace", "BYTES", EVALUATING | REPRODUCES, BASELINES, "32MiB",
     "cuBLAS / cuBLASLt workspace: bytes, or a whole number of KiB, MiB or GiB, up to 16GiB", parse_bytes,
     format_bytes, FIELD(workspace_bytes), 0, 0, 0},
    {"autotune-cache", "FILE", EVALUATING | REPRODUCES, BASELINES, NULL,
     "cuBLASLt autotune cache file, or 'none' (default: cublaslt-autotune.tsv in $HGEMM_BENCH_CACHE_DIR, "
     "$XDG_CACHE_HOME/hgemm-bench or ~/.cache/hgemm-bench)",
     parse_text, format_text, FIELD(autotune_cache), 0, 0, 0},
    {"retune", NULL, EVALUATING | REPRODUCES, BASELINES, NULL, "search again even where the cache has a choice, and replace it",
     parse_switch, format_switch, FIELD(retune), 0, 0, 1},
    {"no-autotune-search", NULL, EVALUATING | REPRODUCES, BASELINES, NULL,
     "where the cache has no choice, use the heuristic's top pick", parse_switch, format_switch,
     FIELD(autotune_search), 0, 0, 0},

    {"warmup-s", "S", TIMING_CMDS | REPRODUCES, TIMING, "10", "warm-up window per configuration, seconds", parse_seconds,
     format_double, FIELD(warmup_s), 0, 86400, 0},
    {"time-s", "S", TIMING_CMDS | REPRODUCES, TIMING, "30", "timed window per configuration, seconds; at least 10 rounds run",
     parse_seconds, format_double, FIELD(time_s), 0, 86400, 0},
    {"mode", "MODE", TIMING_CMDS, TIMING, "offline", "offline (rounds back to back) or server (random idle gaps)",
     parse_mode, format_mode, FIELD(mode), 0, 0, 0},
    {"qps", "Q", TIMING_CMDS, TIMING, NULL, "server mode: mean arrival rate, 1/Q s mean gap (default 500)", parse_qps,
     NULL, FIELD(mean_gap_ms), 0, 1e6, 0},
    {"mean-gap-ms", "MS", TIMING_CMDS | REPRODUCES, TIMING, "2", "server mode: the mean idle gap instead, in (0, 10000]",
     parse_positive, format_double, FIELD(mean_gap_ms), 0, 10000, 0},
    {"gap", "WHERE", TIMING_CMDS | REPRODUCES, TIMING, "per-call",
     "server mode: per-call (before every call) or per-round (once per round)", parse_gap, format_gap, FIELD(gap), 0,
     0, 0},
    {"l2", "POLICY", TIMING_CMDS | REPRODUCES, TIMING, "fresh",
     "fresh (new inputs every round), flush (L2 flushed before every call) or warm (the same inputs every round, "
     "stirred: one fresh element per row of A and column of B)",
     parse_l2, format_l2, FIELD(l2), 0, 0, 0},
    {"stream", "KIND", EVALUATING | REPRODUCES, TIMING, "legacy",
     "the stream every participant runs on: legacy (the legacy default stream, as torch.matmul and <<<>>> launches "
     "without a stream) or own (a non-blocking stream of the harness's)",
     parse_stream, format_stream, FIELD(stream), 0, 0, 0},
    {"target-ci", "PCT", TIMING_CMDS | REPRODUCES, TIMING, NULL,
     "end the timed window once every baseline's 95% CI half-width is below PCT percent, in (0, 100] (after "
     "--min-time-s); --time-s is then the cap",
     parse_percent, format_percent, FIELD(target_ci), 0, 100, 0},
    {"min-time-s", "S", TIMING_CMDS | REPRODUCES, TIMING, "5", "least timed window with --target-ci", parse_seconds, format_double,
     FIELD(min_time_s), 0, 86400, 0},
    {"aa", "BASELINE", CMD(HB_CMD_RUN) | CMD(HB_CMD_GATE) | SWEEPS, TIMING, NULL,
     "A/A calibration: a second instance of BASELINE (one of `hgemm-bench baselines`) is timed as the candidate; "
     "replaces --candidate",
     parse_aa, format_text, FIELD(aa), 0, 0, 0},
    {"raw", NULL, TIMING_CMDS | REPRODUCES, TIMING, NULL, "save every sample in <run>/raw/<config>.bin (docs/results.md)",
     parse_switch, format_switch, FIELD(raw), 0, 0, 1},
    {"peak-tflops", "X", TIMING_CMDS | REPRODUCES, TIMING, NULL,
     "the GPU's peak dense fp16 tensor-core TFLOP/s, in (0, 1e6], instead of the table's SMs x FLOP/clk x clock; "
     "a candidate timed faster is implausible (exit 10)",
     parse_positive, format_positive, FIELD(peak_tflops), 0, 1e6, 0},

    {"vs", "NAME", CMD(HB_CMD_GATE), GATE, "torch", "baseline for the threshold: a baseline or a -max figure",
     parse_vs, format_text, FIELD(vs), 0, 0, 0},
    {"min-speedup", "X", CMD(HB_CMD_GATE), GATE, "0",
     "least speedup t_base/t_cand - 1 per configuration (0.1 = 10%; -1 accepts any speed), in -1..1000",
     parse_number, format_double, FIELD(min_speedup), -1, 1000, 0},
    {"strict", NULL, CMD(HB_CMD_GATE), GATE, NULL,
     "also refuse a candidate whose trace shows work on another stream, allocation, synchronization, stream or "
     "event creation, a first call unlike the others, or a changed device state (exit 12)",
     parse_switch, format_switch, FIELD(strict), 0, 0, 1},
    {"forbid", "LIST", CMD(HB_CMD_GATE), GATE, NULL,
     "refuse these conduct findings (exit 12): other-stream, alloc, sync, create, first-call, device-state, "
     "multi-kernel, library-kernel, fp16-mma-only, fp16-simt-only",
     parse_forbid, format_text, FIELD(forbid), 0, 0, 0},
    {"decide", NULL, CMD(HB_CMD_GATE), GATE, NULL,
     "end each timed window as soon as the speedup's interval lies wholly above or below --min-speedup (pass only "
     "when above; undecided, exit 9, when --time-s comes first); false passes at most --decide-alpha / 2",
     parse_switch, format_switch, FIELD(decide), 0, 0, 1},
    {"decide-alpha", "A", CMD(HB_CMD_GATE), GATE, "0.05",
     "with --decide: the error spent over every look, in (0, 0.5); a pair exactly at the threshold passes with "
     "probability at most A/2",
     parse_alpha, format_double, FIELD(decide_alpha), 0, 0.5, 0},

    {"reward", "ALPHA,BETA", TIMING_CMDS, REWARD, NULL,
     "each timed configuration's reward, the paper's eq. 3: the mean over rounds of t_ref/t_cand, minus ALPHA x "
     "the mean largest |C - ref32| of the deviation checks, minus BETA x the --source file's bytes; ALPHA and BETA "
     "finite and >= 0",
     parse_reward, format_reward, FIELD(reward.on), 0, 0, 0},
    {"reward-clip", "LO,HI", TIMING_CMDS, REWARD, NULL,
     "with --reward: clip each round's t_ref/t_cand into [LO, HI] (0 <= LO < HI) before the mean, so that one "
     "glitched round cannot carry it",
     parse_reward_clip, format_reward_clip, FIELD(reward.clip), 0, 0, 0},
    {"source", "FILE", TIMING_CMDS, REWARD, NULL,
     "with --reward: the candidate's source, whose size in bytes is the code length L (required when BETA > 0)",
     parse_text, format_text, FIELD(reward.source), 0, 0, 0},

    {"kernels", "DIR", IMPORTS, INPUT, NULL, "the set's folder in a CUDA-L2 clone: kernels/<gpu>_<class>/ (required)",
     parse_text, format_text, FIELD(import.kernels_dir), 0, 0, 0},
    {"out", "SET", IMPORTS, INPUT, NULL, "the candidate set to write (required): SET/M_N_K.json, SET/cubin/, SET/import.csv",
     parse_text, format_text, FIELD(import.out_dir), 0, 0, 0},
    {"cutlass", "DIR", IMPORTS | REPRODUCES, INPUT, NULL,
     "a CUTLASS checkout (v4.2.1 for CUDA-L2); default: $CUTLASS_DIR, else a pip-installed nvidia-cutlass", parse_text,
     format_text, FIELD(import.cutlass_dir), 0, 0, 0},
    {"arch", "SM", IMPORTS | REPRODUCES, INPUT, NULL, "the target: sm_80, sm_86, sm_90a, ... (default: this GPU's, sm_90a on Hopper)",
     parse_text, format_text, FIELD(import.arch), 0, 0, 0},
    {"jobs", "N", IMPORTS | REPRODUCES, INPUT, NULL, "builds at once; also -j N (default: the number of cores)", parse_count,
     format_int, FIELD(import.jobs), 1, 1024, 0},
    {"cache", "DIR", IMPORTS | REPRODUCES, INPUT, NULL, "the build cache, keyed by content (default: SET/.cache)", parse_text,
     format_text, FIELD(import.cache_dir), 0, 0, 0},
    {"report", "NAME", IMPORTS, INPUT, NULL,
     "the build report's file name in SET (default import.csv): the shards of one reproduction import into one set, "
     "each with a report of its own",
     parse_report_name, format_text, FIELD(import.report_name), 0, 0, 0},
    {"nvcc", "PATH", IMPORTS | REPRODUCES, INPUT, NULL,
     "the nvcc to build with, e.g. another installed toolkit's for files written for it (default: "
     "$CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc)",
     parse_text, format_text, FIELD(import.nvcc), 0, 0, 0},
    {"rebuild", NULL, IMPORTS | REPRODUCES, INPUT, NULL, "build every selected file again, whatever the cache holds", parse_switch,
     format_switch, FIELD(import.rebuild), 0, 0, 1},
    {"allow-arch-mismatch", NULL, IMPORTS | REPRODUCES, INPUT, NULL,
     "build files that use Hopper-only features for a target other than sm_90a, with a warning (default: refuse them)",
     parse_switch, format_switch, FIELD(import.allow_arch_mismatch), 0, 0, 1},
    {"build-timeout", "S", IMPORTS | REPRODUCES, INPUT, "600",
     "seconds one nvcc call may take; a file past it is listed as failed (timeout) and built again by the next "
     "import", parse_seconds, format_double,
     FIELD(import.build_timeout_s), 1, 86400, 0},

    {"repo", "DIR", REPRODUCES, INPUT, NULL, "a clone of CUDA-L2: its kernels/ and eval_results/ (required)",
     parse_text, format_text, FIELD(reproduce.repo), 0, 0, 0},
    {"set", "NAME", REPRODUCES, INPUT, NULL,
     "the kernel set: h100, a100-fp32, a100-fp16 or 3090 (or its folder's name, h100_F32F16F16F32, ...) (required)",
     parse_text, format_text, FIELD(reproduce.set), 0, 0, 0},
    {"out", "DIR", REPRODUCES, INPUT, NULL,
     "the reproduction's folder: the set, the sweep, the report, the comparisons and summary.md (default: "
     "reproduce-<set>)",
     parse_text, format_text, FIELD(reproduce.out_dir), 0, 0, 0},
    {"tables-only", NULL, REPRODUCES, REPORTING, NULL,
     "only the stages that read files (report, compare, the summary page) from what --out holds: no import, no "
     "sweep, no GPU (to draw the figures where gnuplot is)",
     parse_switch, format_switch, FIELD(reproduce.tables_only), 0, 0, 1},
    {"no-plots", NULL, REPRODUCES, REPORTING, NULL, "no figures, even where gnuplot is installed", parse_switch,
     format_switch, FIELD(reproduce.no_plots), 0, 0, 1},

    {"out", "DIR", READING_CMDS, REPORTING, NULL,
     "also write every table into DIR (created if need be) as CSV, markdown and JSON; each file appears whole or "
     "not at all",
     parse_text, format_text, FIELD(report.out_dir), 0, 0, 0},
    {"format", "FORMAT", READING_CMDS, REPORTING, "md", "stdout's format: md, csv or json", parse_format,
     format_text, FIELD(report.format), 0, 0, 0},
    {"timer", "TIMER", READING_CMDS, REPORTING, "event",
     "the times behind every speedup: event (CUDA events), wall (the host's wall clock) or kernel (CUPTI's "
     "kernel-only time: the ratio of the kernel medians)", parse_timer, format_text,
     FIELD(report.timer), 0, 0, 0},
    {"plots", NULL, READING_CMDS, REPORTING, NULL, "also draw the figures into --out DIR (gnuplot: PNG and SVG)",
     parse_switch, format_switch, FIELD(report.plots), 0, 0, 1},
    {"published", "FILE", CMD(HB_CMD_COMPARE), REPORTING, NULL,
     "the published per-configuration speedups to compare with (CUDA-L2's layout); required", parse_text,
     format_text, FIELD(report.published), 0, 0, 0},
    {"mode", "MODE", CMD(HB_CMD_COMPARE), REPORTING, NULL,
     "the published file's mode, offline or server (default: from its name, ..._offline.csv or ..._server.csv)",
     parse_mode_name, format_text, FIELD(report.mode), 0, 0, 0},
    {"noise", "PCT", CMD(HB_CMD_COMPARE), REPORTING, NULL,
     "the published figures' noise in percent, in (0, 100]: a configuration within the larger of it and our own "
     "CI half-width of the published figure is the same (default: ours only)",
     parse_percent, format_percent, FIELD(report.noise), 0, 100, 0},
    {"threshold", "PCT", CMD(HB_CMD_COMPARE), REPORTING, NULL,
     "exit 15 if any configuration's speedup is below the published one beyond its noise and by more than PCT "
     "percent, in 0..1000",
     parse_threshold, format_percent, FIELD(report.threshold), 0, 1000, 0},
};

#define OPTION_COUNT (sizeof table / sizeof table[0])
#define OPT_HELP ((int)(256 + OPTION_COUNT)) /* getopt's value for --help; 256 + i for table[i] */

/* --- usage errors ------------------------------------------------------------- */

static hb_status usage_error(const char *fmt, ...) HB_PRINTF(1, 2);

static hb_status usage_error(const char *fmt, ...)
{
    char message[640];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    hb_fail(HB_ERR_USAGE, "%s", message);
    if (!hb_diag_is_quiet())
        fprintf(stderr, "Try '%s --help'.\n", hb_this_program.name);
    return HB_ERR_USAGE;
}

static void *field_of(const option_spec *o, hb_run_options *run) { return (char *)run + o->field; }
static const void *field_in(const option_spec *o, const hb_run_options *run) { return (const char *)run + o->field; }

/* --- parsers ------------------------------------------------------------------ */

static int parse_long_strict(const char *text, long *out)
{
    if (!text || !*text)
        return 0;
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0')
        return 0;
    *out = value;
    return 1;
}

/* A finite decimal number in [low, high] ((low, high] when low_open). */
static int parse_real(const char *text, double low, int low_open, double high, double *out)
{
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    int below = low_open ? value <= low : value < low;
    if (errno != 0 || end == text || *end != '\0' || !isfinite(value) || below || value > high)
        return 0;
    *out = value;
    return 1;
}

/* A file name in the set, not a path: "import-shard-0-of-4.csv". */
static hb_status parse_report_name(const option_spec *o, const char *text, hb_run_options *run)
{
    size_t n = strlen(text);
    if (!*text || strchr(text, '/') || !strcmp(text, ".") || !strcmp(text, "..") || n < 5 || strcmp(text + n - 4, ".csv"))
        return usage_error("--%s expects a file name ending in .csv (no folder), got '%s'", o->flag, text);
    return parse_text(o, text, run);
}

static hb_status parse_text(const option_spec *o, const char *text, hb_run_options *run)
{
    if (!*text)
        return usage_error("--%s expects %s, got an empty value", o->flag, o->value);
    *(const char **)field_of(o, run) = text;
    return HB_OK;
}

hb_status hb_parse_mnk(const char *text, hb_mnk *out)
{
    char buffer[96];
    if (!text || strlen(text) >= sizeof buffer)
        return usage_error("--mnk expects M,N,K, got '%s'", text ? text : "");
    strcpy(buffer, text);
    long dims[3];
    char *cursor = buffer;
    for (int i = 0; i < 3; i++) {
        char *comma = strchr(cursor, ',');
        if ((i < 2) != (comma != NULL))
            return usage_error("--mnk expects exactly three numbers M,N,K, got '%s'", text);
        if (comma)
            *comma = '\0';
        if (!parse_long_strict(cursor, &dims[i]))
            return usage_error("--mnk: '%s' is not three whole numbers M,N,K", text);
        if (dims[i] < 1 || dims[i] > HB_MAX_DIM)
            return usage_error("--mnk: every dimension must lie in 1..%ld, got '%s'", HB_MAX_DIM, text);
        cursor = comma ? comma + 1 : cursor;
    }
    *out = (hb_mnk){dims[0], dims[1], dims[2]};
    return HB_OK;
}

static hb_status parse_mnk_flag(const option_spec *o, const char *text, hb_run_options *run)
{
    (void)o;
    if (run->n_configs == HB_MAX_CONFIGS)
        return usage_error("too many --mnk (the limit is %d), at '%s'", HB_MAX_CONFIGS, text);
    return hb_parse_mnk(text, &run->configs[run->n_configs++]);
}

static hb_status parse_seed(const option_spec *o, const char *text, hb_run_options *run)
{
    char *end = NULL;
    errno = 0;
    /* A digit first: strtoull would skip blanks and negate a '-'. */
    unsigned long long value = isdigit((unsigned char)*text) ? strtoull(text, &end, 10) : 0;
    if (!isdigit((unsigned char)*text) || errno != 0 || *end != '\0')
        return usage_error("--%s expects a non-negative integer, got '%s'", o->flag, text);
    run->seed = (uint64_t)value;
    run->seed_given = 1;
    return HB_OK;
}

static hb_status parse_count(const option_spec *o, const char *text, hb_run_options *run)
{
    long value;
    if (!parse_long_strict(text, &value) || value < (long)o->low || value > (long)o->high)
        return usage_error("--%s expects a whole number in %.0f..%.0f, got '%s'", o->flag, o->low, o->high, text);
    *(int *)field_of(o, run) = (int)value;
    return HB_OK;
}

/* A number in the option's range, [low, high] or (low, high] when low_open,
 * into *out; a usage error calling the value `noun` otherwise. */
static hb_status parse_range(const option_spec *o, const char *text, int low_open, const char *noun, double *out)
{
    if (parse_real(text, o->low, low_open, o->high, out))
        return HB_OK;
    char range[64];
    snprintf(range, sizeof range, low_open ? "(%g, %g]" : "%g..%g", o->low, o->high);
    return usage_error("--%s expects %s in %s, got '%s'", o->flag, noun, range, text);
}

static hb_status parse_seconds(const option_spec *o, const char *text, hb_run_options *run)
{
    return parse_range(o, text, 0, "seconds", field_of(o, run));
}

static hb_status parse_number(const option_spec *o, const char *text, hb_run_options *run)
{
    return parse_range(o, text, 0, "a number", field_of(o, run));
}

static hb_status parse_positive(const option_spec *o, const char *text, hb_run_options *run)
{
    return parse_range(o, text, 1, "a number", field_of(o, run));
}

/* Percent on the command line, a fraction in the settings (0.01 = 1 %). */
static hb_status parse_percent(const option_spec *o, const char *text, hb_run_options *run)
{
    double percent;
    HB_TRY(parse_range(o, text, 1, "a percentage", &percent));
    *(double *)field_of(o, run) = percent / 100.0;
    return HB_OK;
}

/* compare --threshold: percent, 0 allowed (any shortfall beyond the noise), kept as a fraction. */
static hb_status parse_threshold(const option_spec *o, const char *text, hb_run_options *run)
{
    double percent;
    HB_TRY(parse_range(o, text, 0, "a percentage", &percent));
    run->report.threshold = percent / 100.0;
    run->report.threshold_given = 1;
    return HB_OK;
}

/* Calls per second, kept as the mean gap in milliseconds. */
static hb_status parse_qps(const option_spec *o, const char *text, hb_run_options *run)
{
    double qps;
    HB_TRY(parse_range(o, text, 1, "calls per second", &qps));
    if (1000.0 / qps > 10000.0)
        return usage_error("--%s: a mean gap over 10 s is not a benchmark (got '%s')", o->flag, text);
    *(double *)field_of(o, run) = 1000.0 / qps;
    return HB_OK;
}

/* Bytes: a whole number, optionally followed by KiB, MiB or GiB (binary
 * multiples); at most 16 GiB. */
static hb_status parse_bytes(const option_spec *o, const char *text, hb_run_options *run)
{
    static const struct { const char *suffix; unsigned shift; } units[] = {{"", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}};
    char *end = NULL;
    errno = 0;
    unsigned long long value = isdigit((unsigned char)*text) ? strtoull(text, &end, 10) : 0;
    for (size_t i = 0; isdigit((unsigned char)*text) && errno == 0 && i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].suffix) != 0 || value > (16ULL << 30) >> units[i].shift)
            continue;
        *(size_t *)field_of(o, run) = (size_t)(value << units[i].shift);
        return HB_OK;
    }
    return usage_error("--%s expects bytes up to 16GiB, e.g. 33554432 or 32MiB; got '%s'", o->flag, text);
}

static hb_status parse_switch(const option_spec *o, const char *text, hb_run_options *run)
{
    (void)text;
    *(int *)field_of(o, run) = o->sets;
    return HB_OK;
}

static hb_status parse_acc(const option_spec *o, const char *text, hb_run_options *run)
{
    if (strcmp(text, "fp32") && strcmp(text, "fp16"))
        return usage_error("--%s expects fp32 or fp16, got '%s'", o->flag, text);
    run->acc = !strcmp(text, "fp16") ? HB_ACC_FP16 : HB_ACC_FP32;
    return HB_OK;
}

static hb_status parse_mode(const option_spec *o, const char *text, hb_run_options *run)
{
    return hb_mode_parse(text, &run->mode) ? HB_OK
                                           : usage_error("--%s expects offline or server, got '%s'", o->flag, text);
}

static hb_status parse_gap(const option_spec *o, const char *text, hb_run_options *run)
{
    return hb_gap_parse(text, &run->gap) ? HB_OK
                                         : usage_error("--%s expects per-call or per-round, got '%s'", o->flag, text);
}

static hb_status parse_l2(const option_spec *o, const char *text, hb_run_options *run)
{
    return hb_l2_policy_parse(text, &run->l2)
               ? HB_OK
               : usage_error("--%s expects fresh, flush or warm, got '%s'", o->flag, text);
}

static hb_status parse_rule(const option_spec *o, const char *text, hb_run_options *run)
{
    return hb_deviation_rule_parse(text, &run->deviation_rule)
               ? HB_OK
               : usage_error("--%s expects ulp-excess or paper, got '%s'", o->flag, text);
}

static hb_status parse_stream(const option_spec *o, const char *text, hb_run_options *run)
{
    return hb_stream_policy_parse(text, &run->stream)
               ? HB_OK
               : usage_error("--%s expects legacy or own, got '%s'", o->flag, text);
}

/* host-time is a figure, not a fault: never forbidden. */
static hb_status parse_forbid(const option_spec *o, const char *text, hb_run_options *run)
{
    unsigned mask;
    char bad[64];
    if (!hb_finding_parse_list(text, &mask, bad, sizeof bad) || (mask & HB_FINDING_BIT(HB_FINDING_HOST_TIME)))
        return usage_error("--%s expects a comma-separated list of other-stream, alloc, sync, create, first-call, "
                           "device-state, multi-kernel, library-kernel, fp16-mma-only, fp16-simt-only; got '%s'",
                           o->flag, mask ? "host-time" : bad);
    run->forbid = text;
    return HB_OK;
}

/* NULL (the flag alone): memcheck, as before the tools were a list. */
static hb_status parse_sanitize(const option_spec *o, const char *text, hb_run_options *run)
{
    char bad[64];
    unsigned tools = text ? hb_sanitizer_parse_list(text, bad, sizeof bad) : HB_SANITIZE_BIT(HB_SANITIZE_MEMCHECK);
    if (!tools)
        return usage_error("--%s takes memcheck, racecheck, synccheck or a comma-separated list of them; got '%s'",
                           o->flag, bad);
    run->sanitize = 1;
    run->sanitize_tools = tools;
    return HB_OK;
}

static hb_status parse_vs(const option_spec *o, const char *text, hb_run_options *run)
{
    if (!hb_baseline_name_known(text))
        return usage_error("--%s expects one of %s; got '%s'", o->flag, hb_baseline_name_list(1), text);
    run->vs = text;
    return HB_OK;
}

static hb_status parse_aa(const option_spec *o, const char *text, hb_run_options *run)
{
    const hb_baseline_entry *entry = hb_baseline_find(text);
    if (!entry)
        return usage_error("--%s expects a baseline: %s; got '%s'", o->flag, hb_baseline_name_list(0), text);
    run->aa = entry->name;
    return HB_OK;
}

/* An error rate: (low, high), both ends open. */
static hb_status parse_alpha(const option_spec *o, const char *text, hb_run_options *run)
{
    double value;
    if (!parse_real(text, o->low, 1, o->high, &value) || value >= o->high)
        return usage_error("--%s expects an error rate in (%g, %g), got '%s'", o->flag, o->low, o->high, text);
    *(double *)field_of(o, run) = value;
    return HB_OK;
}

static hb_status parse_format(const option_spec *o, const char *text, hb_run_options *run)
{
    hb_report_format format;
    if (!hb_report_format_parse(text, &format))
        return usage_error("--%s expects md, csv or json, got '%s'", o->flag, text);
    run->report.format = text;
    return HB_OK;
}

static hb_status parse_timer(const option_spec *o, const char *text, hb_run_options *run)
{
    hb_timer timer;
    if (!hb_timer_parse(text, &timer))
        return usage_error("--%s expects event, wall or kernel, got '%s'", o->flag, text);
    run->report.timer = text;
    return HB_OK;
}

static hb_status parse_mode_name(const option_spec *o, const char *text, hb_run_options *run)
{
    hb_mode mode;
    if (!hb_mode_parse(text, &mode))
        return usage_error("--%s expects offline or server, got '%s'", o->flag, text);
    run->report.mode = text;
    return HB_OK;
}

/* "A,B": two finite numbers >= 0, one comma between them. */
static int parse_number_pair(const char *text, double *first, double *second)
{
    char buffer[128];
    const char *comma = strchr(text, ',');
    if (!comma || strchr(comma + 1, ',') || strlen(text) >= sizeof buffer)
        return 0;
    snprintf(buffer, sizeof buffer, "%.*s", (int)(comma - text), text);
    return *buffer && parse_real(buffer, 0, 0, HUGE_VAL, first) && parse_real(comma + 1, 0, 0, HUGE_VAL, second);
}

static hb_status parse_reward(const option_spec *o, const char *text, hb_run_options *run)
{
    if (!parse_number_pair(text, &run->reward.alpha, &run->reward.beta))
        return usage_error("--%s expects ALPHA,BETA, two finite numbers >= 0 (e.g. 0.1,0.001), got '%s'", o->flag,
                           text);
    run->reward.on = 1;
    return HB_OK;
}

static hb_status parse_reward_clip(const option_spec *o, const char *text, hb_run_options *run)
{
    double low, high;
    if (!parse_number_pair(text, &low, &high) || !(low < high))
        return usage_error("--%s expects LO,HI, two finite numbers with 0 <= LO < HI (e.g. 0,4), got '%s'", o->flag,
                           text);
    run->reward.clip = 1;
    run->reward.clip_low = low;
    run->reward.clip_high = high;
    return HB_OK;
}

/* --- the value as a flag takes it ---------------------------------------------- */

static int format_text(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    const char *text = *(const char *const *)field_in(o, run);
    return text && snprintf(out, size, "%s", text) >= 0;
}

static int format_int(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    return snprintf(out, size, "%d", *(const int *)field_in(o, run)) >= 0;
}

/* A seed only when one was given: the default is "from the clock", not 0. */
static int format_seed(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return run->seed_given && snprintf(out, size, "%llu", (unsigned long long)run->seed) >= 0;
}

/* %.17g: every double reads back bit for bit. */
static int format_double(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    return snprintf(out, size, "%.17g", *(const double *)field_in(o, run)) >= 0;
}

static int format_percent(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    double fraction = *(const double *)field_in(o, run);
    return fraction > 0 && snprintf(out, size, "%.17g", fraction * 100.0) >= 0;
}

/* A number that is off at 0 (its default): written only when set. */
static int format_positive(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    double value = *(const double *)field_in(o, run);
    return value > 0 && snprintf(out, size, "%.17g", value) >= 0;
}

static int format_bytes(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    return snprintf(out, size, "%zu", *(const size_t *)field_in(o, run)) >= 0;
}

static int format_switch(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)size;
    out[0] = '\0';
    return *(const int *)field_in(o, run) == o->sets;
}

static int format_sanitize(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    if (!run->sanitize)
        return 0;
    hb_sanitizer_list(run->sanitize_tools, out, size);
    return 1;
}

static int format_reward(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return run->reward.on && snprintf(out, size, "%.17g,%.17g", run->reward.alpha, run->reward.beta) >= 0;
}

static int format_reward_clip(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return run->reward.clip && snprintf(out, size, "%.17g,%.17g", run->reward.clip_low, run->reward.clip_high) >= 0;
}

static int format_acc(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_acc_class_name(run->acc)) >= 0;
}

static int format_mode(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_mode_name(run->mode)) >= 0;
}

static int format_gap(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_gap_name(HB_MODE_SERVER, run->gap)) >= 0;
}

static int format_l2(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_l2_policy_name(run->l2)) >= 0;
}

static int format_stream(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_stream_policy_name(run->stream)) >= 0;
}

static int format_rule(const option_spec *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_deviation_rule_name(run->deviation_rule)) >= 0;
}

/* --- defaults ------------------------------------------------------------------- */

/* Every field from the table's defaults, through the same parsers as the
 * command line: the default --help prints is the one that applies. */
static void set_defaults(hb_run_options *run)
{
    memset(run, 0, sizeof *run);
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        const option_spec *o = &table[i];
        if (!o->value)
            *(int *)field_of(o, run) = !o->sets;
        else if (o->fallback && o->parse(o, o->fallback, run) != HB_OK)
            abort(); /* a default the table's own parser refuses: a harness bug, caught by every test */
    }
}

static const hb_run_options *defaults(void)
{
    static hb_run_options value;
    static int ready;
    if (!ready) {
        set_defaults(&value);
        ready = 1;
    }
    return &value;
}

/* --- parsing a command line ------------------------------------------------------- */

/* The commands of every row of `flag`. */
static unsigned commands_of_flag(const char *flag)
{
    unsigned commands = 0;
    for (size_t i = 0; i < OPTION_COUNT; i++)
        if (!strcmp(table[i].flag, flag))
            commands |= table[i].commands;
    return commands;
}

static const char *command_names_taking(const option_spec *o, char *out, size_t size)
{
    unsigned commands = commands_of_flag(o->flag);
    out[0] = '\0';
    for (size_t i = 0; i < hb_command_count(); i++) {
        const hb_command_entry *c = hb_command_at(i);
        size_t used = strlen(out);
        if (commands & CMD(c->id))
            snprintf(out + used, size - used, "%s%s", used ? ", " : "", c->name);
    }
    return out;
}

/* The row `command` reads `flag` by (the flag's rows are for disjoint
 * commands), or NULL if it takes the flag by none. */
static const option_spec *row_for(const char *flag, hb_command command)
{
    for (size_t i = 0; i < OPTION_COUNT; i++)
        if (!strcmp(table[i].flag, flag) && (table[i].commands & CMD(command)))
            return &table[i];
    return NULL;
}

/* 1 if no earlier row has table[i]'s flag. */
static int first_row_of_flag(size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (!strcmp(table[j].flag, table[i].flag))
            return 0;
    return 1;
}

/* A value named "[NAME]" may be left out. */
static int value_optional(const option_spec *o)
{
    return o->value && o->value[0] == '[';
}

/* 1 when `word` after a flag whose value is optional is that value, not an operand. */
static int optional_value_word(const option_spec *o, const char *word)
{
    char bad[64];
    return o->parse == parse_sanitize && hb_sanitizer_parse_list(word, bad, sizeof bad) != 0;
}

static int argument_kind(const option_spec *o)
{
    return !o->value ? no_argument : value_optional(o) ? optional_argument : required_argument;
}

/* getopt's table: each flag once, by its first row (the row a command reads
 * it by is then row_for's). */
static const struct option *long_options(void)
{
    static struct option options[OPTION_COUNT + 2];
    size_t count = 0;
    for (size_t i = 0; i < OPTION_COUNT; i++)
        if (first_row_of_flag(i))
            options[count++] = (struct option){table[i].flag, argument_kind(&table[i]), NULL, (int)(256 + i)};
    options[count] = (struct option){"help", no_argument, NULL, OPT_HELP};
    options[count + 1] = (struct option){NULL, 0, NULL, 0};
    return options;
}

/* getopt's answer for argv[optind - 1] that is not a table flag. */
static hb_status bad_flag(int option, char **argv)
{
    if (option == '?' && optopt > 0 && optopt < 256)
        return usage_error("unknown option '-%c'", (char)optopt);
    if (option == ':')
        return usage_error("option '%s' needs a value", argv[optind - 1]);
    return usage_error("unknown option '%s'", argv[optind - 1]);
}

static int given(const unsigned char *seen, const char *flag)
{
    for (size_t i = 0; i < OPTION_COUNT; i++)
        if (!strcmp(table[i].flag, flag) && seen[i])
            return 1;
    return 0;
}

/* A sweep's server mode is in --modes; a run's is --mode. */
static int server_mode_planned(const hb_run_options *run)
{
    return run->mode == HB_MODE_SERVER || (run->modes && strstr(run->modes, "server"));
}

/* How many of the sweep's plan sources were given (--grid, --mnk-file, the
 * axes, --mnk): exactly one is. */
static int plan_sources(const hb_run_options *run, const unsigned char *seen)
{
    return (run->grid != NULL) + (run->mnk_file != NULL) + (run->n_configs > 0) +
           (given(seen, "m") || given(seen, "n") || given(seen, "k"));
}

/* --resume takes the plan and every setting from the sweep folder; only
 * where and how it is watched may change. */
static hb_status check_resume_alone(const unsigned char *seen)
{
    static const char *const may_change[] = {"resume", "devices", "no-progress", "verdict", NULL};
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        int allowed = 0;
        for (const char *const *f = may_change; *f; f++)
            allowed |= !strcmp(*f, table[i].flag);
        if (seen[i] && !allowed)
            return usage_error("--resume continues a sweep with its own plan and settings; --%s cannot be given "
                               "with it (only --devices, --no-progress and --verdict can)", table[i].flag);
    }
    return HB_OK;
}

static hb_status check_sweep_relations(const hb_run_options *run, const unsigned char *seen)
{
    if (run->resume)
        return check_resume_alone(seen);
    int sources = plan_sources(run, seen);
    if (sources != 1)
        return usage_error("sweep: %s (--grid paper, --mnk-file FILE, --m LIST --n LIST --k LIST, or --mnk M,N,K)",
                           sources ? "give one plan, not several" : "a plan is required");
    if ((given(seen, "m") || given(seen, "n") || given(seen, "k")) && !(run->m_list && run->n_list && run->k_list))
        return usage_error("sweep: --m, --n and --k go together: the plan is every combination of the three lists");
    if (run->modes && given(seen, "mode"))
        return usage_error("--modes and --mode say the same thing for a sweep; give one");
    if (!run->isolate)
        return usage_error("sweep always evaluates each configuration in its own process; --no-isolate is for run");
    if (run->devices && given(seen, "device"))
        return usage_error("--devices and --device name the GPUs of a sweep both; give one");
    return HB_OK;
}

/* --reward-clip and --source refine --reward; BETA > 0 weighs a code length
 * that only --source gives (a manifest names no source file). */
static hb_status check_reward_relations(const hb_reward_settings *reward)
{
    if (!reward->on && (reward->clip || reward->source))
        return usage_error("--%s applies with --reward ALPHA,BETA", reward->clip ? "reward-clip" : "source");
    if (reward->on && reward->beta > 0 && !reward->source)
        return usage_error("--reward %g,%g weighs the candidate's code length (BETA > 0), and a manifest names no "
                           "source file: give --source FILE (the candidate's source), or BETA 0",
                           reward->alpha, reward->beta);
    return HB_OK;
}

/* Flags that only make sense together, or not at all together. */
static hb_status check_relations(const hb_run_options *run, const unsigned char *seen, const hb_command_entry *c)
{
    if (c->id == HB_CMD_SWEEP)
        HB_TRY(check_sweep_relations(run, seen));
    if (run->resume)
        return HB_OK;
    if (given(seen, "qps") && given(seen, "mean-gap-ms"))
        return usage_error("--qps and --mean-gap-ms set the same thing; give one");
    if (!server_mode_planned(run) && (given(seen, "qps") || given(seen, "mean-gap-ms") || given(seen, "gap")))
        return usage_error("--qps, --mean-gap-ms and --gap apply to --mode server%s",
                           c->id == HB_CMD_SWEEP ? " (--modes with server, for a sweep)" : "");
    if (given(seen, "min-time-s") && run->target_ci <= 0)
        return usage_error("--min-time-s applies with --target-ci");
    if (given(seen, "decide-alpha") && !run->decide)
        return usage_error("--decide-alpha applies with --decide");
    if (run->decide && run->target_ci > 0)
        return usage_error("--decide and --target-ci both end the timed window early; give one (--decide judges the "
                           "threshold, --target-ci a CI width)");
    if (run->aa && run->candidate_path)
        return usage_error("--aa %s times a baseline as the candidate; drop --candidate", run->aa);
    if (run->aa && run->sanitize)
        return usage_error("--sanitize checks a candidate's kernel; it does not apply to --aa %s", run->aa);
    if (run->aa && run->profile)
        return usage_error("--profile profiles a candidate's kernels beside a baseline's; it does not apply to --aa %s",
                           run->aa);
    if (run->retune && !run->autotune_search)
        return usage_error("--retune and --no-autotune-search contradict each other");
    HB_TRY(check_reward_relations(&run->reward));
    if ((run->strict || run->forbid) && (!run->trace || !run->isolate))
        return usage_error("--%s judges what the call monitor finds; it cannot apply with %s",
                           run->strict ? "strict" : "forbid", run->trace ? "--no-isolate (no call monitor)" : "--no-trace");
    if (!run->candidate_path && !run->aa)
        return usage_error("%s: --candidate PATH is required%s", c->name,
                           c->id == HB_CMD_RUN || c->id == HB_CMD_GATE ? " (or, for an A/A calibration, --aa BASELINE)"
                                                                         : "");
    if (run->n_configs == 0 && c->id != HB_CMD_SWEEP)
        return usage_error("%s: at least one --mnk M,N,K is required", c->name);
    return HB_OK;
}

/* The words after the flags (getopt_long moved them to the end): the
 * operands of a command that takes them, a usage error for one that does not. */
static hb_status take_operands(const hb_command_entry *c, int argc, char **argv, hb_cli *cli)
{
    cli->operands = argv + optind;
    cli->n_operands = (size_t)(argc - optind);
    if (!c->operands && cli->n_operands)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (c->operands && cli->n_operands < 1)
        return usage_error("%s: give %s", c->name, c->operands);
    return HB_OK;
}

/* reproduce: what its flags need of each other (the stages check the rest). */
static hb_status check_reproduce_relations(const hb_run_options *run, const unsigned char *seen)
{
    int sources = !!run->grid + !!run->mnk_file + !!(given(seen, "m") || given(seen, "n") || given(seen, "k"));
    if (sources > 1)
        return usage_error("reproduce: give one plan, not several (--grid paper, --mnk-file FILE or --m/--n/--k)");
    if ((given(seen, "m") || given(seen, "n") || given(seen, "k")) && !(run->m_list && run->n_list && run->k_list))
        return usage_error("reproduce: --m, --n and --k go together: the plan is every combination of the three lists");
    if (!run->reproduce.repo || !run->reproduce.set)
        return usage_error("reproduce: --repo DIR (a CUDA-L2 clone) and --set NAME are required");
    int server = !run->modes || strstr(run->modes, "server"); /* reproduce's default: both modes */
    if (!server && (given(seen, "mean-gap-ms") || given(seen, "gap")))
        return usage_error("--mean-gap-ms and --gap apply to the server mode: --modes with server");
    return HB_OK;
}

/* report and compare: what their flags need of each other. */
static hb_status check_reading_relations(const hb_run_options *run, const hb_command_entry *c)
{
    if (c->id == HB_CMD_COMPARE && !run->report.published)
        return usage_error("compare: --published FILE.csv is required (the published speedups to compare with)");
    if (run->report.plots && !run->report.out_dir)
        return usage_error("%s: --plots draws figure files: give --out DIR for them", c->name);
    return HB_OK;
}

/* The first row of `flag` (one that exists: a name from this file). */
static size_t row_index(const char *flag)
{
    size_t i = 0;
    while (i + 1 < OPTION_COUNT && strcmp(table[i].flag, flag) != 0)
        i++;
    return i;
}

static hb_status parse_command(const hb_command_entry *c, int argc, char **argv, hb_cli *cli)
{
    hb_run_options *run = &cli->run;
    *run = *defaults();
    unsigned char seen[OPTION_COUNT] = {0};
    optind = 0; /* 0, not 1: glibc then also resets its scan state inside a -xyz cluster */
    opterr = 0; /* we word the messages ourselves */
    int option;
    while ((option = getopt_long(argc, argv, ":j:", long_options(), NULL)) != -1) {
        if (option == 'j')
            option = 256 + (int)row_index("jobs"); /* -j N, as make takes it: --jobs N */
        if (option == OPT_HELP) {
            cli->command = HB_CMD_HELP;
            cli->help_for = c->id;
            return HB_OK;
        }
        if (option < 256 || option >= OPT_HELP)
            return bad_flag(option, argv);
        const option_spec *o = row_for(table[option - 256].flag, c->id);
        char takers[128];
        if (!o)
            return usage_error("--%s does not apply to '%s' (it applies to %s)", table[option - 256].flag, c->name,
                               command_names_taking(&table[option - 256], takers, sizeof takers));
        seen[o - table] = 1;
        /* An optional value in the next word ("--sanitize racecheck"), when that word is one the flag takes. */
        if (value_optional(o) && !optarg && optind < argc && optional_value_word(o, argv[optind]))
            optarg = argv[optind++];
        HB_TRY(o->parse(o, optarg, run));
    }
    HB_TRY(take_operands(c, argc, argv, cli));
    if (c->evaluates)
        HB_TRY(check_relations(run, seen, c));
    if (c->id == HB_CMD_REPORT || c->id == HB_CMD_COMPARE)
        HB_TRY(check_reading_relations(run, c));
    if (c->id == HB_CMD_REPRODUCE)
        HB_TRY(check_reproduce_relations(run, seen));
    run->check_only = c->id == HB_CMD_CHECK;
    run->gate = c->id == HB_CMD_GATE;
    cli->command = c->id;
    return HB_OK;
}

/* `help [COMMAND]`. */
static hb_status parse_help(int argc, char **argv, hb_cli *cli)
{
    cli->command = HB_CMD_HELP;
    cli->help_for = HB_CMD_NONE;
    if (argc > 3)
        return usage_error("help takes one command name, got '%s' too", argv[3]);
    if (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))
        return HB_OK; /* `help --help`: the overview, as `help` */
    if (argc == 3) {
        const hb_command_entry *c = hb_command_find(argv[2]);
        if (!c)
            return usage_error("help: unknown command '%s'", argv[2]);
        cli->help_for = c->id;
    }
    return HB_OK;
}

hb_status hb_cli_parse(int argc, char **argv, hb_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    if (argc < 2)
        return usage_error("no command given");
    const char *word = argv[1];
    if (!strcmp(word, "--help") || !strcmp(word, "-h"))
        return parse_help(2, argv, cli);
    if (!strcmp(word, "--version")) {
        cli->command = HB_CMD_VERSION;
        return HB_OK;
    }
    const hb_command_entry *c = hb_command_find(word);
    if (!c) {
        char names[256] = "";
        for (size_t i = 0; i < hb_command_count(); i++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", hb_command_at(i)->name);
        }
        return usage_error("unknown command '%s' (commands: %s)", word, names);
    }
    if (c->id == HB_CMD_HELP)
        return parse_help(argc, argv, cli);
    return parse_command(c, argc - 1, argv + 1, cli);
}

/* --- help ------------------------------------------------------------------------- */

#define HELP_COLUMN 23 /* where each flag's description starts */
#define HELP_WIDTH 100

static void print_option(FILE *out, const option_spec *o)
{
    char flag[64], text[512];
    snprintf(flag, sizeof flag, "--%s%s%s", o->flag, o->value ? " " : "", o->value ? o->value : "");
    int column = fprintf(out, "  %-*s", HELP_COLUMN - 3, flag);
    if (column > HELP_COLUMN - 1) {
        fprintf(out, "\n%*s", HELP_COLUMN - 1, "");
        column = HELP_COLUMN - 1;
    }
    if (o->value && o->fallback)
        snprintf(text, sizeof text, "%s (default %s)", o->help, o->fallback);
    else
        snprintf(text, sizeof text, "%s", o->help);
    fputc(' ', out);
    hb_print_wrapped(out, text, column + 1, HELP_COLUMN, HELP_WIDTH);
}

void hb_options_print_help(FILE *out, hb_command command)
{
    for (int s = 0; s < SECTION_COUNT; s++) {
        int heading = 0;
        for (size_t i = 0; i < OPTION_COUNT; i++) {
            if (table[i].section != (section)s || !(table[i].commands & CMD(command)))
                continue;
            if (!heading++)
                fprintf(out, "\n%s:\n", section_heading[s]);
            print_option(out, &table[i]);
        }
    }
}

/* --- child command lines ------------------------------------------------------------ */

void hb_argv_add(hb_argv *argv, const char *word)
{
    size_t length = strlen(word) + 1;
    if (argv->count == HB_ARGV_MAX || argv->used + length > sizeof argv->text) {
        argv->overflow = 1;
        return;
    }
    argv->word[argv->count++] = memcpy(argv->text + argv->used, word, length);
    argv->word[argv->count] = NULL;
    argv->used += length;
}

static int listed(const char *flag, const char *const *names)
{
    for (; names && *names; names++)
        if (!strcmp(flag, *names))
            return 1;
    return 0;
}

hb_status hb_argv_add_options(hb_argv *argv, const hb_run_options *run, hb_command command, const char *const *except)
{
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        const option_spec *o = &table[i];
        char value[4200], fallback[4200], flag[64];
        if (!(o->commands & CMD(command)) || !o->format || listed(o->flag, except))
            continue;
        int has = o->format(o, run, value, sizeof value);
        int had = o->format(o, defaults(), fallback, sizeof fallback);
        if (!has || (had && !strcmp(value, fallback)))
            continue;
        snprintf(flag, sizeof flag, "--%s", o->flag);
        hb_argv_add(argv, flag);
        if (o->value)
            hb_argv_add(argv, value);
    }
    if (argv->overflow)
        return hb_fail(HB_ERR_INTERNAL, "a child's command line does not fit in %d words or %zu bytes", HB_ARGV_MAX,
                       sizeof argv->text);
    return HB_OK;
}

/* --- for tests ------------------------------------------------------------------------- */

size_t hb_option_count(void) { return OPTION_COUNT; }

const char *hb_option_flag(size_t i) { return i < OPTION_COUNT ? table[i].flag : NULL; }

int hb_option_applies(size_t i, hb_command command) { return i < OPTION_COUNT && (table[i].commands & CMD(command)); }

int hb_option_flag_applies(const char *flag, hb_command command) { return row_for(flag, command) != NULL; }

int hb_option_value_text(size_t i, const hb_run_options *run, char *out, size_t size)
{
    return i < OPTION_COUNT && table[i].format && table[i].format(&table[i], run, out, size);
}
