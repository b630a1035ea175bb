#include "bench/driver/option_groups.h"

#include <stdio.h>
#include <string.h>

#include "bench/analysis/doc_writers.h"
#include "bench/analysis/result_set.h"
#include "bench/core/diag.h"
#include "bench/driver/option_values.h"
#include "bench/measure/cross_check_rounds.h"
#include "bench/result/baseline_registry.h"
#include "bench/result/call_trace.h"
#include "bench/result/reference_tolerance.h"
#include "bench/result/sanitize_record.h"

/* Seconds lie in 0..86400 (a day); counts are bounded so that a typo cannot
 * ask for a month of repetitions. */

/* --- the flag every command takes ------------------------------------------------ */

/* At once: the errors of the rest of this parse name their source line too. */
static hb_status parse_verbose(const hb_option_row *o, const char *text, hb_run_options *run)
{
    hb_diag_set_verbose(1);
    return hb_opt_parse_switch(o, text, run);
}

static const hb_option_row common_rows[] = {
    {.flag = "verbose", .section = HB_SECTION_GENERAL, .parse = parse_verbose, .format = hb_opt_format_switch,
     .sets = 1, HB_OPTION_FIELD(verbose),
     .help = "every error also names the source line that found it (for a bug report); passed on to the "
             "processes the command starts",
     .doc = "every error message also names the file and line of the harness that found it (`[bench/...c:N]`), "
            "for a bug report; the harness's own faults (exit 1) always do. Passed on to the processes a command "
            "starts (a sweep's configurations, reproduce's stages, the `--sanitize` and `--profile` passes)"},
};
const hb_option_group hb_common_options = HB_OPTION_GROUP(common_rows);
const hb_option_group *const hb_common_option_list[] = {&hb_common_options, NULL};

/* --- the configurations ------------------------------------------------------------ */

static hb_status parse_mnk_flag(const hb_option_row *o, const char *text, hb_run_options *run)
{
    (void)o;
    if (run->n_configs == HB_MAX_CONFIGS)
        return hb_fail(HB_ERR_USAGE, "too many --mnk (the limit is %d), at '%s'", HB_MAX_CONFIGS, text);
    return hb_parse_mnk(text, &run->configs[run->n_configs++]);
}

static const hb_option_row mnk_rows[] = {
    {.flag = "mnk", .value = "M,N,K", .section = HB_SECTION_INPUT, .parse = parse_mnk_flag,
     .help = "a configuration; repeat for several (at most 4096), each dimension 1..262144", .doc_default = "required",
     .doc = "a configuration; repeat for several (at most 4096). Each dimension 1..262144"},
};
const hb_option_group hb_mnk_options = HB_OPTION_GROUP(mnk_rows);

/* --- what is evaluated --------------------------------------------------------------- */

static hb_status parse_acc(const hb_option_row *o, const char *text, hb_run_options *run)
{
    if (strcmp(text, "fp32") && strcmp(text, "fp16"))
        return hb_fail(HB_ERR_USAGE, "--%s expects fp32 or fp16, got '%s'", o->flag, text);
    run->acc = !strcmp(text, "fp16") ? HB_ACC_FP16 : HB_ACC_FP32;
    return HB_OK;
}

static int format_acc(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_acc_class_name(run->acc)) >= 0;
}

static hb_status parse_form(const hb_option_row *o, const char *text, hb_run_options *run)
{
    if (strcmp(text, "replay") && strcmp(text, "launcher"))
        return hb_fail(HB_ERR_USAGE, "--%s expects replay or launcher, got '%s'", o->flag, text);
    run->form = !strcmp(text, "launcher") ? HB_FORM_CHOICE_LAUNCHER : HB_FORM_CHOICE_REPLAY;
    return HB_OK;
}

static int format_form(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", run->form == HB_FORM_CHOICE_LAUNCHER ? "launcher" : "replay") >= 0;
}

static const hb_option_row evaluating_rows[] = {
    {.flag = "candidate", .value = "PATH", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(candidate_path),
     .help = "manifest.json of one candidate, or a candidate-set folder holding M_N_K.json files and optionally "
             "generic.json",
     .doc_default = "required", .doc = "a manifest file, or a candidate-set folder (docs/candidates.md)"},
    {.flag = "form", .value = "FORM", .section = HB_SECTION_INPUT, .fallback = "replay", .parse = parse_form,
     .format = format_form, HB_OPTION_FIELD(form),
     .help = "what a launcher candidate is timed as: replay (its launches, recorded once per configuration, issued "
             "by the harness; a launcher with no replay is timed as a launcher, and summary.csv says why) or "
             "launcher (its own host code); a cubin candidate has one form",
     .doc = "what a launcher candidate is timed as (docs/launchers.md, \"The replay form\"): `replay`, its kernel "
            "launches, memsets and copies recorded once per configuration in a throwaway process and issued by the "
            "harness from their cubins, so no host code of the candidate runs where it is timed; or `launcher`, "
            "its own host code, sealed. A launcher that has no replay (its calls differ, it reads device data on "
            "the host, its kernels are a library's, ...) is timed as a launcher, and summary.csv's `form`, "
            "`replay_refusal` and `replay_reason` say so and why. A cubin candidate has one form, `cubin`, "
            "whatever this says"},
    {.flag = "device", .value = "N", .section = HB_SECTION_INPUT, .fallback = "0", HB_OPT_COUNT(0, 1024),
     HB_OPTION_FIELD(device), .help = "CUDA device ordinal"},
    {.flag = "verdict", .value = "FILE", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(verdict_path),
     .help = "also write the verdict JSON to FILE (always in the run folder)",
     .doc = "also write the verdict JSON to FILE (it is always written to the run folder); FILE's folder must "
            "exist (checked before the run starts: exit 7)"},
    {.flag = "no-isolate", .section = HB_SECTION_CHECKS, HB_OPT_SWITCH(0), HB_OPTION_FIELD(isolate),
     .help = "evaluate in this process (debugging; a crash then ends the run)",
     .doc = "evaluate in this process, for debuggers; a crash then ends the run (`sweep` refuses it: its workers "
            "always isolate)"},
    {.flag = "acc", .value = "CLASS", .section = HB_SECTION_BASELINES, .fallback = "fp32", .parse = parse_acc,
     .format = format_acc, HB_OPTION_FIELD(acc), .help = "accumulator class: fp32 or fp16; torch stays fp32",
     .doc = "accumulator class of the run, `fp32` or `fp16` (docs/methodology.md, \"Participants\"): the "
            "baselines' compute and scale types; the candidate must claim the same class. torch stays fp32 in "
            "both"},
};
const hb_option_group hb_evaluating_options = HB_OPTION_GROUP(evaluating_rows);

/* --- how each configuration is checked ------------------------------------------------- */

static hb_status parse_rule(const hb_option_row *o, const char *text, hb_run_options *run)
{
    return hb_deviation_rule_parse(text, &run->deviation_rule)
               ? HB_OK
               : hb_fail(HB_ERR_USAGE, "--%s expects ulp-excess or paper, got '%s'", o->flag, text);
}

static int format_rule(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_deviation_rule_name(run->deviation_rule)) >= 0;
}

/* NULL (the flag alone): memcheck, as before the tools were a list. */
static hb_status parse_sanitize(const hb_option_row *o, const char *text, hb_run_options *run)
{
    char bad[64];
    unsigned tools = text ? hb_sanitizer_parse_list(text, bad, sizeof bad) : HB_SANITIZE_BIT(HB_SANITIZE_MEMCHECK);
    if (!tools)
        return hb_fail(HB_ERR_USAGE, "--%s takes memcheck, racecheck, synccheck or a comma-separated list of them; "
                       "got '%s'", o->flag, bad);
    run->sanitize = 1;
    run->sanitize_tools = tools;
    return HB_OK;
}

static int format_sanitize(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    if (!run->sanitize)
        return 0;
    hb_sanitizer_list(run->sanitize_tools, out, size);
    return 1;
}

/* "--sanitize racecheck": the next word is its value when it names tools, an operand otherwise. */
static int sanitize_word(const char *word)
{
    char bad[64];
    return hb_sanitizer_parse_list(word, bad, sizeof bad) != 0;
}

static hb_status parse_stream(const hb_option_row *o, const char *text, hb_run_options *run)
{
    return hb_stream_policy_parse(text, &run->stream)
               ? HB_OK
               : hb_fail(HB_ERR_USAGE, "--%s expects legacy or own, got '%s'", o->flag, text);
}

static int format_stream(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_stream_policy_name(run->stream)) >= 0;
}

static hb_status parse_sandbox(const hb_option_row *o, const char *text, hb_run_options *run)
{
    if (strcmp(text, "on") && strcmp(text, "off"))
        return hb_fail(HB_ERR_USAGE, "--%s expects on or off, got '%s'", o->flag, text);
    run->sandbox = !strcmp(text, "on");
    return HB_OK;
}

static int format_sandbox(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", run->sandbox ? "on" : "off") >= 0;
}

static const hb_option_row check_rows[] = {
    {.flag = "no-progress", .section = HB_SECTION_INPUT, HB_OPT_SWITCH(0), HB_OPTION_FIELD(progress),
     .help = "no progress line on stderr",
     .doc = "no progress line on stderr (it is rewritten in place on a terminal, printed every 10 s otherwise)"},
    {.flag = "exact-reps", .value = "N", .section = HB_SECTION_CHECKS, .fallback = "3", HB_OPT_COUNT(1, 1000),
     HB_OPTION_FIELD(exact_reps), .help = "repetitions of each exact-match check on fresh inputs",
     .doc = "repetitions of each exact-match check on fresh inputs, 1..1000"},
    {.flag = "exact-time-s", .value = "S", .section = HB_SECTION_CHECKS, .fallback = "10", HB_OPT_SECONDS(0, 86400),
     HB_OPTION_FIELD(exact_time_s), .help = "stop repeating them after S seconds; the first always runs",
     .doc = "stop repeating them after S seconds (the first repetition always runs)"},
    {.flag = "deviation-reps", .value = "N", .section = HB_SECTION_CHECKS, .fallback = "1", HB_OPT_COUNT(1, 1000),
     HB_OPTION_FIELD(deviation_reps), .help = "deviation checks before timing, each on fresh random inputs",
     .doc = "deviation checks before timing, each on fresh random-normal inputs, 1..1000"},
    {.flag = "deviation-rule", .value = "RULE", .section = HB_SECTION_CHECKS, .fallback = "ulp-excess",
     .parse = parse_rule, .format = format_rule, HB_OPTION_FIELD(deviation_rule),
     .help = "the deviation rule whose verdict counts: ulp-excess, or paper (the paper's literal rule); both are "
             "reported",
     .doc = "the deviation rule whose verdict counts: `ulp-excess` (docs/methodology.md, \"The deviation rule\") "
            "or `paper`, the paper's literal rule; both rules' figures are always reported"},
    /* "[TOOLS]": the value is optional (--sanitize alone is memcheck), given as --sanitize=TOOLS or --sanitize TOOLS. */
    {.flag = "sanitize", .value = "[TOOLS]", .section = HB_SECTION_CHECKS, .parse = parse_sanitize,
     .format = format_sanitize, .takes_word = sanitize_word, HB_OPTION_FIELD(sanitize),
     .help = "also run each configuration's checks under compute-sanitizer, once per tool: memcheck (alone, the "
             "default), racecheck, synccheck, comma-separated",
     .doc_default = "off",
     .doc = "first run each configuration's checks under compute-sanitizer, once per tool: `memcheck`, "
            "`racecheck`, `synccheck`, comma-separated, as `--sanitize=TOOLS` or `--sanitize TOOLS`; "
            "`--sanitize` alone is `memcheck` (below)"},
    {.flag = "timeout-s", .value = "S", .section = HB_SECTION_CHECKS, .fallback = "60", HB_OPT_SECONDS(1, 86400),
     HB_OPTION_FIELD(timeout_s), .help = "kill a configuration that shows no progress for S seconds",
     .doc = "kill a configuration that shows no progress for S seconds, 1..86400 (below)"},
    {.flag = "no-trace", .section = HB_SECTION_CHECKS, HB_OPT_SWITCH(0), HB_OPTION_FIELD(trace),
     .help = "no CUPTI call monitor: no kernel-only time, no conduct findings, no cross-check of the events against "
             "CUPTI (docs/trace.md)",
     .doc = "no CUPTI call monitor: no kernel-only time (`kernel_us`), no conduct findings, no cross-check of the "
            "events against CUPTI's reading (docs/trace.md); the headline timer is then chosen from the events and "
            "the wall clock alone; `--no-isolate` runs no monitor either"},
    {.flag = "sandbox", .value = "on/off", .section = HB_SECTION_CHECKS, .fallback = "on", .parse = parse_sandbox,
     .format = format_sandbox, HB_OPTION_FIELD(sandbox),
     .help = "seal the harness's code and refuse ptrace, /proc/self/mem writes, seccomp filters and dup2 onto its "
             "descriptors before the candidate loads (docs/methodology.md, \"The sandbox\")",
     .doc = "before the candidate's library loads, the evaluating process seals every code and read-only mapping "
            "(`mseal`), refuses `ptrace`, `process_vm_writev`, a seccomp filter of the candidate's, `dup2` onto the "
            "harness's descriptors, a new `SIGSYS` handler and making sealed code writable (seccomp), and writes to "
            "`/proc` (Landlock); such a call ends it with `timer-mismatch`, check `sandbox` (exit 13). `off` for a "
            "launcher that needs one of them, or to see what the code check finds instead. `--no-isolate`, and the "
            "`--sanitize` and `--profile` passes, run no sandbox; summary.csv's `sandbox` says what applied "
            "(docs/methodology.md, \"The sandbox\")"},
    {.flag = "trace-calls", .value = "N", .section = HB_SECTION_CHECKS, .fallback = "6",
     HB_OPT_COUNT(2, HB_TRACE_MAX_CALLS), HB_OPTION_FIELD(trace_calls),
     .help = "the first calls of each participant kept whole in trace.json (every call is judged)",
     .doc = "the first calls of each participant kept whole in `<run>/trace/*.json`, 2..8; every call is judged "
            "whatever N is"},
    {.flag = "workspace", .value = "BYTES", .section = HB_SECTION_BASELINES, .fallback = "32MiB",
     .parse = hb_opt_parse_bytes, .format = hb_opt_format_bytes, HB_OPTION_FIELD(workspace_bytes),
     .help = "cuBLAS / cuBLASLt workspace: bytes, or a whole number of KiB, MiB or GiB, up to 16GiB",
     .doc = "the one workspace of cublas-nn/tn and the four cuBLASLt baselines: bytes, or a whole number with "
            "`KiB`, `MiB` or `GiB`, up to 16GiB (torch keeps PyTorch's)"},
    {.flag = "autotune-cache", .value = "FILE", .section = HB_SECTION_BASELINES, HB_OPT_TEXT,
     HB_OPTION_FIELD(autotune_cache),
     .help = "cuBLASLt autotune cache file, or 'none' (default: cublaslt-autotune.tsv in $HGEMM_BENCH_CACHE_DIR, "
             "$XDG_CACHE_HOME/hgemm-bench or ~/.cache/hgemm-bench)",
     .doc_default = "see below",
     .doc = "the cuBLASLt autotune cache file, or `none` for no cache (every run searches)"},
    {.flag = "retune", .section = HB_SECTION_BASELINES, HB_OPT_SWITCH(1), HB_OPTION_FIELD(retune),
     .help = "search again even where the cache has a choice, and replace it"},
    {.flag = "no-autotune-search", .section = HB_SECTION_BASELINES, HB_OPT_SWITCH(0),
     HB_OPTION_FIELD(autotune_search), .help = "where the cache has no choice, use the heuristic's top pick",
     .doc = "never search: where the cache has no choice, the autotune baselines take the heuristic's top pick "
            "(recorded as source `fallback`)"},
    {.flag = "stream", .value = "KIND", .section = HB_SECTION_TIMING, .fallback = "legacy", .parse = parse_stream,
     .format = format_stream, HB_OPTION_FIELD(stream),
     .help = "the stream every participant runs on: legacy (the legacy default stream, as torch.matmul and <<<>>> "
             "launches without a stream) or own (a non-blocking stream of the harness's)",
     .doc = "the stream every participant, baselines included, runs on: `legacy` (the legacy default stream, "
            "where torch.matmul and `<<<grid, block, smem>>>` launches without a stream run, so such work lands "
            "inside the timed events) or `own` (a non-blocking stream of the harness's; work a launcher puts on "
            "the legacy stream then escapes the events, and the trace names it)"},
};
const hb_option_group hb_check_options = HB_OPTION_GROUP(check_rows);

/* --- the timing windows --------------------------------------------------------------- */

static hb_status parse_gap(const hb_option_row *o, const char *text, hb_run_options *run)
{
    return hb_gap_parse(text, &run->gap) ? HB_OK
                                         : hb_fail(HB_ERR_USAGE, "--%s expects per-call or per-round, got '%s'",
                                                   o->flag, text);
}

static int format_gap(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_gap_name(HB_MODE_SERVER, run->gap)) >= 0;
}

static hb_status parse_l2(const hb_option_row *o, const char *text, hb_run_options *run)
{
    return hb_l2_policy_parse(text, &run->l2)
               ? HB_OK
               : hb_fail(HB_ERR_USAGE, "--%s expects fresh, flush or warm, got '%s'", o->flag, text);
}

static int format_l2(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_l2_policy_name(run->l2)) >= 0;
}

/* A percentage in [0, high] into a fraction; 0 is a value (none), so it is
 * always written on a child's command line (HB_OPT_PERCENT's 0 is "off",
 * left out, and a child would take the default). */
static hb_status parse_share(const hb_option_row *o, const char *text, hb_run_options *run)
{
    double percent;
    HB_TRY(hb_opt_range(o, text, 0, "a percentage", &percent));
    *(double *)hb_opt_field(o, run) = percent / 100.0;
    return HB_OK;
}

static int format_share(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    return snprintf(out, size, "%.15g", *(const double *)hb_opt_field_in(o, run) * 100.0) >= 0;
}

static const hb_option_row timing_rows[] = {
    {.flag = "spot-checks", .value = "N", .section = HB_SECTION_CHECKS, .fallback = "4", HB_OPT_COUNT(0, 1000),
     HB_OPTION_FIELD(spot_checks), .help = "timed calls whose output is checked",
     .doc = "timed calls whose output is checked, 0..1000 (0: none; otherwise at least one, even in a short "
            "window)"},
    {.flag = "cross-check-rounds", .value = "PCT", .section = HB_SECTION_CHECKS, .fallback = "3", .parse = parse_share,
     .format = format_share, .low = 0, .high = HB_CROSS_CHECK_MAX_PERCENT, HB_OPTION_FIELD(cross_check_rounds),
     .help = "percent of timed rounds, drawn at random, on which CUPTI also reads the event pairs and which the "
             "statistics leave out, 0..50 (0: none)",
     .doc = "percent of timed rounds, 0..50, drawn at random between rounds, on which CUPTI also reads the device "
            "timestamps of every call's event pair; they are left out of every statistic and their differences "
            "judged (docs/methodology.md, \"Timers out of the candidate's reach\"); 0: none"},
    {.flag = "warmup-s", .value = "S", .section = HB_SECTION_TIMING, .fallback = "10", HB_OPT_SECONDS(0, 86400),
     HB_OPTION_FIELD(warmup_s), .help = "warm-up window per configuration, seconds",
     .doc = "warm-up window per configuration, seconds (paper 2.4)"},
    {.flag = "time-s", .value = "S", .section = HB_SECTION_TIMING, .fallback = "30", HB_OPT_SECONDS(0, 86400),
     HB_OPTION_FIELD(time_s), .help = "timed window per configuration, seconds; at least 10 rounds run",
     .doc = "timed window per configuration, seconds; at least 10 rounds run whatever S is"},
    {.flag = "mean-gap-ms", .value = "MS", .section = HB_SECTION_TIMING, .fallback = "2",
     .parse = hb_opt_parse_positive, .format = hb_opt_format_double, .low = 0, .high = 10000,
     HB_OPTION_FIELD(mean_gap_ms), .help = "server mode: the mean idle gap instead, in (0, 10000]",
     .doc = "server mode: the mean gap directly, (0, 10000] ms; give `--qps` or this, not both"},
    {.flag = "gap", .value = "WHERE", .section = HB_SECTION_TIMING, .fallback = "per-call", .parse = parse_gap,
     .format = format_gap, HB_OPTION_FIELD(gap),
     .help = "server mode: per-call (before every call) or per-round (once per round)",
     .doc = "server mode: `per-call` (a gap before every call) or `per-round` (one before each round, as the public "
            "CUDA-L2 code)"},
    {.flag = "l2", .value = "POLICY", .section = HB_SECTION_TIMING, .fallback = "fresh", .parse = parse_l2,
     .format = format_l2, HB_OPTION_FIELD(l2),
     .help = "fresh (new inputs every round), flush (L2 flushed before every call) or warm (the same inputs every "
             "round, stirred: one fresh element per row of A and column of B)",
     .doc = "`fresh` (new inputs generated on the GPU before every round), `flush` (a write of twice the L2 size "
            "before every call) or `warm` (the same inputs every round, stirred: one fresh element in every row of "
            "A and column of B; docs/methodology.md, \"L2 policy\")"},
    {.flag = "target-ci", .value = "PCT", .section = HB_SECTION_TIMING, HB_OPT_PERCENT(100),
     HB_OPTION_FIELD(target_ci),
     .help = "end the timed window once every baseline's 95% CI half-width is below PCT percent, in (0, 100] (after "
             "--min-time-s); --time-s is then the cap",
     .doc_default = "off",
     .doc = "end the timed window once every baseline's 95 % CI half-width is below PCT percent, (0, 100]; "
            "`--time-s` is then the cap"},
    {.flag = "min-time-s", .value = "S", .section = HB_SECTION_TIMING, .fallback = "5", HB_OPT_SECONDS(0, 86400),
     HB_OPTION_FIELD(min_time_s), .help = "least timed window with --target-ci",
     .doc = "with `--target-ci`: the least timed window (capped at `--time-s`)"},
    {.flag = "raw", .section = HB_SECTION_TIMING, HB_OPT_SWITCH(1), HB_OPTION_FIELD(raw),
     .help = "save every sample in <run>/raw/<config>.bin (docs/results.md)",
     .doc = "every sample of every configuration into `<run>/raw/` (docs/results.md)"},
    {.flag = "peak-tflops", .value = "X", .section = HB_SECTION_TIMING, .parse = hb_opt_parse_positive,
     .format = hb_opt_format_positive, .low = 0, .high = 1e6, HB_OPTION_FIELD(peak_tflops),
     .help = "the GPU's peak dense fp16 tensor-core TFLOP/s, in (0, 1e6], instead of the table's SMs x FLOP/clk x "
             "clock; a candidate timed faster is implausible (exit 10)",
     .doc_default = "from the table",
     .doc = "the GPU's peak dense fp16 tensor-core throughput in TFLOP/s, (0, 1e6], instead of SMs × the table's "
            "FLOP/clk/SM × the timed window's highest SM clock (docs/methodology.md, \"Physical plausibility\"); a "
            "candidate timed faster is `implausible` (exit 10). For a GPU the table lacks, or one its entry "
            "overstates"},
};
const hb_option_group hb_timing_options = HB_OPTION_GROUP(timing_rows);

/* --- what only a command timing its own candidate takes ------------------------------------ */

static hb_status parse_mode(const hb_option_row *o, const char *text, hb_run_options *run)
{
    return hb_mode_parse(text, &run->mode)
               ? HB_OK
               : hb_fail(HB_ERR_USAGE, "--%s expects offline or server, got '%s'", o->flag, text);
}

static int format_mode(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return snprintf(out, size, "%s", hb_mode_name(run->mode)) >= 0;
}

/* Calls per second, kept as the mean gap in milliseconds. */
static hb_status parse_qps(const hb_option_row *o, const char *text, hb_run_options *run)
{
    double qps;
    HB_TRY(hb_opt_range(o, text, 1, "calls per second", &qps));
    if (1000.0 / qps > 10000.0)
        return hb_fail(HB_ERR_USAGE, "--%s: a mean gap over 10 s is not a benchmark (got '%s')", o->flag, text);
    run->mean_gap_ms = 1000.0 / qps;
    return HB_OK;
}

static hb_status parse_aa(const hb_option_row *o, const char *text, hb_run_options *run)
{
    const hb_baseline_entry *entry = hb_baseline_find(text);
    if (!entry)
        return hb_fail(HB_ERR_USAGE, "--%s expects a baseline: %s; got '%s'", o->flag, hb_baseline_name_list(0), text);
    run->aa = entry->name;
    return HB_OK;
}

static hb_status parse_reward(const hb_option_row *o, const char *text, hb_run_options *run)
{
    if (!hb_opt_number_pair(text, &run->reward.alpha, &run->reward.beta))
        return hb_fail(HB_ERR_USAGE, "--%s expects ALPHA,BETA, two finite numbers >= 0 (e.g. 0.1,0.001), got '%s'",
                       o->flag, text);
    run->reward.on = 1;
    return HB_OK;
}

static int format_reward(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return run->reward.on && snprintf(out, size, "%.17g,%.17g", run->reward.alpha, run->reward.beta) >= 0;
}

static hb_status parse_reward_clip(const hb_option_row *o, const char *text, hb_run_options *run)
{
    double low, high;
    if (!hb_opt_number_pair(text, &low, &high) || !(low < high))
        return hb_fail(HB_ERR_USAGE, "--%s expects LO,HI, two finite numbers with 0 <= LO < HI (e.g. 0,4), got '%s'",
                       o->flag, text);
    run->reward.clip = 1;
    run->reward.clip_low = low;
    run->reward.clip_high = high;
    return HB_OK;
}

static int format_reward_clip(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return run->reward.clip && snprintf(out, size, "%.17g,%.17g", run->reward.clip_low, run->reward.clip_high) >= 0;
}

static hb_status parse_tolerance(const hb_option_row *o, const char *text, hb_run_options *run)
{
    char why[200];
    if (!hb_ref_tolerance_parse(text, &run->baseline_tolerance, why, sizeof why))
        return hb_fail(HB_ERR_USAGE, "--%s: %s", o->flag, why);
    return HB_OK;
}

static int format_tolerance(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    hb_ref_tolerance_format(&run->baseline_tolerance, out, size);
    return 1;
}

static const hb_option_row timed_rows[] = {
    {.flag = "profile", .section = HB_SECTION_CHECKS, HB_OPT_SWITCH(1), HB_OPTION_FIELD(profile),
     .help = "after each configuration is evaluated, profile one call of the candidate and of the --vs baseline "
             "(torch for run and sweep) under Nsight Compute: DRAM, SM and tensor-pipe throughput, occupancy, L2 hit "
             "rate, registers, shared memory; never changes a verdict (ncu: HB_NCU, $CUDA_HOME/bin, "
             "/usr/local/cuda/bin, PATH)",
     .doc = "after each configuration that passed its checks, profile one call of the candidate and of the `--vs` "
            "baseline (torch for `run` and `sweep`) under Nsight Compute: DRAM, SM and tensor-pipe throughput, "
            "achieved occupancy, L2 hit rate, registers and shared memory per kernel (below; docs/gate.md, "
            "\"Profile\"). Never changes a verdict or the exit status"},
    {.flag = "mode", .value = "MODE", .section = HB_SECTION_TIMING, .fallback = "offline", .parse = parse_mode,
     .format = format_mode, HB_OPTION_FIELD(mode),
     .help = "offline (rounds back to back) or server (random idle gaps)",
     .doc = "`offline` (rounds back to back) or `server` (an exponential idle gap before every call or round; "
            "docs/methodology.md)"},
    {.flag = "qps", .value = "Q", .section = HB_SECTION_TIMING, .parse = parse_qps, .low = 0, .high = 1e6,
     HB_OPTION_FIELD(mean_gap_ms), .shown_default = "500",
     .help = "server mode: mean arrival rate, 1/Q s mean gap",
     .doc = "server mode: mean arrival rate; the mean gap is 1000/Q ms (at most 10 s)"},
    {.flag = "aa", .value = "BASELINE", .section = HB_SECTION_TIMING, .parse = parse_aa,
     .format = hb_opt_format_text, HB_OPTION_FIELD(aa),
     .help = "A/A calibration: a second instance of BASELINE (one of `hgemm-bench baselines`) is timed as the "
             "candidate; replaces --candidate",
     .doc = "instead of `--candidate`: A/A calibration, a second instance of a baseline (`hgemm-bench baselines` "
            "lists them) timed as the candidate (named `aa:BASELINE` in the results)"},
    {.flag = "reward", .value = "ALPHA,BETA", .section = HB_SECTION_REWARD, .parse = parse_reward,
     .format = format_reward, HB_OPTION_FIELD(reward.on),
     .help = "each timed configuration's reward, the paper's eq. 3: the mean over rounds of t_ref/t_cand, minus "
             "ALPHA x the mean largest |C - ref32| of the deviation checks, minus BETA x the --source file's bytes; "
             "ALPHA and BETA finite and >= 0",
     .doc_default = "off",
     .doc = "each timed configuration's reward, the paper's eq. 3: the mean over the rounds of t_ref/t_cand "
            "(t_ref: `--vs`, torch for run and sweep; on the headline timer), minus ALPHA × the mean largest "
            "\\|C − ref32\\| of the deviation checks, minus BETA × the `--source` file's bytes; ALPHA and BETA "
            "finite and ≥ 0. In verdict.json (`reward`), summary.csv and on stdout; never changes a verdict "
            "(docs/gate.md, \"Reward\")"},
    {.flag = "reward-clip", .value = "LO,HI", .section = HB_SECTION_REWARD, .parse = parse_reward_clip,
     .format = format_reward_clip, HB_OPTION_FIELD(reward.clip),
     .help = "with --reward: clip each round's t_ref/t_cand into [LO, HI] (0 <= LO < HI) before the mean, so that "
             "one glitched round cannot carry it",
     .doc = "with `--reward`: each round's t_ref/t_cand clipped into [LO, HI] (0 ≤ LO < HI) before the mean; the "
            "clipped rounds are counted"},
    {.flag = "source", .value = "FILE", .section = HB_SECTION_REWARD, HB_OPT_TEXT, HB_OPTION_FIELD(reward.source),
     .help = "with --reward: the candidate's source, whose size in bytes is the code length L (required when BETA "
             "> 0)",
     .doc = "with `--reward`: the candidate's source; its size in bytes is the code length L. Required when BETA > "
            "0 (a manifest names no source file); read before the GPU"},
    {.flag = "baseline-reference", .value = "FILE", .section = HB_SECTION_CHECKS, HB_OPT_TEXT,
     HB_OPTION_FIELD(baseline_reference),
     .help = "the baselines' clean-process references: their cache FILE, 'fresh' (measured for every configuration, "
             "kept nowhere) or 'off' (no reference, no baseline-interference check) (default: baseline-reference.json "
             "beside the autotune cache)",
     .doc_default = "see below",
     .doc = "the cache of the baselines' clean-process references (docs/methodology.md, \"Baselines held to a clean "
            "process\"), `fresh` to measure the reference of every configuration anew and keep it nowhere, or `off` "
            "for no reference and no `baseline-interference` check"},
    {.flag = "reference-warmup-s", .value = "S", .section = HB_SECTION_CHECKS, .fallback = "0.2",
     HB_OPT_SECONDS(0, 86400), HB_OPTION_FIELD(reference_warmup_s),
     .help = "the clean process's warm-up window per configuration, seconds",
     .doc = "the warm-up window of the baselines' clean process, per configuration key, seconds"},
    {.flag = "reference-time-s", .value = "S", .section = HB_SECTION_CHECKS, .fallback = "1",
     HB_OPT_SECONDS(0, 86400), HB_OPTION_FIELD(reference_time_s),
     .help = "the clean process's timed window per configuration, seconds; at least 10 rounds run",
     .doc = "the timed window of the baselines' clean process, per configuration key, seconds; at least 10 rounds "
            "run"},
    {.flag = "baseline-tolerance", .value = "SPEC", .section = HB_SECTION_CHECKS, .fallback = HB_REF_TOLERANCE_DEFAULT,
     .parse = parse_tolerance, .format = format_tolerance,
     HB_OPTION_FIELD(baseline_tolerance),
     .help = "how far a baseline's median may lie above its clean process's: [event=|wall=|kernel=]PCT%+US, "
             "comma-separated (no timer: every timer), plus 4 standard errors of the medians' noise",
     .doc = "how far a baseline's event, wall or kernel median in the candidate's process may lie above its clean "
            "process's before the verdict is `baseline-interference`: comma-separated "
            "`[event=\\|wall=\\|kernel=]PCT%+US` (a percentage of the clean median plus microseconds; without a "
            "timer, every timer), on top of 4 standard errors of the two medians' noise (docs/methodology.md)"},
};
const hb_option_group hb_timed_options = HB_OPTION_GROUP(timed_rows);

/* --- the plan ------------------------------------------------------------------------- */

static const hb_option_row plan_rows[] = {
    {.flag = "grid", .value = "NAME", .section = HB_SECTION_PLAN, HB_OPT_TEXT, HB_OPTION_FIELD(grid),
     .help = "the plan: every (M, N, K) of a named grid; paper: {64, 128, ..., 8192, 12288, 16384}^3, 1000 "
             "configurations",
     .doc = "the plan: every (M, N, K) of a named grid; `paper`: {64, 128, 256, 512, 1024, 2048, 4096, 8192, 12288, "
            "16384}³, 1000 configurations, M slowest and K fastest (docs/sweeps.md)"},
    {.flag = "mnk-file", .value = "FILE", .section = HB_SECTION_PLAN, HB_OPT_TEXT, HB_OPTION_FIELD(mnk_file),
     .help = "the plan: one M,N,K or M_N_K per line, # comments",
     .doc = "the plan: one `M,N,K` or `M_N_K` per line, `#` starts a comment, blank lines skipped; a bad line is an "
            "error naming file, line and column"},
    {.flag = "m", .value = "LIST", .section = HB_SECTION_PLAN, HB_OPT_TEXT, HB_OPTION_FIELD(m_list),
     .help = "the plan: M of every configuration, comma-separated (with --n and --k)",
     .doc = "the plan: every combination of `--m`, `--n` and `--k`, each a comma-separated list of dimensions"},
    {.flag = "n", .value = "LIST", .section = HB_SECTION_PLAN, HB_OPT_TEXT, HB_OPTION_FIELD(n_list),
     .help = "N, comma-separated (with --m and --k)", .doc = "see `--m`"},
    {.flag = "k", .value = "LIST", .section = HB_SECTION_PLAN, HB_OPT_TEXT, HB_OPTION_FIELD(k_list),
     .help = "K, comma-separated (with --m and --n)", .doc = "see `--m`"},
    {.flag = "sample", .value = "N", .section = HB_SECTION_PLAN, HB_OPT_COUNT(1, HB_MAX_CONFIGS),
     HB_OPTION_FIELD(sample),
     .help = "a reproducible subset of N configurations of the plan, stratified over log2(M*N*K), drawn with --seed",
     .doc_default = "all",
     .doc = "a reproducible subset of N configurations of the plan, stratified over log2(M·N·K), drawn with "
            "`--seed` (docs/sweeps.md)"},
};
const hb_option_group hb_plan_options = HB_OPTION_GROUP(plan_rows);

/* --- the tables' output ---------------------------------------------------------------- */

static hb_status parse_format(const hb_option_row *o, const char *text, hb_run_options *run)
{
    hb_report_format format;
    if (!hb_report_format_parse(text, &format))
        return hb_fail(HB_ERR_USAGE, "--%s expects md, csv or json, got '%s'", o->flag, text);
    run->report.format = text;
    return HB_OK;
}

static hb_status parse_timer(const hb_option_row *o, const char *text, hb_run_options *run)
{
    hb_timer timer;
    if (!hb_timer_parse(text, &timer))
        return hb_fail(HB_ERR_USAGE, "--%s expects event, wall or kernel, got '%s'", o->flag, text);
    run->report.timer = text;
    return HB_OK;
}

static const hb_option_row output_rows[] = {
    {.flag = "out", .value = "DIR", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(report.out_dir),
     .help = "also write every table into DIR (created if need be) as CSV, markdown and JSON; each file appears "
             "whole or not at all",
     .doc = "also write every table into DIR (created if need be): `report.md`, `report.json`, `TABLE.csv` per "
            "table (`compare.md`, ... for compare); each file appears whole or not at all (docs/reports.md, "
            "\"Files\")"},
    {.flag = "format", .value = "FORMAT", .section = HB_SECTION_INPUT, .fallback = "md", .parse = parse_format,
     .format = hb_opt_format_text, HB_OPTION_FIELD(report.format), .help = "stdout's format: md, csv or json",
     .doc = "stdout's format: `md` (markdown: the summary tables), `csv` (every table, each after `#` lines with its "
            "title and caption) or `json` (every table)"},
    {.flag = "timer", .value = "TIMER", .section = HB_SECTION_INPUT, .fallback = "event", .parse = parse_timer,
     .format = hb_opt_format_text, HB_OPTION_FIELD(report.timer),
     .help = "the times behind every speedup: event (CUDA events), wall (the host's wall clock) or kernel (CUPTI's "
             "kernel-only time: the ratio of the kernel medians)",
     .doc = "the times behind every speedup: `event` (CUDA events, or the wall clock where the work left them: each "
            "configuration's headline timer, `speedup_paper`, `speedup_geomean`), `wall` (the host's wall clock: "
            "`speedup_paper_wall`, `speedup_geomean_wall`) or `kernel` (CUPTI's kernel-only time: `speedup_kernel`, "
            "the ratio of the kernel medians, one figure for both estimators; empty where no call monitor ran)"},
    {.flag = "plots", .section = HB_SECTION_INPUT, HB_OPT_SWITCH(1), HB_OPTION_FIELD(report.plots),
     .help = "also draw the figures into --out DIR (gnuplot: PNG and SVG)",
     .doc = "also draw the figures into `--out DIR` with gnuplot, PNG and SVG (docs/reports.md, \"Figures\"); needs "
            "`--out` and gnuplot on PATH (exit 2 otherwise); a figure gnuplot could not write whole (a full disk) is "
            "exit 7, and nothing of the run is published"},
};
const hb_option_group hb_output_options = HB_OPTION_GROUP(output_rows);
