#include "bench/result/baseline_reference.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/stats.h"

/* --- one process's figures ------------------------------------------------------------ */

/* A summary of samples in milliseconds as microseconds. */
static hb_ref_spread spread_of_summary(const hb_time_summary *t)
{
    return (hb_ref_spread){t->n, t->median * 1e3, t->p10 * 1e3, t->p90 * 1e3};
}

/* The finite values among v[0..n): their count, median and spread (NaN spans are calls with no kernel seen). */
static hb_ref_spread spread_of_values(const double *v, size_t n)
{
    hb_ref_spread s = {0, NAN, NAN, NAN};
    double *scratch = n ? malloc(n * sizeof *scratch) : NULL;
    if (!scratch)
        return s;
    for (size_t i = 0; i < n; i++)
        s.n += isfinite(v[i]) != 0;
    if (s.n) {
        s.median_us = hb_finite_quantile(v, n, 0.5, scratch);
        s.p10_us = hb_finite_quantile(v, n, 0.1, scratch);
        s.p90_us = hb_finite_quantile(v, n, 0.9, scratch);
    }
    free(scratch);
    return s;
}

static void kernels_of(const hb_watched *w, size_t rounds, hb_baseline_figures *out)
{
    const size_t n = rounds < w->timed_span_us.len ? rounds : w->timed_span_us.len;
    out->timer[HB_REF_KERNEL] = spread_of_values(w->timed_span_us.data, n);
    out->traced = 1;
    const hb_conduct_tally *t = &w->tally;
    out->kernel_names = t->n_kernel_names < HB_REF_KERNEL_NAMES ? t->n_kernel_names : HB_REF_KERNEL_NAMES;
    out->more_kernel_names = t->more_kernel_names + (t->n_kernel_names - out->kernel_names);
    for (int k = 0; k < out->kernel_names; k++)
        snprintf(out->kernel_name[k], sizeof out->kernel_name[k], "%s", t->kernel_name[k]);
    out->kernels_per_call = t->max_kernels;
    out->copies_per_call = t->calls ? (double)t->copies / t->calls : 0;
}

void hb_baseline_figures_of(const hb_participant_result *p, const hb_watched *w, size_t rounds,
                            hb_baseline_figures *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", p->name);
    if (p->desc.algo.known) {
        hb_algo_text(&p->desc.algo, out->algo, sizeof out->algo);
        snprintf(out->algo_source, sizeof out->algo_source, "%s", p->desc.algo.source);
    }
    out->timer[HB_REF_EVENT] = spread_of_summary(&p->event_ms);
    out->timer[HB_REF_WALL] = spread_of_summary(&p->wall_ms);
    out->timer[HB_REF_KERNEL] = (hb_ref_spread){0, NAN, NAN, NAN};
    if (w)
        kernels_of(w, rounds, out);
}

/* --- the reference as a whole ------------------------------------------------------- */

const hb_baseline_figures *hb_reference_find(const hb_baseline_reference *ref, const char *name)
{
    for (size_t i = 0; i < ref->count && i < HB_N_BASELINES; i++)
        if (!strcmp(ref->baseline[i].name, name))
            return &ref->baseline[i];
    return NULL;
}

int hb_reference_complete(const hb_baseline_reference *ref, char *why, size_t why_size)
{
    for (int i = 0; i < HB_N_BASELINES; i++) {
        const hb_baseline_figures *f = hb_reference_find(ref, hb_baselines[i].name);
        if (!f) {
            snprintf(why, why_size, "it holds no baseline %s", hb_baselines[i].name);
            return 0;
        }
        for (int t = HB_REF_EVENT; t <= HB_REF_WALL; t++)
            if (f->timer[t].n == 0 || !(f->timer[t].median_us > 0)) {
                snprintf(why, why_size, "its baseline %s has no %s median", f->name, hb_ref_figure_name(t));
                return 0;
            }
    }
    return 1;
}

int hb_reference_choice_current(const hb_baseline_figures *f, const char *cached_algo, int search)
{
    if (cached_algo)
        return f->choice[0] && !strcmp(f->choice, cached_algo);
    return !search && !strcmp(f->algo_source, "fallback");
}

/* --- the judgement -------------------------------------------------------------------- */

static void append(char *out, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void append(char *out, size_t size, const char *format, ...)
{
    size_t used = strlen(out);
    if (used + 1 >= size)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(out + used, size - used, format, args);
    va_end(args);
}

static void interfere(hb_ref_judgement *out, const char *check, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void interfere(hb_ref_judgement *out, const char *check, const char *format, ...)
{
    if (out->interfered)
        return; /* the first finding is the verdict's */
    out->interfered = 1;
    snprintf(out->check, sizeof out->check, "%s", check);
    va_list args;
    va_start(args, format);
    vsnprintf(out->reason, sizeof out->reason, format, args);
    va_end(args);
}

static int known_name(const hb_baseline_figures *clean, const char *name)
{
    for (int k = 0; k < clean->kernel_names; k++)
        if (!strcmp(clean->kernel_name[k], name))
            return 1;
    return 0;
}

/* A baseline makes the same copies and sets in every call: one more in a
 * hundredth of its calls is not its own. */
#define COPIES_SLACK 0.01

/* A kernel its clean process never ran, more of them in one call, or more copies and sets. */
static void judge_kernels(const hb_baseline_figures *clean, const hb_baseline_figures *seen, hb_ref_judgement *out)
{
    if (!clean->traced || !seen->traced)
        return;
    for (int k = 0; k < seen->kernel_names; k++)
        if (!known_name(clean, seen->kernel_name[k]) && clean->more_kernel_names == 0) {
            interfere(out, HB_CHECK_BASELINE_KERNELS, "%s ran the kernel %.200s in the candidate's process, which it "
                      "never ran in its clean process (%d kernel name%s there%s%.120s)", seen->name,
                      seen->kernel_name[k], clean->kernel_names, clean->kernel_names == 1 ? "" : "s",
                      clean->kernel_names ? ": " : "", clean->kernel_names ? clean->kernel_name[0] : "");
            return;
        }
    if (seen->more_kernel_names > clean->more_kernel_names && clean->more_kernel_names == 0)
        interfere(out, HB_CHECK_BASELINE_KERNELS, "%s ran more than %d distinct kernels in the candidate's process, "
                  "%d in its clean process", seen->name, HB_REF_KERNEL_NAMES, clean->kernel_names);
    else if (seen->kernels_per_call > clean->kernels_per_call)
        interfere(out, HB_CHECK_BASELINE_KERNELS, "%s ran %d kernels in one call in the candidate's process, %d at "
                  "most in its clean process", seen->name, seen->kernels_per_call, clean->kernels_per_call);
    else if (seen->copies_per_call > clean->copies_per_call + COPIES_SLACK)
        interfere(out, HB_CHECK_BASELINE_KERNELS, "%s made %.3f copies or sets per call in the candidate's process, "
                  "%.3f in its clean process", seen->name, seen->copies_per_call, clean->copies_per_call);
}

/* Each timer's median against the clean one's; the largest ratio kept. */
static void judge_times(const hb_ref_tolerance *t, const hb_baseline_figures *clean, const hb_baseline_figures *seen,
                        hb_ref_judgement *out)
{
    for (int f = 0; f < HB_REF_FIGURES; f++) {
        const hb_ref_spread *c = &clean->timer[f], *s = &seen->timer[f];
        if (c->n == 0 || s->n == 0 || !(c->median_us > 0) || !isfinite(s->median_us))
            continue;
        const double ratio = s->median_us / c->median_us;
        if (!(ratio <= out->worst_ratio)) { /* NaN at first: the first ratio is the worst so far */
            out->worst_ratio = ratio;
            snprintf(out->worst, sizeof out->worst, "%s %s", seen->name, hb_ref_figure_name((hb_ref_figure)f));
        }
        double noise_us;
        const double allowed = hb_ref_allowed_us(t, (hb_ref_figure)f, c, s, &noise_us);
        if (s->median_us - c->median_us > allowed)
            interfere(out, HB_CHECK_BASELINE_TIMES, "%s's %s median is %.3f us in the candidate's process, %.3f us in "
                      "its clean process (x%.3f): above it by more than the tolerance, %.4g %% + %.3f us + %.3f us "
                      "of the medians' noise = %.3f us", seen->name, hb_ref_figure_name((hb_ref_figure)f),
                      s->median_us, c->median_us, ratio, t->relative[f] * 100, t->absolute_us[f], noise_us, allowed);
    }
}

/* The clean figures `seen` is held to, or NULL and why not in out->not_held. */
static const hb_baseline_figures *clean_of(const hb_held_reference *held, const hb_baseline_figures *seen,
                                           hb_ref_judgement *out)
{
    const hb_baseline_figures *clean = hb_reference_find(&held->reference, seen->name);
    if (!clean) {
        append(out->not_held, sizeof out->not_held, "%s%s: no reference", out->not_held[0] ? "; " : "", seen->name);
        return NULL;
    }
    if (!strcmp(clean->algo, seen->algo))
        return clean;
    /* Another algorithm is not held, even from the same autotune choice:
     * measured on 2 x H200 (2026-11-28), cuBLASLt's autotuned baselines ran
     * another algorithm in the candidate's process than in its clean one in
     * honest runs, so a verdict here would fail honest candidates. */
    append(out->not_held, sizeof out->not_held, "%s%s: another algorithm than in its clean process (%.120s here, "
           "%.120s there)", out->not_held[0] ? "; " : "", seen->name, seen->algo, clean->algo);
    return NULL;
}

void hb_judge_baselines(const hb_held_reference *held, const hb_baseline_figures *seen, size_t count,
                        hb_ref_judgement *out)
{
    memset(out, 0, sizeof *out);
    out->worst_ratio = NAN;
    const hb_baseline_figures *clean[HB_MAX_PARTICIPANTS] = {NULL};
    for (size_t i = 0; i < count && i < HB_MAX_PARTICIPANTS; i++) {
        clean[i] = clean_of(held, &seen[i], out);
        if (clean[i]) {
            out->held++;
            judge_kernels(clean[i], &seen[i], out); /* what ran comes first: it names the cause */
        }
    }
    for (size_t i = 0; i < count && i < HB_MAX_PARTICIPANTS; i++)
        if (clean[i])
            judge_times(&held->tolerance, clean[i], &seen[i], out);
}
