/* compare's per-timer tables (docs/reports.md, "compare"): on the
 * configurations both sides have, per column, ours on every timer
 * (bench/analysis/compare_timers.h) beside the published figure, by size
 * bin, aggregated in the paper's way; each configuration's status against
 * its noise (bench/analysis/compare_status.h), counted per column. */
#include "bench/analysis/timer_comparison.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/aggregate.h"
#include "bench/analysis/compare_timers.h"
#include "bench/analysis/paper_tables.h"
#include "bench/analysis/size_bins.h"
#include "bench/analysis/timing_doubt.h"

/* The binning of the per-timer tables: Table 3's first, log2(M*N*K). */
static const hb_size_binning *timer_binning(void) { return hb_size_binning_at(0); }

/* A pair's figures over one column. */
typedef struct figures {
    double published;
    double timer[HB_CMP_TIMER_COUNT];
    double ours;       /* the --timer figure the status judges: the paper's estimator */
    double geomean;    /* our estimator on the --timer timer, for the geometric mean and its CI */
    double diff, noise;
    hb_compare_status status;
    int doubt;
    char why[256];
} figures;

static void figures_of(const hb_compare_input *in, const hb_compare_pair *pair, size_t column, figures *f)
{
    const hb_config_entry *e = pair->ours;
    f->published = pair->theirs->ratio[column];
    for (int t = 0; t < HB_CMP_TIMER_COUNT; t++)
        f->timer[t] = hb_compare_timer_ratio(e, (hb_compare_timer)t, column);
    f->ours = hb_config_ratio(e, in->timer, HB_EST_PAPER, column);
    f->geomean = hb_config_ratio(e, in->timer, HB_EST_GEOMEAN, column);
    f->status = hb_compare_status_of(f->ours, f->published, e->timers.ci_rel_half[column], in->noise_floor, &f->diff,
                                     &f->noise);
    f->doubt = hb_config_in_doubt(e, f->why, sizeof f->why);
}

static int below_threshold(const hb_compare_input *in, const figures *f)
{
    return in->threshold >= 0 && f->status == HB_CMP_SLOWER && f->diff < -in->threshold;
}

/* --- compare_status ----------------------------------------------------------------------- */

static hb_status status_table(const hb_compare_input *in, const hb_compare_pair *pairs, size_t count, hb_doc *doc,
                              hb_compare_outcome *out)
{
    hb_doc_table *t = hb_doc_add_table(doc, "compare_status", "Each configuration against the published figure", 0);
    if (!t)
        return HB_ERR_INTERNAL;
    char floor[64] = "none", threshold[96] = "none given";
    if (in->noise_floor > 0)
        snprintf(floor, sizeof floor, "%g %%", 100 * in->noise_floor);
    if (in->threshold >= 0)
        snprintf(threshold, sizeof threshold, "%g %% (exit 15 if any)", 100 * in->threshold);
    HB_TRY(hb_doc_caption(t,
                          "Per configuration both sides have a figure for: d = ours/published - 1 (ours: %s + 1) "
                          "against the noise, the larger of our 95%% CI half-width over the headline ratio and "
                          "--noise (%s): same if |d| <= noise, faster if d > noise (ours further ahead of the "
                          "baseline), slower if d < -noise, unknown without noise. below_threshold: slower by more "
                          "than --threshold, %s. in_doubt: of the configurations, those whose timing is in doubt.",
                          hb_estimator_column(HB_EST_PAPER, in->timer), floor, threshold));
    hb_doc_column(t, "baseline", HB_DOC_TEXT);
    hb_doc_column(t, "published", HB_DOC_TEXT);
    hb_doc_column(t, "configs", HB_DOC_COUNT);
    for (int s = 0; s < HB_CMP_STATUS_COUNT; s++)
        hb_doc_column(t, hb_compare_status_name((hb_compare_status)s), HB_DOC_COUNT);
    hb_doc_column(t, "below_threshold", HB_DOC_COUNT);
    hb_doc_column(t, "in_doubt", HB_DOC_COUNT);
    for (size_t c = 0; c < hb_speedup_column_count(); c++) {
        size_t n = 0, by_status[HB_CMP_STATUS_COUNT] = {0}, below = 0, doubt = 0;
        for (size_t i = 0; i < count; i++) {
            figures f;
            figures_of(in, &pairs[i], c, &f);
            if (!(f.ours > 0) || !(f.published > 0))
                continue;
            n++;
            by_status[f.status]++;
            below += below_threshold(in, &f);
            doubt += f.doubt;
        }
        out->pairs += n;
        for (int s = 0; s < HB_CMP_STATUS_COUNT; s++)
            out->status[s] += by_status[s];
        out->below_threshold += below;
        HB_TRY(hb_doc_add_row(t));
        HB_TRY(hb_doc_set_text(t, 0, hb_speedup_column_at(c)->name));
        HB_TRY(hb_doc_set_text(t, 1, hb_speedup_column_at(c)->published));
        hb_doc_set_number(t, 2, (double)n);
        for (int s = 0; s < HB_CMP_STATUS_COUNT; s++)
            hb_doc_set_number(t, 3 + (size_t)s, (double)by_status[s]);
        hb_doc_set_number(t, 3 + HB_CMP_STATUS_COUNT, in->threshold >= 0 ? (double)below : NAN);
        hb_doc_set_number(t, 4 + HB_CMP_STATUS_COUNT, (double)doubt);
    }
    return HB_OK;
}

/* --- compare_timers_<column> ------------------------------------------------------------------ */

/* Sums over one bin's configurations. */
typedef struct bin_sums {
    size_t configs, timer_n[HB_CMP_TIMER_COUNT], doubt;
    double published, timer[HB_CMP_TIMER_COUNT];
    double *geomean; /* our estimator's ratios, for the geometric mean and its CI */
    size_t geomean_n;
} bin_sums;

static void add_to_bin(bin_sums *b, const figures *f)
{
    b->configs++;
    b->published += f->published;
    for (int t = 0; t < HB_CMP_TIMER_COUNT; t++)
        if (f->timer[t] > 0) {
            b->timer[t] += f->timer[t];
            b->timer_n[t]++;
        }
    if (f->geomean > 0)
        b->geomean[b->geomean_n++] = f->geomean;
    b->doubt += f->doubt;
}

static hb_status bin_row(hb_doc_table *t, const char *label, const bin_sums *b)
{
    hb_speedup_aggregate a;
    HB_TRY(hb_aggregate_speedups(b->geomean, b->geomean_n, b->geomean, b->geomean_n, &a));
    HB_TRY(hb_doc_add_row(t));
    HB_TRY(hb_doc_set_text(t, 0, label));
    hb_doc_set_number(t, 1, (double)b->configs);
    hb_doc_set_number(t, 2, b->published / (double)b->configs - 1.0);
    for (int s = 0; s < HB_CMP_TIMER_COUNT; s++)
        hb_doc_set_number(t, 3 + (size_t)s, b->timer_n[s] ? b->timer[s] / (double)b->timer_n[s] - 1.0 : NAN);
    hb_doc_set_number(t, 3 + HB_CMP_TIMER_COUNT, (double)b->timer_n[HB_CMP_KERNEL]);
    hb_doc_set_number(t, 4 + HB_CMP_TIMER_COUNT, a.geomean);
    hb_doc_set_number(t, 5 + HB_CMP_TIMER_COUNT, a.ci_low);
    hb_doc_set_number(t, 6 + HB_CMP_TIMER_COUNT, a.ci_high);
    hb_doc_set_number(t, 7 + HB_CMP_TIMER_COUNT, (double)b->doubt);
    return HB_OK;
}

static hb_status timers_table_columns(const hb_compare_input *in, size_t column, hb_doc_table *t)
{
    const hb_speedup_column *c = hb_speedup_column_at(column);
    HB_TRY(hb_doc_caption(t,
                          "Over %s and the configurations both sides have with a published %s figure (configs), all "
                          "and by %s bin: the arithmetic mean of t_base/t_cand, minus 1, in percent (the paper's "
                          "Table 1 aggregate): published; ours on CUDA events (speedup_paper_event), the wall clock "
                          "(speedup_paper_wall), kernel time from CUPTI (speedup_kernel: kernel_configs have one) and "
                          "the CUDA-L2 repository's estimator (repo: mean TFLOP/s over mean TFLOP/s, from the mean "
                          "wall times), each over the configurations with that figure; our geometric mean of %s + 1 "
                          "with its 95%% bootstrap CI; in_doubt: configurations whose timing is in doubt. %s mode.",
                          c->name, c->published, timer_binning()->name, hb_estimator_column(HB_EST_GEOMEAN, in->timer),
                          hb_mode_name(in->mode)));
    hb_doc_column(t, "bin", HB_DOC_TEXT);
    hb_doc_column(t, "configs", HB_DOC_COUNT);
    hb_doc_column(t, "published_mean_pct", HB_DOC_SPEEDUP);
    for (int s = 0; s < HB_CMP_TIMER_COUNT; s++) {
        char name[48];
        snprintf(name, sizeof name, "%s_mean_pct", hb_compare_timer_name((hb_compare_timer)s));
        hb_doc_column(t, name, HB_DOC_SPEEDUP);
    }
    hb_doc_column(t, "kernel_configs", HB_DOC_COUNT);
    hb_doc_column(t, "geomean_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "ci95_low_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "ci95_high_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "in_doubt", HB_DOC_COUNT);
    return HB_OK;
}

/* One column's table: the bins [0, n_edges] then "all" at index n_edges + 1. */
static hb_status timers_table(const hb_compare_input *in, const hb_compare_pair *pairs, size_t count, size_t column,
                              hb_doc *doc, double *scratch)
{
    const hb_speedup_column *c = hb_speedup_column_at(column);
    char name[96], title[160];
    snprintf(name, sizeof name, "compare_timers_%s", c->name);
    snprintf(title, sizeof title, "Which timer comes closest: speedup over %s, by size", c->name);
    hb_doc_table *t = hb_doc_add_table(doc, name, title, 0);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(timers_table_columns(in, column, t));
    const hb_size_binning *binning = timer_binning();
    size_t n_bins = binning->n_edges + 1;
    bin_sums sums[HB_MAX_BIN_EDGES + 2];
    memset(sums, 0, sizeof sums);
    for (size_t b = 0; b <= n_bins; b++)
        sums[b].geomean = scratch + b * (count ? count : 1);
    for (size_t i = 0; i < count; i++) {
        figures f;
        figures_of(in, &pairs[i], column, &f);
        if (!(f.published > 0))
            continue;
        const hb_config_key *k = &pairs[i].ours->key;
        add_to_bin(&sums[hb_size_bin_of(binning, k->m, k->n, k->k)], &f);
        add_to_bin(&sums[n_bins], &f);
    }
    HB_TRY(bin_row(t, "all", &sums[n_bins]));
    for (size_t b = 0; b < n_bins; b++) {
        if (!sums[b].configs)
            continue; /* a bin without a configuration has no row, as in Table 3 */
        char label[48];
        hb_size_bin_label(binning, b, label, sizeof label);
        HB_TRY(bin_row(t, label, &sums[b]));
    }
    return HB_OK;
}

/* --- compare_timer_configs ---------------------------------------------------------------------- */

static hb_status timer_configs_columns(const hb_compare_input *in, hb_doc_table *t)
{
    HB_TRY(hb_doc_caption(t,
                          "Per configuration both sides have and column with a published figure: t_base/t_cand "
                          "published and ours on every timer (events, wall, kernel, repo); ours: the figure the "
                          "status judges (%s + 1); diff_pct: ours/published - 1; noise_pct: the noise it is judged "
                          "against; status; doubt: why our timing is in doubt (empty: it is not).",
                          hb_estimator_column(HB_EST_PAPER, in->timer)));
    hb_doc_column(t, "mnk", HB_DOC_TEXT);
    hb_doc_column(t, "bin", HB_DOC_TEXT);
    hb_doc_column(t, "baseline", HB_DOC_TEXT);
    hb_doc_column(t, "published", HB_DOC_RATIO);
    for (int s = 0; s < HB_CMP_TIMER_COUNT; s++)
        hb_doc_column(t, hb_compare_timer_name((hb_compare_timer)s), HB_DOC_RATIO);
    hb_doc_column(t, "ours", HB_DOC_RATIO);
    hb_doc_column(t, "diff_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "noise_pct", HB_DOC_PERCENT);
    hb_doc_column(t, "status", HB_DOC_TEXT);
    hb_doc_column(t, "doubt", HB_DOC_TEXT);
    return HB_OK;
}

static hb_status timer_config_row(hb_doc_table *t, const hb_compare_pair *pair, size_t column, const figures *f)
{
    const hb_config_key *k = &pair->ours->key;
    char mnk[64], bin[48];
    hb_config_key_mnk(k, mnk, sizeof mnk);
    hb_size_bin_label(timer_binning(), hb_size_bin_of(timer_binning(), k->m, k->n, k->k), bin, sizeof bin);
    HB_TRY(hb_doc_add_row(t));
    HB_TRY(hb_doc_set_text(t, 0, mnk));
    HB_TRY(hb_doc_set_text(t, 1, bin));
    HB_TRY(hb_doc_set_text(t, 2, hb_speedup_column_at(column)->name));
    hb_doc_set_number(t, 3, f->published);
    for (int s = 0; s < HB_CMP_TIMER_COUNT; s++)
        hb_doc_set_number(t, 4 + (size_t)s, f->timer[s]);
    size_t next = 4 + HB_CMP_TIMER_COUNT;
    hb_doc_set_number(t, next, f->ours);
    hb_doc_set_number(t, next + 1, f->diff);
    hb_doc_set_number(t, next + 2, f->noise);
    HB_TRY(hb_doc_set_text(t, next + 3, hb_compare_status_name(f->status)));
    return hb_doc_set_text(t, next + 4, f->why);
}

static hb_status timer_configs_table(const hb_compare_input *in, const hb_compare_pair *pairs, size_t count,
                                     hb_doc *doc)
{
    hb_doc_table *t =
        hb_doc_add_table(doc, "compare_timer_configs", "Per configuration: every timer beside the published", 1);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(timer_configs_columns(in, t));
    for (size_t i = 0; i < count; i++)
        for (size_t c = 0; c < hb_speedup_column_count(); c++) {
            figures f;
            figures_of(in, &pairs[i], c, &f);
            if (f.published > 0)
                HB_TRY(timer_config_row(t, &pairs[i], c, &f));
        }
    return HB_OK;
}

hb_status hb_build_timer_tables(const hb_compare_input *in, const hb_compare_pair *pairs, size_t count, hb_doc *doc,
                                hb_compare_outcome *out)
{
    HB_TRY(status_table(in, pairs, count, doc, out));
    size_t per_bin = count ? count : 1;
    double *scratch = malloc((HB_MAX_BIN_EDGES + 2) * per_bin * sizeof *scratch);
    if (!scratch)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory comparing %zu configurations", count);
    hb_status status = HB_OK;
    for (size_t c = 0; c < hb_speedup_column_count() && status == HB_OK; c++)
        status = timers_table(in, pairs, count, c, doc, scratch);
    free(scratch);
    return status == HB_OK ? timer_configs_table(in, pairs, count, doc) : status;
}
