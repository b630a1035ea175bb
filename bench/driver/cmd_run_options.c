/* The flags of run, check and gate (one loop: bench/driver/run_loop.c):
 * their own rows, gate's, and what the flags of a command that evaluates
 * configurations need of each other (sweep's too). */
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/driver/command_options.h"
#include "bench/driver/option_values.h"
#include "bench/result/baseline_registry.h"
#include "bench/result/conduct.h"

/* --- run, check and gate's own ---------------------------------------------------- */

static const hb_option_row run_rows[] = {
    {.flag = "seed", .value = "N", .section = HB_SECTION_INPUT, HB_OPT_SEED,
     .shown_default = "from the clock, recorded", .help = "seed for the inputs and the round order",
     .doc_default = "from the clock",
     .doc = "seeds the inputs and the round order; recorded in env.json, so a run can be repeated"},
    {.flag = "out", .value = "DIR", .section = HB_SECTION_INPUT, .fallback = "results", HB_OPT_TEXT,
     HB_OPTION_FIELD(out_dir), .help = "results go to DIR/<run-id>/", .doc = "results go to `DIR/<run-id>/`"},
    {.flag = "json", .section = HB_SECTION_INPUT, HB_OPT_SWITCH(1), HB_OPTION_FIELD(json_lines),
     .help = "stdout carries only one JSON object per configuration as it ends (verdict.json's item; docs/gate.md); "
             "the table and the verdict line go to stderr",
     .doc = "stdout carries only one JSON object per configuration, on one line, as each configuration ends "
            "(verdict.json's item with `format`, `command` and `run_id` in front; docs/gate.md, \"--json\"); the "
            "table and the `verdict:` line go to stderr, and so does anything a candidate prints"},
};
static const hb_option_group run_options = HB_OPTION_GROUP(run_rows);

/* --- gate's -------------------------------------------------------------------------- */

static hb_status parse_vs(const hb_option_row *o, const char *text, hb_run_options *run)
{
    if (!hb_baseline_name_known(text))
        return hb_fail(HB_ERR_USAGE, "--%s expects one of %s; got '%s'", o->flag, hb_baseline_name_list(1), text);
    run->vs = text;
    return HB_OK;
}

/* host-time is a figure, not a fault: never forbidden. */
static hb_status parse_forbid(const hb_option_row *o, const char *text, hb_run_options *run)
{
    unsigned mask;
    char bad[64];
    if (!hb_finding_parse_list(text, &mask, bad, sizeof bad) || (mask & HB_FINDING_BIT(HB_FINDING_HOST_TIME)))
        return hb_fail(HB_ERR_USAGE, "--%s expects a comma-separated list of other-stream, alloc, sync, create, "
                       "first-call, device-state, thread, multi-kernel, library-kernel, fp16-mma-only, fp16-simt-only; "
                       "got '%s'", o->flag, mask ? "host-time" : bad);
    run->forbid = text;
    return HB_OK;
}

/* An error rate: (low, high), both ends open. */
static hb_status parse_alpha(const hb_option_row *o, const char *text, hb_run_options *run)
{
    double value;
    if (!hb_opt_real(text, o->low, 1, o->high, &value) || value >= o->high)
        return hb_fail(HB_ERR_USAGE, "--%s expects an error rate in (%g, %g), got '%s'", o->flag, o->low, o->high,
                       text);
    run->decide_alpha = value;
    return HB_OK;
}

static const hb_option_row gate_rows[] = {
    {.flag = "vs", .value = "NAME", .section = HB_SECTION_GATE, .fallback = "torch", .parse = parse_vs,
     .format = hb_opt_format_text, HB_OPTION_FIELD(vs), .help = "baseline for the threshold: a baseline or a -max figure",
     .doc = "the threshold's baseline: a baseline or a -max figure (`torch`, `cublas-nn`, `cublas-tn`, `cublas-max`, "
            "`cublaslt-heuristic-nn`, `-tn`, `-max`, `cublaslt-autotune-nn`, `-tn`, `-max`)"},
    {.flag = "min-speedup", .value = "X", .section = HB_SECTION_GATE, .fallback = "0", HB_OPT_NUMBER(-1, 1000),
     HB_OPTION_FIELD(min_speedup),
     .help = "least speedup t_base/t_cand - 1 per configuration (0.1 = 10%; -1 accepts any speed), in -1..1000",
     .doc = "least speedup t_base/t_cand − 1 per configuration, −1..1000 (`0.1` = 10 % faster, `-1` accepts any "
            "speed)"},
    {.flag = "strict", .section = HB_SECTION_GATE, HB_OPT_SWITCH(1), HB_OPTION_FIELD(strict),
     .help = "also refuse a candidate whose trace shows work on another stream, allocation, synchronization, stream "
             "or event creation, a first call unlike the others, a changed device state, or a thread of its own "
             "running in the timed window (exit 12)",
     .doc = "also refuse (exit 12, verdict `forbidden`) a candidate whose trace shows work on another stream, "
            "allocation or free, synchronization, stream or event creation, a first call unlike the others, a "
            "changed device state, or a thread of its own running in the timed window"},
    {.flag = "forbid", .value = "LIST", .section = HB_SECTION_GATE, .parse = parse_forbid,
     .format = hb_opt_format_text, HB_OPTION_FIELD(forbid),
     .help = "refuse these conduct findings (exit 12): other-stream, alloc, sync, create, first-call, device-state, "
             "thread, multi-kernel, library-kernel, fp16-mma-only, fp16-simt-only",
     .doc = "refuse these conduct findings (exit 12): any of `other-stream`, `alloc`, `sync`, `create`, "
            "`first-call`, `device-state`, `thread`, `multi-kernel`, `library-kernel`, `fp16-mma-only`, `fp16-simt-only`, "
            "comma-separated (the last two are read from the candidate's file: docs/validation.md, \"Accumulator "
            "audit\")"},
    {.flag = "decide", .section = HB_SECTION_GATE, HB_OPT_SWITCH(1), HB_OPTION_FIELD(decide),
     .help = "end each timed window as soon as the speedup's interval lies wholly above or below --min-speedup (pass "
             "only when above; undecided, exit 9, when --time-s comes first); false passes at most --decide-alpha / 2",
     .doc = "end each timed window as soon as the speedup's interval lies wholly above `--min-speedup` (the "
            "configuration passes) or wholly below it (`too-slow`); when `--time-s` comes first, verdict `undecided` "
            "(exit 9). A pair whose true speedup is the threshold passes with probability at most `--decide-alpha`/2 "
            "(docs/gate.md, \"A verdict in seconds\")"},
    {.flag = "decide-alpha", .value = "A", .section = HB_SECTION_GATE, .fallback = "0.05", .parse = parse_alpha,
     .format = hb_opt_format_double, .low = 0, .high = 0.5, HB_OPTION_FIELD(decide_alpha),
     .help = "with --decide: the error spent over every look, in (0, 0.5); a pair exactly at the threshold passes "
             "with probability at most A/2",
     .doc = "with `--decide`: the error spent over all of its looks, in (0, 0.5)"},
};
static const hb_option_group gate_options = HB_OPTION_GROUP(gate_rows);

const hb_option_group *const hb_run_option_list[] = {&hb_evaluating_options, &hb_mnk_options, &run_options,
                                                     &hb_check_options,      &hb_timing_options, &hb_timed_options,
                                                     &hb_common_options,     NULL};
const hb_option_group *const hb_check_option_list[] = {&hb_evaluating_options, &hb_mnk_options, &run_options,
                                                       &hb_check_options, &hb_common_options, NULL};
const hb_option_group *const hb_gate_option_list[] = {&hb_evaluating_options, &hb_mnk_options, &run_options,
                                                      &hb_check_options,      &hb_timing_options, &hb_timed_options,
                                                      &gate_options,          &hb_common_options, NULL};

/* --- what the flags need of each other -------------------------------------------------- */

/* A sweep's server mode is in --modes; a run's is --mode. */
static int server_mode_planned(const hb_run_options *run)
{
    return run->mode == HB_MODE_SERVER || (run->modes && strstr(run->modes, "server"));
}

/* --reward-clip and --source refine --reward; BETA > 0 weighs a code length
 * that only --source gives (a manifest names no source file). */
static hb_status check_reward(const hb_reward_settings *reward)
{
    if (!reward->on && (reward->clip || reward->source))
        return hb_fail(HB_ERR_USAGE, "--%s applies with --reward ALPHA,BETA", reward->clip ? "reward-clip" : "source");
    if (reward->on && reward->beta > 0 && !reward->source)
        return hb_fail(HB_ERR_USAGE, "--reward %g,%g weighs the candidate's code length (BETA > 0), and a manifest "
                       "names no source file: give --source FILE (the candidate's source), or BETA 0",
                       reward->alpha, reward->beta);
    return HB_OK;
}

/* The windows' flags: what applies only with another, what says the same twice. */
static hb_status check_timing(const hb_option_parse *p, int needs_mnk)
{
    const hb_run_options *run = p->run;
    if (hb_option_given(p, "qps") && hb_option_given(p, "mean-gap-ms"))
        return hb_fail(HB_ERR_USAGE, "--qps and --mean-gap-ms set the same thing; give one");
    if (!server_mode_planned(run) &&
        (hb_option_given(p, "qps") || hb_option_given(p, "mean-gap-ms") || hb_option_given(p, "gap")))
        return hb_fail(HB_ERR_USAGE, "--qps, --mean-gap-ms and --gap apply to --mode server%s",
                       needs_mnk ? "" : " (--modes with server, for a sweep)");
    if (hb_option_given(p, "min-time-s") && run->target_ci <= 0)
        return hb_fail(HB_ERR_USAGE, "--min-time-s applies with --target-ci");
    if (hb_option_given(p, "decide-alpha") && !run->decide)
        return hb_fail(HB_ERR_USAGE, "--decide-alpha applies with --decide");
    if (run->decide && run->target_ci > 0)
        return hb_fail(HB_ERR_USAGE, "--decide and --target-ci both end the timed window early; give one (--decide "
                       "judges the threshold, --target-ci a CI width)");
    return HB_OK;
}

hb_status hb_evaluating_relations(const hb_option_parse *p, int needs_mnk)
{
    const hb_run_options *run = p->run;
    HB_TRY(check_timing(p, needs_mnk));
    if (run->aa && run->candidate_path)
        return hb_fail(HB_ERR_USAGE, "--aa %s times a baseline as the candidate; drop --candidate", run->aa);
    if (run->aa && run->sanitize)
        return hb_fail(HB_ERR_USAGE, "--sanitize checks a candidate's kernel; it does not apply to --aa %s", run->aa);
    if (run->aa && run->profile)
        return hb_fail(HB_ERR_USAGE, "--profile profiles a candidate's kernels beside a baseline's; it does not apply "
                       "to --aa %s", run->aa);
    if (run->retune && !run->autotune_search)
        return hb_fail(HB_ERR_USAGE, "--retune and --no-autotune-search contradict each other");
    HB_TRY(check_reward(&run->reward));
    if ((run->strict || run->forbid) && (!run->trace || !run->isolate))
        return hb_fail(HB_ERR_USAGE, "--%s judges what the call monitor finds; it cannot apply with %s",
                       run->strict ? "strict" : "forbid", run->trace ? "--no-isolate (no call monitor)" : "--no-trace");
    if (!run->candidate_path && !run->aa)
        return hb_fail(HB_ERR_USAGE, "%s: --candidate PATH is required%s", p->command,
                       needs_mnk && hb_option_takes(p, "aa") ? " (or, for an A/A calibration, --aa BASELINE)" : "");
    if (run->n_configs == 0 && needs_mnk)
        return hb_fail(HB_ERR_USAGE, "%s: at least one --mnk M,N,K is required", p->command);
    return HB_OK;
}

hb_status hb_evaluating_options_check(const hb_option_parse *p) { return hb_evaluating_relations(p, 1); }
