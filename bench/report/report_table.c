#include "bench/report/report_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/report/profile_lines.h"
#include "bench/result/deviation_rule.h"
#include "bench/result/participant_desc.h"
#include "bench/result/plausibility.h"
#include "bench/result/run_verdict.h"

/* "candidate (replay)": the form that was timed, once a candidate loaded. */
static void print_candidate_label(FILE *out, const hb_config_result *r)
{
    const char *form = hb_candidate_form_name(r->replay.form);
    fprintf(out, form[0] ? "candidate (%s)" : "candidate", form);
}

static void print_verdict(FILE *out, const hb_config_result *r)
{
    fprintf(out, "\n== M=%ld N=%ld K=%ld  ", r->mnk.m, r->mnk.n, r->mnk.k);
    print_candidate_label(out, r);
    fputs(": ", out);
    if (r->status != HB_OK && r->status != HB_ERR_TOO_SLOW) {
        fprintf(out, "%s%s%s: %s\n", hb_verdict_name(r->verdict), r->check[0] ? " / " : "", r->check, r->reason);
        return;
    }
    const hb_battery_record *b = &r->battery;
    char signed_part[64] = "skipped, K > 2048";
    if (b->exact_signed.ran)
        snprintf(signed_part, sizeof signed_part, "%llu", (unsigned long long)b->exact_signed.compared);
    const hb_deviation_record *d = &b->deviation;
    fprintf(out, "%s (exact outputs compared: %llu on {0,1}, %s on {-1,0,1}; %d deviation checks (%d spot), worst "
                 "excess %.3g of the tolerance (%s); the paper's rule: %s; checks took %.2f s), %zu rounds%s%s\n",
            hb_verdict_name(r->verdict), (unsigned long long)b->exact_binary.compared, signed_part, d->checks,
            r->spot_checks, d->worst_ratio, hb_deviation_rule_name((hb_deviation_rule)d->rule),
            d->paper_failures ? "fail" : "pass", b->seconds_before + b->seconds_after, r->rounds,
            r->status ? ": " : "", r->status ? r->reason : "");
}

/* A launcher timed as a launcher because it has no replay: why
 * (docs/launchers.md, "The replay form"). */
static void print_replay_refusal(FILE *out, const hb_replay_record *p)
{
    if (p->recorded && p->refusal != HB_REFUSE_NONE)
        fprintf(out, "  form: launcher, timed with its host code: it has no replay (%s: %s)\n",
                hb_replay_refusal_name(p->refusal), p->reason);
}

/* The cuBLASLt baselines' algorithms and how each was chosen. */
static void print_algorithms(FILE *out, const hb_config_result *r)
{
    for (size_t i = 0; i < r->count; i++) {
        const hb_participant_result *p = &r->participants[i];
        const hb_algo_record *a = &p->desc.algo;
        if (!a->known || p->max_of[0])
            continue;
        char text[192];
        hb_algo_text(a, text, sizeof text);
        fprintf(out, "  %-22s %s; %s, rank %d of %d", p->name, text, a->source, a->rank, a->heuristic_results);
        if (hb_algo_from_search(a))
            fprintf(out, ", search %.2f s%s", a->search_s, a->source[0] == 'c' ? " (earlier run)" : "");
        fprintf(out, ", set-up %.2f s\n", a->setup_s);
    }
}

/* The windows' length, pacing and what ended them. */
static void print_window(FILE *out, const hb_config_result *r)
{
    const hb_window_report *w = &r->window;
    const hb_timing_record *t = &r->timing;
    fprintf(out, "  %s mode, L2 %s; timed %.1f s, %zu rounds, ended by %s", hb_mode_name(t->mode),
            hb_l2_policy_name(t->l2), w->timed_s, w->timed_rounds, w->stopped_by);
    if (t->target_ci > 0)
        fprintf(out, " (widest CI half-width %.2f%%, target %.2f%%)", w->final_halfwidth * 100, t->target_ci * 100);
    if (t->mode == HB_MODE_SERVER)
        fprintf(out, "; %s gaps, mean %.2f ms asked, %.2f ms slept, %.0f/s, %.0f%% of the window idle",
                hb_gap_name(t->mode, t->gap), t->mean_gap_ms, w->gap_mean_ms, w->achieved_rate_per_s,
                w->gap_fraction * 100);
    fputc('\n', out);
    if (r->decision.ran && r->decision.looks > 0) { /* gate --decide: what ended the window, and why */
        char text[320];
        hb_decision_text(&r->decision, text, sizeof text);
        fprintf(out, "  decision: %s\n", text);
    }
}

/* Clocks, temperature, power and throttling seen through the timed window. */
static void print_telemetry(FILE *out, const hb_telemetry_summary *t)
{
    if (!t->available) {
        fprintf(out, "  telemetry: none (%s)\n", t->why);
        return;
    }
    char reasons[160], warning[256];
    hb_throttle_reason_names(t->throttle_reasons, reasons, sizeof reasons);
    fprintf(out, "  telemetry (%zu samples): SM clock min %d / mean %.0f / max %d MHz (device max %d), memory %.0f MHz, "
                 "%d C max, %.0f W mean, throttle: %s\n",
            t->samples, t->sm_min_mhz, t->sm_mean_mhz, t->sm_max_mhz, t->sm_device_max_mhz, t->mem_mean_mhz,
            t->temp_max_c, t->power_mean_w, reasons);
    if (hb_telemetry_warning(t, warning, sizeof warning))
        fprintf(out, "  WARNING: %s\n", warning);
}

/* The candidate's time against the GPU's peak, when it was judged. */
static void print_peak(FILE *out, const hb_plausibility *p)
{
    if (p->source == HB_PEAK_TABLE)
        fprintf(out, "  peak: %.1f TFLOP/s (%d SMs x %d FLOP/clk x %d MHz, %s); candidate %.1f TFLOP/s, %.1f%% of it\n",
                p->peak_tflops, p->sm_count, p->flop_per_clock_per_sm, p->clock_mhz, p->clock_source,
                p->achieved_tflops, p->achieved_tflops / p->peak_tflops * 100);
    else if (p->source == HB_PEAK_FLAG)
        fprintf(out, "  peak: %.4g TFLOP/s (--peak-tflops); candidate %.4g TFLOP/s\n", p->peak_tflops,
                p->achieved_tflops);
    else if (p->source != HB_PEAK_NOT_JUDGED)
        fprintf(out, "  peak: not checked (%s)\n", hb_peak_source_name(p->source));
}

/* The call monitor: the candidate's findings, one line each, or why there was none. */
static void print_conduct(FILE *out, const hb_config_result *r)
{
    if (!r->conduct.traced && r->trace_note[0])
        fprintf(out, "  trace: none (%s)\n", r->trace_note);
    /* Untraced, only the findings read from the candidate's file are known. */
    const unsigned known = r->conduct.traced ? ~0u : hb_finding_static_mask();
    for (int f = 0; f < HB_N_FINDINGS; f++)
        if (r->conduct.found & known & HB_FINDING_BIT(f))
            fprintf(out, "  conduct: %s\n", r->conduct.line[f]);
}

/* Kernel-only time and the speedup on it; blank where the trace did not time it. */
static void print_kernel_time(FILE *out, const hb_config_result *r, const hb_participant_result *p)
{
    if (!p->kernel.traced) {
        fprintf(out, " %11s %9s", "", "");
        return;
    }
    fprintf(out, " %11.2f", p->kernel.span_us);
    double s = hb_kernel_speedup(r, p);
    if (p->is_candidate || isnan(s))
        fprintf(out, " %9s", "");
    else
        fprintf(out, " %+8.1f%%", s * 100);
}

/* --reward: r and its terms on one line, or why the configuration earned none. */
static void print_reward(FILE *out, const hb_reward_record *w)
{
    if (!w->requested)
        return;
    if (!w->earned) {
        fprintf(out, "  %s\n", w->note); /* "no reward: verdict ..." */
        return;
    }
    fprintf(out, "  reward: r = %.6g = speed %.6g", w->r, w->speed_term);
    if (w->clip)
        fprintf(out, " (clipped to [%g, %g] in %zu of %zu rounds; unclipped %.6g)", w->clip_low, w->clip_high,
                w->clipped_rounds, w->rounds, w->speed_term_unclipped);
    fprintf(out, " - %g x diff %.4g (mean of %d checks)", w->alpha, w->diff_mean, w->diff_checks);
    if (w->length_bytes >= 0)
        fprintf(out, " - %g x %lld bytes", w->beta, w->length_bytes);
    fprintf(out, "; t_ref: %s on %s, %zu rounds\n", w->vs_participant, w->timer, w->rounds);
}

/* The baselines against their clean process (docs/methodology.md, "Baselines held to a clean process"). */
static void print_reference(FILE *out, const hb_reference_record *ref)
{
    if (!ref->judged)
        return;
    fprintf(out, "  baselines held to a clean process (%s reference): %d held, worst %s at x%.4f of its clean median",
            hb_ref_source_name(ref->source), ref->held, ref->worst[0] ? ref->worst : "(none)", ref->worst_ratio);
    if (ref->not_held[0])
        fprintf(out, "; not held: %s", ref->not_held);
    fputc('\n', out);
}

void hb_report_config(FILE *out, const hb_config_result *r)
{
    print_verdict(out, r);
    print_replay_refusal(out, &r->replay);
    print_conduct(out, r);
    print_reward(out, &r->reward);
    if (!r->measured) {
        hb_report_profile(out, &r->profile);
        return;
    }
    print_window(out, r);
    print_telemetry(out, &r->telemetry);
    print_peak(out, &r->plausibility);
    print_reference(out, &r->baseline_reference);
    const int speedups = hb_result_has_speedups(r);
    fprintf(out, "  %-22s %12s %9s %7s %11s %9s %12s  %-19s %9s\n", "participant", "median(us)", "TFLOP/s", "noise",
            "kernel(us)", "kern.spd", "speedup", "95% CI", "paper");
    double flops = hb_gemm_flops(r->mnk.m, r->mnk.n, r->mnk.k);
    for (size_t i = 0; i < r->count; i++) {
        const hb_participant_result *p = &r->participants[i];
        const hb_time_summary *t = hb_headline_times(r, p);
        double median_s = t->median * 1e-3;
        char name[96];
        const char *form = hb_candidate_form_name(r->replay.form);
        snprintf(name, sizeof name, p->is_candidate && form[0] ? "%s (%s)" : "%s", p->name, form);
        fprintf(out, "  %-22s %12.2f %9.2f %6.1f%%", name, median_s * 1e6, flops / median_s * 1e-12,
                t->rel_stdev * 100);
        print_kernel_time(out, r, p);
        if (p->is_candidate || !speedups) {
            fputc('\n', out);
            continue;
        }
        const hb_speedup_summary *s = hb_headline_speedup(r, p);
        fprintf(out, " %+11.2f%%  [%+7.2f%%, %+7.2f%%] %+8.2f%%\n", s->geomean * 100, s->ci95_low * 100,
                s->ci95_high * 100, s->paper * 100);
    }
    fprintf(out, "  (times: %s; kernel: GPU time of the call's kernels (CUPTI), first kernel start to last kernel "
                 "end, median of the timed calls; kern.spd: the speedup on it; speedup: candidate over that "
                 "baseline, geometric mean of paired ratios, with its 95%% block-bootstrap CI; paper: the paper's "
                 "mean of ratios; -max: the faster of NN and TN by median time)\n",
            r->headline_timer == HB_TIMER_WALL ? "wall clock around a device synchronize, every stream" : "CUDA events");
    if (r->headline_timer == HB_TIMER_WALL)
        fprintf(out, "  timer: wall, because %s\n", r->timer_why);
    if (!speedups)
        fputs("  (no speedups: the candidate's time is implausible, faster than this GPU can compute the product)\n", out);
    print_algorithms(out, r);
    hb_report_profile(out, &r->profile);
}

/* The sink: a block per configuration as it finishes, then the run's verdict
 * line, on the stream given (stdout for a run). */
static hb_status table_config(hb_sink *self, const hb_run_record *run, const hb_config_result *result)
{
    (void)run;
    hb_report_config(self->state, result);
    fflush(self->state);
    return HB_OK;
}

static hb_status table_end(hb_sink *self, const hb_run_record *run, const hb_run_outcome *o)
{
    (void)run;
    char buffer[160];
    const char *reason = hb_outcome_reason(o, buffer, sizeof buffer);
    fprintf(self->state, "\nverdict: %s (exit %d)%s%s\n", hb_outcome_verdict(o), (int)o->status,
            reason[0] ? ": " : "", reason);
    fflush(self->state);
    return HB_OK;
}

static const hb_sink_ops table_ops = {.name = "table", .config = table_config, .end = table_end};

hb_sink hb_table_sink(FILE *out)
{
    hb_sink sink = {&table_ops, out};
    return sink;
}
