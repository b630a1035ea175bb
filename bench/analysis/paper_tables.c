#include "bench/analysis/paper_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/aggregate.h"
#include "bench/analysis/result_forms.h"
#include "bench/analysis/size_bins.h"
#include "bench/analysis/timing_doubt.h"
#include "bench/core/stats.h"

static const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
#define MODE_COUNT (sizeof modes / sizeof modes[0])

double hb_config_ratio(const hb_config_entry *entry, hb_timer timer, hb_estimator estimator, size_t column)
{
    return column < HB_MAX_SPEEDUP_COLUMNS ? entry->ratio[timer][estimator][column] : NAN;
}

const char *hb_timer_words(hb_timer timer)
{
    static const char *const words[HB_TIMER_COUNT] = {
        [HB_TIMER_EVENT] = "CUDA events (the wall clock where the work left them: headline_timer)",
        [HB_TIMER_WALL] = "wall clock",
        [HB_TIMER_KERNEL] = "CUPTI kernel time (the ratio of the kernel medians, one figure for both estimators)"};
    return words[timer];
}

const char *hb_estimator_column(hb_estimator estimator, hb_timer timer)
{
    static const char *const names[HB_EST_COUNT][HB_TIMER_COUNT] = {
        [HB_EST_PAPER] = {"speedup_paper", "speedup_paper_wall", "speedup_kernel"},
        [HB_EST_GEOMEAN] = {"speedup_geomean", "speedup_geomean_wall", "speedup_kernel"}};
    return names[estimator][timer];
}

void hb_published_table_name(hb_mode mode, char *out, size_t size)
{
    snprintf(out, size, "speedup_%s", hb_mode_name(mode));
}

/* --- gathering ----------------------------------------------------------------------- */

/* The counted configurations of one mode, optionally of one size bin. */
typedef struct selection {
    const hb_config_entry **entries;
    size_t count;
} selection;

/* Whether an entry belongs to a selection being made. */
typedef struct filter {
    hb_mode mode;
    const hb_size_binning *binning; /* NULL: any size */
    size_t bin;
} filter;

static int passes(const hb_config_entry *e, const filter *f)
{
    if (e->key.mode != f->mode || !hb_config_counts(e))
        return 0;
    return !f->binning || hb_size_bin_of(f->binning, e->key.m, e->key.n, e->key.k) == f->bin;
}

static hb_status select_entries(const hb_result_set *set, const filter *f, selection *out)
{
    out->count = 0;
    out->entries = malloc((set->count ? set->count : 1) * sizeof *out->entries);
    if (!out->entries)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu configurations", set->count);
    for (size_t i = 0; i < set->count; i++)
        if (passes(&set->entries[i], f))
            out->entries[out->count++] = &set->entries[i];
    return HB_OK;
}

/* Of the configurations behind an aggregate: how many are in doubt, and
 * how many a call monitor watched (bench/analysis/timing_doubt.h). */
typedef struct conduct_counts {
    size_t in_doubt, traced;
} conduct_counts;

/* The aggregate of a column over a selection: a configuration counts when
 * both estimators have a figure; `capped`: max(1, r) (Table 2). */
static hb_status aggregate_column(const selection *s, hb_timer timer, size_t column, int capped,
                                  hb_speedup_aggregate *out, conduct_counts *counts)
{
    *counts = (conduct_counts){0, 0};
    double *paper = malloc(2 * (s->count ? s->count : 1) * sizeof *paper);
    if (!paper)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu configurations", s->count);
    double *ours = paper + (s->count ? s->count : 1);
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++) {
        double p = hb_config_ratio(s->entries[i], timer, HB_EST_PAPER, column);
        double g = hb_config_ratio(s->entries[i], timer, HB_EST_GEOMEAN, column);
        if (!(p > 0) || !(g > 0))
            continue;
        paper[n] = capped && p < 1.0 ? 1.0 : p;
        ours[n++] = capped && g < 1.0 ? 1.0 : g;
        counts->in_doubt += (size_t)hb_config_in_doubt(s->entries[i], NULL, 0);
        counts->traced += (size_t)hb_config_traced(s->entries[i]);
    }
    hb_status status = hb_aggregate_speedups(paper, n, ours, n, out);
    free(paper);
    return status;
}

/* --- the aggregate tables -------------------------------------------------------------- */

/* The columns every aggregate row ends with. */
static void aggregate_columns(hb_doc_table *t)
{
    hb_doc_column(t, "configs", HB_DOC_COUNT);
    hb_doc_column(t, "paper_mean_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "paper_wins_pct", HB_DOC_PERCENT);
    hb_doc_column(t, "geomean_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "ci95_low_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "ci95_high_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "wins_pct", HB_DOC_PERCENT);
    hb_doc_column(t, "in_doubt", HB_DOC_COUNT);
    hb_doc_column(t, "traced", HB_DOC_COUNT);
}

static void aggregate_cells(hb_doc_table *t, size_t first, const hb_speedup_aggregate *a, const conduct_counts *c)
{
    hb_doc_set_number(t, first + 7, (double)c->in_doubt);
    hb_doc_set_number(t, first + 8, (double)c->traced);
    hb_doc_set_number(t, first, (double)a->ours_n);
    hb_doc_set_number(t, first + 1, a->paper_mean);
    hb_doc_set_number(t, first + 2, a->paper_wins);
    hb_doc_set_number(t, first + 3, a->geomean);
    hb_doc_set_number(t, first + 4, a->ci_low);
    hb_doc_set_number(t, first + 5, a->ci_high);
    hb_doc_set_number(t, first + 6, a->ours_wins);
}

/* What each estimator is on `timer`: the kernel time has one figure per configuration. */
static const char *estimator_words(hb_estimator estimator, hb_timer timer)
{
    if (timer == HB_TIMER_KERNEL)
        return "the ratio of the kernel medians, t_base/t_cand";
    return estimator == HB_EST_PAPER ? "the mean over rounds of t_base/t_cand"
                                     : "the geometric mean of the paired per-round ratios";
}

static hb_status how_computed(hb_doc_table *t, const char *what, hb_timer timer, const char *gpus)
{
    return hb_doc_caption(
        t,
        "%s In percent, (ratio - 1) x 100, over the configurations whose verdict is pass or too-slow and that have "
        "both figures. paper_mean_pct: the paper's aggregate, the arithmetic mean over configurations of the "
        "paper's per-configuration estimator (%s + 1: %s); paper_wins_pct: the "
        "share of configurations where it exceeds 1. geomean_pct: ours, the geometric mean over configurations of "
        "our per-configuration estimator (%s + 1: %s), with "
        "ci95_low_pct/ci95_high_pct its 95%% percentile bootstrap interval over configurations (%d resamples, seed "
        "%d); wins_pct: the share where it exceeds 1. in_doubt: of the configs, those whose timing is in doubt "
        "(not traced, or a wall headline because their work left the events: table timing_doubt); traced: those a "
        "call monitor watched, so their conduct was checked. Timer: %s. GPU: %s.",
        what, hb_estimator_column(HB_EST_PAPER, timer), estimator_words(HB_EST_PAPER, timer),
        hb_estimator_column(HB_EST_GEOMEAN, timer), estimator_words(HB_EST_GEOMEAN, timer),
        HB_BOOTSTRAP_RESAMPLES, HB_REPORT_BOOTSTRAP_SEED, hb_timer_words(timer), gpus);
}

/* Table 1 (capped 0) or Table 2 (capped 1): a row per mode and column. */
static hb_status speedup_table(const hb_result_set *set, hb_timer timer, int capped, const char *gpus, hb_doc *doc)
{
    hb_doc_table *t = capped ? hb_doc_add_table(doc, "table2", "Table 2: max(candidate, baseline) against the baseline", 0)
                             : hb_doc_add_table(doc, "table1", "Table 1: the candidate's mean speedup over each baseline", 0);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(how_computed(t,
                        capped ? "Per configuration max(1, t_base/t_cand): what a user who runs the faster of the "
                                 "candidate and the baseline gains over the baseline alone."
                               : "The candidate's speedup t_base/t_cand over each baseline; -max: over the faster of "
                                 "its NN and TN variants per configuration.",
                        timer, gpus));
    hb_doc_column(t, "mode", HB_DOC_TEXT);
    hb_doc_column(t, "baseline", HB_DOC_TEXT);
    aggregate_columns(t);
    for (size_t m = 0; m < MODE_COUNT; m++) {
        selection s;
        filter f = {modes[m], NULL, 0};
        HB_TRY(select_entries(set, &f, &s));
        hb_status status = HB_OK;
        for (size_t c = 0; c < hb_speedup_column_count() && status == HB_OK; c++) {
            hb_speedup_aggregate a;
            conduct_counts counts;
            status = aggregate_column(&s, timer, c, capped, &a, &counts);
            if (status == HB_OK && a.ours_n > 0 && (status = hb_doc_add_row(t)) == HB_OK) {
                status = hb_doc_set_text(t, 0, hb_mode_name(modes[m]));
                if (status == HB_OK)
                    status = hb_doc_set_text(t, 1, hb_speedup_column_at(c)->name);
                aggregate_cells(t, 2, &a, &counts);
            }
        }
        free(s.entries);
        HB_TRY(status);
    }
    return HB_OK;
}

/* One row of Table 3: a mode, a binning, a bin. */
static hb_status size_row(const hb_result_set *set, hb_timer timer, size_t column, const filter *f, hb_doc_table *t)
{
    selection s;
    HB_TRY(select_entries(set, f, &s));
    hb_speedup_aggregate a;
    conduct_counts counts;
    hb_status status = aggregate_column(&s, timer, column, 0, &a, &counts);
    free(s.entries);
    HB_TRY(status);
    if (a.ours_n == 0)
        return HB_OK;
    char label[48];
    hb_size_bin_label(f->binning, f->bin, label, sizeof label);
    HB_TRY(hb_doc_add_row(t));
    HB_TRY(hb_doc_set_text(t, 0, hb_mode_name(f->mode)));
    HB_TRY(hb_doc_set_text(t, 1, f->binning->name));
    HB_TRY(hb_doc_set_text(t, 2, label));
    aggregate_cells(t, 3, &a, &counts);
    return HB_OK;
}

static hb_status size_table(const hb_result_set *set, hb_timer timer, const char *gpus, hb_doc *doc)
{
    int column = hb_speedup_column_autotune_max();
    if (column < 0)
        return hb_doc_note(doc, "Table 3 left out: the baseline registry has no autotuned cuBLASLt -max figure");
    hb_doc_table *t = hb_doc_add_table(doc, "table3", "Table 3: speedup over cuBLASLt-autotune-max by problem size", 0);
    if (!t)
        return HB_ERR_INTERNAL;
    char what[256];
    snprintf(what, sizeof what,
             "The candidate's speedup over %s, by bins of log2(M*N*K) (3 wide), of the mean dimension (M+N+K)/3 and "
             "of the largest dimension (powers of two); a bin [a,b) holds a <= size < b.",
             hb_speedup_column_at((size_t)column)->name);
    HB_TRY(how_computed(t, what, timer, gpus));
    hb_doc_column(t, "mode", HB_DOC_TEXT);
    hb_doc_column(t, "binning", HB_DOC_TEXT);
    hb_doc_column(t, "bin", HB_DOC_TEXT);
    aggregate_columns(t);
    for (size_t m = 0; m < MODE_COUNT; m++)
        for (size_t b = 0; b < hb_size_binning_count(); b++) {
            const hb_size_binning *binning = hb_size_binning_at(b);
            for (size_t bin = 0; bin <= binning->n_edges; bin++) {
                filter f = {modes[m], binning, bin};
                HB_TRY(size_row(set, timer, (size_t)column, &f, t));
            }
        }
    return HB_OK;
}

/* --- the configurations that are not in the means ------------------------------------------ */

static hb_status excluded_table(const hb_result_set *set, hb_doc *doc)
{
    hb_doc_table *t = hb_doc_add_table(doc, "excluded", "Configurations left out of the means", 0);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(hb_doc_caption(t, "Configurations whose candidate did not pass every check or was not measured "
                             "(incorrect, crashed, timed-out, unsupported, implausible, bad-input, error): their "
                             "speedups, if any, are in no table. source: the candidate's row in summary.csv. "
                             "doubt: why its timing, had it counted, would be in doubt (empty: it would not)."));
    const char *const columns[] = {"mode", "mnk", "verdict", "check", "reason", "source", "doubt"};
    for (size_t c = 0; c < sizeof columns / sizeof columns[0]; c++)
        hb_doc_column(t, columns[c], HB_DOC_TEXT);
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        if (hb_config_counts(e))
            continue;
        char mnk[64], source[4400], doubt[1024];
        hb_config_key_mnk(&e->key, mnk, sizeof mnk);
        snprintf(source, sizeof source, "%s:%zu", e->source, e->candidate_line);
        hb_config_in_doubt(e, doubt, sizeof doubt);
        const char *const cells[] = {hb_mode_name(e->key.mode), mnk, e->verdict, e->check, e->reason, source, doubt};
        HB_TRY(hb_doc_add_row(t));
        for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++)
            HB_TRY(hb_doc_set_text(t, c, cells[c]));
    }
    return HB_OK;
}

static hb_status not_run_table(const hb_result_set *set, hb_doc *doc)
{
    hb_doc_table *t = hb_doc_add_table(doc, "not_run", "Configurations a plan expects and no folder holds", 0);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(hb_doc_caption(t, "Items of a sweep's plan.json (of its shard) with no row in any folder's summary.csv: "
                             "not run yet, or lost; resume the sweep, or merge its other shards."));
    hb_doc_column(t, "mode", HB_DOC_TEXT);
    hb_doc_column(t, "mnk", HB_DOC_TEXT);
    hb_doc_column(t, "plan", HB_DOC_TEXT);
    for (size_t i = 0; i < set->n_missing; i++) {
        char mnk[64];
        hb_config_key_mnk(&set->missing[i].key, mnk, sizeof mnk);
        HB_TRY(hb_doc_add_row(t));
        HB_TRY(hb_doc_set_text(t, 0, hb_mode_name(set->missing[i].key.mode)));
        HB_TRY(hb_doc_set_text(t, 1, mnk));
        HB_TRY(hb_doc_set_text(t, 2, set->missing[i].plan));
    }
    return HB_OK;
}

/* The configurations in the means whose timing is in doubt (bench/analysis/timing_doubt.h). */
static hb_status doubt_table(const hb_result_set *set, hb_doc *doc)
{
    hb_doc_table *t = hb_doc_add_table(doc, "timing_doubt", "Configurations in the means whose timing is in doubt", 1);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(hb_doc_caption(t, "Configurations that count (pass or too-slow) whose timing is in doubt: no call monitor "
                             "watched them whole (summary.csv's trace_note says why), so work moved off the timed "
                             "stream would go unseen; or their headline is on the wall clock because their work left "
                             "the CUDA events (timer_reason). They are in the means: each aggregate's in_doubt says "
                             "how many. source: the candidate's row in summary.csv."));
    const char *const columns[] = {"mode", "mnk", "verdict", "doubt", "source"};
    for (size_t c = 0; c < sizeof columns / sizeof columns[0]; c++)
        hb_doc_column(t, columns[c], HB_DOC_TEXT);
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        if (!hb_config_counts(e) || !hb_config_in_doubt(e, NULL, 0))
            continue;
        char mnk[64], source[4400], why[1024];
        hb_config_key_mnk(&e->key, mnk, sizeof mnk);
        snprintf(source, sizeof source, "%s:%zu", e->source, e->candidate_line);
        hb_config_in_doubt(e, why, sizeof why);
        const char *const cells[] = {hb_mode_name(e->key.mode), mnk, e->verdict, why, source};
        HB_TRY(hb_doc_add_row(t));
        for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++)
            HB_TRY(hb_doc_set_text(t, c, cells[c]));
    }
    return HB_OK;
}

/* --- the published layout ------------------------------------------------------------------ */

/* How many of a mode's rows in the published layout are in doubt. */
static size_t doubtful_in_mode(const hb_result_set *set, hb_mode mode)
{
    size_t n = 0;
    for (size_t i = 0; i < set->count; i++)
        n += set->entries[i].key.mode == mode && hb_config_counts(&set->entries[i]) &&
             hb_config_in_doubt(&set->entries[i], NULL, 0);
    return n;
}

hb_status hb_build_published_table(const hb_result_set *set, hb_timer timer, hb_mode mode, hb_doc *doc)
{
    char name[64], title[160];
    hb_published_table_name(mode, name, sizeof name);
    snprintf(title, sizeof title, "Per configuration, %s mode: t_base/t_cand in the published layout", hb_mode_name(mode));
    hb_doc_table *t = hb_doc_add_table(doc, name, title, 1);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(hb_doc_caption(t,
                          "CUDA-L2's published layout: a row per configuration that counts (pass or too-slow), M_N_K, "
                          "then t_base/t_cand over each baseline by the paper's per-configuration estimator (%s + 1, "
                          "%s), 3 decimals; -max: over the faster of NN and TN. Empty: no figure. %zu of its rows "
                          "are in doubt (the layout has no column for it: table timing_doubt lists them).",
                          hb_estimator_column(HB_EST_PAPER, timer), hb_timer_words(timer),
                          doubtful_in_mode(set, mode)));
    hb_doc_column(t, "mnk", HB_DOC_TEXT);
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        hb_doc_column(t, hb_speedup_column_at(c)->published, HB_DOC_RATIO);
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        if (e->key.mode != mode || !hb_config_counts(e))
            continue;
        char mnk[64];
        hb_config_key_mnk(&e->key, mnk, sizeof mnk);
        HB_TRY(hb_doc_add_row(t));
        HB_TRY(hb_doc_set_text(t, 0, mnk));
        for (size_t c = 0; c < hb_speedup_column_count(); c++)
            hb_doc_set_number(t, c + 1, hb_config_ratio(e, timer, HB_EST_PAPER, c));
    }
    return HB_OK;
}

/* --- the report ---------------------------------------------------------------------------- */

static void gpu_words(const hb_result_set *set, char *out, size_t size)
{
    snprintf(out, size, "%s", set->n_gpus ? "" : "not recorded");
    for (size_t i = 0; i < set->n_gpus; i++) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", i ? "; " : "", set->gpus[i]);
    }
}

/* "incorrect 3, crashed 1": the configurations of a mode left out, by verdict, in order of first appearance. */
static void left_out_words(const hb_result_set *set, hb_mode mode, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        if (e->key.mode != mode || hb_config_counts(e))
            continue;
        size_t seen = 0, n = 0;
        for (size_t j = 0; j < set->count; j++) {
            const hb_config_entry *f = &set->entries[j];
            if (f->key.mode == mode && !hb_config_counts(f) && !strcmp(f->verdict, e->verdict)) {
                seen += j < i;
                n++;
            }
        }
        if (seen)
            continue; /* named at its first */
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s %zu", used ? ", " : "", e->verdict, n);
    }
}

/* Per mode: how many configurations, in the means, left out (by verdict),
 * traced (their conduct checked) and in doubt. */
static hb_status mode_note(const hb_result_set *set, hb_mode mode, hb_doc *doc)
{
    size_t total = 0, counted = 0, traced = 0, doubtful = 0;
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        if (e->key.mode != mode)
            continue;
        total++;
        counted += hb_config_counts(e);
        traced += (size_t)hb_config_traced(e);
        doubtful += hb_config_counts(e) && hb_config_in_doubt(e, NULL, 0);
    }
    if (!total)
        return HB_OK;
    char left[512];
    left_out_words(set, mode, left, sizeof left);
    return hb_doc_note(doc, "%s: %zu configurations, %zu in the means, %zu left out%s%s%s; conduct checked "
                            "(traced) in %zu of %zu%s; %zu in the means have timing in doubt%s",
                       hb_mode_name(mode), total, counted, total - counted, left[0] ? " (" : "", left,
                       left[0] ? ")" : "", traced, total, traced == total ? "" : traced ? " (partly traced)"
                                                                                         : " (NOT traced)",
                       doubtful, doubtful ? " (table timing_doubt)" : "");
}

static hb_status count_notes(const hb_result_set *set, hb_doc *doc)
{
    for (size_t m = 0; m < MODE_COUNT; m++)
        HB_TRY(mode_note(set, modes[m], doc));
    if (set->n_missing)
        HB_TRY(hb_doc_note(doc, "%zu configuration%s a plan expects %s not run", set->n_missing,
                           set->n_missing == 1 ? "" : "s", set->n_missing == 1 ? "was" : "were"));
    for (size_t i = 0; i < set->n_notes; i++)
        HB_TRY(hb_doc_note(doc, "%s", set->notes[i]));
    return HB_OK;
}

static int mode_present(const hb_result_set *set, hb_mode mode)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->entries[i].key.mode == mode)
            return 1;
    return 0;
}

/* The tables of one form's configurations (or of every configuration). */
static hb_status form_tables(const hb_result_set *set, hb_timer timer, const char *gpus, int with_not_run,
                             hb_doc *doc)
{
    HB_TRY(speedup_table(set, timer, 0, gpus, doc));
    HB_TRY(speedup_table(set, timer, 1, gpus, doc));
    HB_TRY(size_table(set, timer, gpus, doc));
    HB_TRY(excluded_table(set, doc));
    if (with_not_run)
        HB_TRY(not_run_table(set, doc));
    HB_TRY(doubt_table(set, doc));
    for (size_t m = 0; m < MODE_COUNT; m++)
        if (mode_present(set, modes[m]))
            HB_TRY(hb_build_published_table(set, timer, modes[m], doc));
    return HB_OK;
}

/* A folder that mixes forms: every table once per form, on that form's
 * configurations (bench/analysis/result_forms.h), and the counts per form. */
static hb_status tables_per_form(const hb_result_set *set, hb_timer timer, const char *gpus,
                                 const size_t counts[HB_N_RESULT_FORMS], hb_doc *doc)
{
    for (size_t f = 0; f < HB_N_RESULT_FORMS; f++) {
        if (!counts[f])
            continue;
        hb_result_set of_form;
        const size_t first = doc->n_tables;
        hb_status status = hb_result_set_of_form(set, hb_result_form_at(f), &of_form);
        if (status == HB_OK)
            status = hb_doc_note(doc, "form %s:", hb_result_form_at(f));
        for (size_t m = 0; m < MODE_COUNT && status == HB_OK; m++)
            status = mode_note(&of_form, modes[m], doc);
        if (status == HB_OK)
            status = form_tables(&of_form, timer, gpus, 0, doc);
        if (status == HB_OK)
            status = hb_doc_mark_form(doc, first, hb_result_form_at(f), 1);
        hb_result_set_free(&of_form);
        HB_TRY(status);
    }
    return HB_OK;
}

hb_status hb_build_report(const hb_result_set *set, hb_timer timer, hb_doc *doc)
{
    char gpus[512], form[160];
    size_t counts[HB_N_RESULT_FORMS];
    const size_t forms = hb_result_form_counts(set, counts);
    gpu_words(set, gpus, sizeof gpus);
    hb_result_form_words(counts, form, sizeof form);
    HB_TRY(hb_doc_note(doc, "GPU: %s; timer: %s%s%s%s", gpus, hb_timer_words(timer), forms ? "; " : "", form,
                       forms > 1 ? " (each table once per form, on that form's configurations: table1_replay, ...)"
                                 : ""));
    HB_TRY(count_notes(set, doc));
    if (forms > 1) {
        HB_TRY(tables_per_form(set, timer, gpus, counts, doc));
        return not_run_table(set, doc); /* a plan's items have no form yet */
    }
    const size_t first = doc->n_tables;
    HB_TRY(form_tables(set, timer, gpus, 1, doc));
    for (size_t f = 0; f < HB_N_RESULT_FORMS; f++)
        if (counts[f])
            HB_TRY(hb_doc_mark_form(doc, first, hb_result_form_at(f), 0));
    return HB_OK;
}
