#include "bench/report/csv_writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"

static const char *const columns[] = {
    "run_id", "m", "n", "k", "participant", "role", "verdict", "check", "reason", "acc_class", "compute_type",
    "scale_type", "algorithm", "workspace_bytes", "b_layout", "padded_m", "padded_n", "padded_k",
    "max_abs_dev", "dev_bound", "non_finite", "samples",
    "event_median_us", "event_mean_us", "event_min_us", "event_p10_us", "event_p90_us", "event_rel_stdev",
    "wall_median_us", "wall_mean_us", "wall_p10_us", "wall_p90_us", "wall_rel_stdev",
    "tflops_event_median", "tflops_wall_median",
    "speedup_geomean", "speedup_ci95_low", "speedup_ci95_high", "speedup_paper", "speedup_ratio_of_means",
    "speedup_median", "speedup_p10", "speedup_p90", "speedup_pairs",
    "speedup_geomean_wall", "speedup_paper_wall",
    "exact_binary_reps", "exact_binary_compared", "exact_signed_reps", "exact_signed_compared", "spot_checks",
    "post_max_abs_dev", "post_dev_bound", "check_seconds", "config_seconds",
    "max_of", "algo_id", "algo_tile", "algo_stages", "algo_splitk", "algo_reduction", "algo_swizzle", "algo_custom",
    "algo_inner_shape", "algo_cluster_shape", "algo_workspace_bytes", "algo_source", "algo_rank", "heuristic_results",
    "autotune_search_s", "autotune_median_us", "baseline_setup_s",
    "mode", "gap", "mean_gap_ms", "l2_policy", "aa_of", "speedup_ci95_halfwidth", "bootstrap_block",
    "warmup_rounds", "timed_s", "stopped_by", "target_ci", "final_ci_halfwidth", "gaps", "gap_mean_ms", "gap_fraction",
    "achieved_rate_per_s", "telemetry", "telemetry_samples", "sm_clock_min_mhz", "sm_clock_mean_mhz",
    "sm_clock_max_mhz", "sm_clock_min_busy_mhz", "sm_clock_device_max_mhz", "mem_clock_mean_mhz", "temp_max_c",
    "power_mean_w", "power_max_w", "throttle_reasons", "clock_warning", NULL};

void hb_csv_write_field(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

void hb_csv_write_header(FILE *out)
{
    for (int i = 0; columns[i]; i++)
        fprintf(out, "%s%s", i ? "," : "", columns[i]);
    fputc('\n', out);
}

/* A number, or nothing when it does not apply (NAN) or was not measured. */
static void num(FILE *out, double value)
{
    fputc(',', out);
    if (!isnan(value))
        fprintf(out, "%.9g", value);
}

static void text(FILE *out, const char *value)
{
    fputc(',', out);
    hb_csv_write_field(out, value);
}

static void write_times(FILE *out, const hb_participant_result *p, int measured)
{
    const double us = 1e3; /* samples are milliseconds */
    const hb_time_summary *e = &p->event_ms, *w = &p->wall_ms;
    num(out, measured ? e->median * us : NAN);
    num(out, measured ? e->mean * us : NAN);
    num(out, measured ? e->min * us : NAN);
    num(out, measured ? e->p10 * us : NAN);
    num(out, measured ? e->p90 * us : NAN);
    num(out, measured ? e->rel_stdev : NAN);
    num(out, measured ? w->median * us : NAN);
    num(out, measured ? w->mean * us : NAN);
    num(out, measured ? w->p10 * us : NAN);
    num(out, measured ? w->p90 * us : NAN);
    num(out, measured ? w->rel_stdev : NAN);
}

static void write_speedups(FILE *out, const hb_participant_result *p, int applies)
{
    const hb_speedup_summary *s = &p->speedup_event;
    num(out, applies ? s->geomean : NAN);
    num(out, applies ? s->ci95_low : NAN);
    num(out, applies ? s->ci95_high : NAN);
    num(out, applies ? s->paper : NAN);
    num(out, applies ? s->ratio_of_means : NAN);
    num(out, applies ? s->median : NAN);
    num(out, applies ? s->p10 : NAN);
    num(out, applies ? s->p90 : NAN);
    num(out, applies ? (double)s->n : NAN);
    num(out, applies ? p->speedup_wall.geomean : NAN);
    num(out, applies ? p->speedup_wall.paper : NAN);
}

/* What the correctness battery did: candidate rows only. */
static void write_checks(FILE *out, const hb_config_result *r, int is_candidate)
{
    const hb_battery_record *b = &r->battery;
    const hb_exact_record *bin = &b->exact_binary, *sig = &b->exact_signed;
    num(out, is_candidate && bin->ran ? bin->reps : NAN);
    num(out, is_candidate && bin->ran ? (double)bin->compared : NAN);
    num(out, is_candidate && sig->ran ? sig->reps : NAN);
    num(out, is_candidate && sig->ran ? (double)sig->compared : NAN);
    num(out, is_candidate && r->measured ? r->spot_checks : NAN);
    num(out, is_candidate && b->post_ran ? b->post_deviation : NAN);
    num(out, is_candidate && b->post_ran ? b->post_bound : NAN);
    num(out, is_candidate && bin->ran ? b->seconds_before + b->seconds_after : NAN);
    num(out, is_candidate ? r->seconds : NAN);
}

/* cuBLASLt baselines: the algorithm as cublasLtMatmulAlgoConfigGetAttribute
 * reports it, and how it was chosen. */
static void write_algorithm(FILE *out, const hb_algo_record *a)
{
    if (!a->known) {
        for (int i = 0; i < 16; i++)
            fputc(',', out);
        return;
    }
    num(out, a->id);
    text(out, a->tile);
    text(out, a->stages);
    num(out, a->splitk);
    text(out, a->reduction);
    num(out, a->swizzle);
    num(out, a->custom);
    text(out, a->inner);
    text(out, a->cluster);
    num(out, (double)a->needed_workspace_bytes);
    text(out, a->source);
    num(out, a->rank >= 0 ? a->rank : NAN);
    num(out, a->heuristic_results);
    num(out, hb_algo_from_search(a) ? a->search_s : NAN);
    num(out, hb_algo_from_search(a) ? a->search_median_us : NAN);
    num(out, a->setup_s);
}

/* The run's timing policy (every row) and the CI's make-up (baseline rows). */
static void write_policy(FILE *out, const hb_config_result *r, const hb_participant_result *p, int applies)
{
    const hb_timing_record *t = &r->timing;
    text(out, hb_mode_name(t->mode));
    text(out, hb_gap_name(t->mode, t->gap));
    num(out, t->mode == HB_MODE_SERVER ? t->mean_gap_ms : NAN);
    text(out, hb_l2_policy_name(t->l2));
    text(out, t->aa_of);
    num(out, applies ? p->speedup_event.ci95_halfwidth : NAN);
    num(out, applies ? (double)p->speedup_event.bootstrap_block : NAN);
}

/* What the windows did: candidate rows of measured configurations. */
static void write_window(FILE *out, const hb_config_result *r, int applies)
{
    const hb_window_report *w = &r->window;
    int server = r->timing.mode == HB_MODE_SERVER, target = r->timing.target_ci > 0;
    num(out, applies ? (double)w->warmup_rounds : NAN);
    num(out, applies ? w->timed_s : NAN);
    text(out, applies ? w->stopped_by : "");
    num(out, applies && target ? r->timing.target_ci : NAN);
    num(out, applies && target ? w->final_halfwidth : NAN);
    num(out, applies && server ? (double)w->gaps : NAN);
    num(out, applies && server ? w->gap_mean_ms : NAN);
    num(out, applies && server ? w->gap_fraction : NAN);
    num(out, applies && server ? w->achieved_rate_per_s : NAN);
}

static double mhz(int value, int applies)
{
    return applies && value >= 0 ? value : NAN;
}

/* NVML through the timed window: candidate rows of measured configurations. */
static void write_telemetry(FILE *out, const hb_telemetry_summary *t, int measured)
{
    int on = measured && t->available;
    char reasons[160] = "", warning[256] = "";
    if (on) {
        hb_throttle_reason_names(t->reasons_seen, reasons, sizeof reasons);
        hb_telemetry_warning(t, warning, sizeof warning);
    }
    text(out, measured ? (t->available ? "nvml" : t->why) : "");
    num(out, on ? (double)t->samples : NAN);
    num(out, mhz(t->sm_min_mhz, on));
    num(out, on && t->sm_mean_mhz >= 0 ? t->sm_mean_mhz : NAN);
    num(out, mhz(t->sm_max_mhz, on));
    num(out, mhz(t->sm_min_busy_mhz, on));
    num(out, mhz(t->sm_device_max_mhz, on));
    num(out, on && t->mem_mean_mhz >= 0 ? t->mem_mean_mhz : NAN);
    num(out, mhz(t->temp_max_c, on));
    num(out, on && t->power_mean_w >= 0 ? t->power_mean_w : NAN);
    num(out, on && t->power_max_w >= 0 ? t->power_max_w : NAN);
    text(out, reasons);
    text(out, warning);
}

static const char *role_of(const hb_participant_result *p)
{
    return p->is_candidate ? "candidate" : p->max_of[0] ? "baseline-max" : "baseline";
}

static void write_row(FILE *out, const char *run_id, const char *acc_class, const hb_config_result *r,
                      const hb_participant_result *p)
{
    const hb_mnk *c = &r->mnk;
    hb_csv_write_field(out, run_id);
    fprintf(out, ",%ld,%ld,%ld", c->m, c->n, c->k);
    text(out, p->name);
    text(out, role_of(p));
    /* The verdict, check and reason are the candidate's; a baseline row says it ran. */
    text(out, p->is_candidate ? hb_verdict_name(r->verdict) : "ok");
    text(out, p->is_candidate ? r->check : "");
    text(out, p->is_candidate ? r->reason : "");
    text(out, acc_class);
    text(out, p->desc.compute_type);
    text(out, p->desc.scale_type);
    text(out, p->desc.algorithm);
    num(out, (double)p->desc.workspace_bytes);
    text(out, hb_b_layout_name(p->desc.b_layout));
    for (int i = 0; i < 3; i++)
        num(out, p->desc.padded[i] ? (double)p->desc.padded[i] : NAN);
    num(out, r->checked ? p->deviation.max_abs : NAN);
    num(out, r->checked && p->is_candidate ? r->deviation_bound : NAN);
    num(out, r->checked ? (double)p->deviation.non_finite : NAN);
    num(out, r->measured ? (double)p->event_ms.n : NAN);
    write_times(out, p, r->measured);
    double flops = hb_gemm_flops(c->m, c->n, c->k);
    num(out, r->measured ? flops / (p->event_ms.median * 1e-3) * 1e-12 : NAN);
    num(out, r->measured ? flops / (p->wall_ms.median * 1e-3) * 1e-12 : NAN);
    write_speedups(out, p, r->measured && !p->is_candidate);
    write_checks(out, r, p->is_candidate);
    text(out, p->max_of);
    write_algorithm(out, &p->desc.algo);
    write_policy(out, r, p, r->measured && !p->is_candidate);
    write_window(out, r, r->measured && p->is_candidate);
    write_telemetry(out, &r->telemetry, r->measured && p->is_candidate);
    fputc('\n', out);
}

hb_status hb_csv_write_config(FILE *out, const char *run_id, const char *acc_class, const hb_config_result *result)
{
    for (size_t i = 0; i < result->count; i++)
        write_row(out, run_id, acc_class, result, &result->participants[i]);
    if (fflush(out) != 0 || ferror(out))
        return hb_fail(HB_ERR_IO, "writing summary.csv failed (disk full?)");
    return HB_OK;
}

/* The sink: <run folder>/summary.csv, its header when the run begins and a
 * configuration's rows, flushed, as soon as it finishes. */
static hb_status csv_begin(hb_sink *self, const hb_run_record *run)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.csv", run->run_path);
    FILE *file = fopen(path, "w");
    if (!file)
        return hb_fail(HB_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    self->state = file;
    hb_csv_write_header(file);
    if (fflush(file) != 0 || ferror(file))
        return hb_fail(HB_ERR_IO, "writing %s failed (disk full?)", path);
    return HB_OK;
}

static hb_status csv_config(hb_sink *self, const hb_run_record *run, const hb_config_result *result)
{
    if (!self->state)
        return HB_ERR_IO; /* begin failed and said why */
    return hb_csv_write_config(self->state, run->run_id, hb_acc_class_name(run->options->acc), result);
}

static void csv_close(hb_sink *self)
{
    if (self->state)
        fclose(self->state);
    self->state = NULL;
}

static const hb_sink_ops csv_ops = {.name = "summary.csv", .begin = csv_begin, .config = csv_config,
                                    .close = csv_close};

hb_sink hb_summary_csv_sink(void)
{
    hb_sink sink = {&csv_ops, NULL};
    return sink;
}
