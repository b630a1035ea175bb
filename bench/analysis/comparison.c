#include "bench/analysis/comparison.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/paper_tables.h"
#include "bench/analysis/result_forms.h"
#include "bench/analysis/timer_comparison.h"
#include "bench/analysis/timing_doubt.h"
#include "bench/core/rank_correlation.h"

typedef struct pairing {
    hb_compare_pair *common;
    size_t count;
} pairing;

static double our_ratio(const hb_compare_input *in, const hb_config_entry *e, size_t column)
{
    return hb_config_ratio(e, in->timer, HB_EST_PAPER, column);
}

static hb_status pair_up(const hb_compare_input *in, pairing *out)
{
    const hb_result_set *set = in->ours;
    out->count = 0;
    out->common = malloc((set->count ? set->count : 1) * sizeof *out->common);
    if (!out->common)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory comparing %zu configurations", set->count);
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        if (e->key.mode != in->mode || !hb_config_counts(e))
            continue;
        const hb_published_row *r = hb_published_find(in->theirs, e->key.m, e->key.n, e->key.k);
        if (r)
            out->common[out->count++] = (hb_compare_pair){e, r};
    }
    return HB_OK;
}

/* --- per column ------------------------------------------------------------------------- */

typedef struct column_summary {
    size_t n;
    double ours_mean, theirs_mean, ours_geomean, theirs_geomean; /* as speedups (ratio - 1) */
    double spearman;
    double both_win; /* share where both ratios exceed 1 */
} column_summary;

static void means(const double *r, size_t n, double *mean, double *geomean)
{
    double sum = 0, log_sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += r[i];
        log_sum += log(r[i]);
    }
    *mean = n ? sum / (double)n - 1.0 : NAN;
    *geomean = n ? exp(log_sum / (double)n) - 1.0 : NAN;
}

static hb_status summarize_column(const hb_compare_input *in, const pairing *p, size_t column, column_summary *out)
{
    double *x = malloc(2 * (p->count ? p->count : 1) * sizeof *x);
    if (!x)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory comparing %zu configurations", p->count);
    double *y = x + (p->count ? p->count : 1);
    size_t n = 0, both = 0;
    for (size_t i = 0; i < p->count; i++) {
        double o = our_ratio(in, p->common[i].ours, column), t = p->common[i].theirs->ratio[column];
        if (!(o > 0) || !(t > 0))
            continue;
        x[n] = o;
        y[n++] = t;
        both += o > 1.0 && t > 1.0;
    }
    out->n = n;
    means(x, n, &out->ours_mean, &out->ours_geomean);
    means(y, n, &out->theirs_mean, &out->theirs_geomean);
    out->both_win = n ? (double)both / (double)n : NAN;
    hb_status status = hb_spearman(x, y, n, &out->spearman);
    free(x);
    return status;
}

static hb_status summary_table(const hb_compare_input *in, const pairing *p, hb_doc *doc)
{
    hb_doc_table *t = hb_doc_add_table(doc, "compare_summary", "Ours against the published figures, per baseline", 0);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(hb_doc_caption(t,
                          "On the configurations both sides have (configs): the arithmetic (mean) and geometric "
                          "(geomean) means of t_base/t_cand, minus 1, in percent, ours and published; spearman: "
                          "Spearman's rank correlation of the two (ties share their average rank); both_win_pct: the "
                          "share of configurations where both say the candidate wins (both ratios > 1). Ours: %s + 1 "
                          "(%s), %s mode (from %s).",
                          hb_estimator_column(HB_EST_PAPER, in->timer), hb_timer_words(in->timer),
                          hb_mode_name(in->mode), in->mode_source));
    hb_doc_column(t, "baseline", HB_DOC_TEXT);
    hb_doc_column(t, "published", HB_DOC_TEXT);
    hb_doc_column(t, "configs", HB_DOC_COUNT);
    hb_doc_column(t, "ours_mean_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "published_mean_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "ours_geomean_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "published_geomean_pct", HB_DOC_SPEEDUP);
    hb_doc_column(t, "spearman", HB_DOC_COEFFICIENT);
    hb_doc_column(t, "both_win_pct", HB_DOC_PERCENT);
    for (size_t c = 0; c < hb_speedup_column_count(); c++) {
        column_summary s;
        HB_TRY(summarize_column(in, p, c, &s));
        HB_TRY(hb_doc_add_row(t));
        HB_TRY(hb_doc_set_text(t, 0, hb_speedup_column_at(c)->name));
        HB_TRY(hb_doc_set_text(t, 1, hb_speedup_column_at(c)->published));
        const double numbers[] = {(double)s.n, s.ours_mean, s.theirs_mean, s.ours_geomean, s.theirs_geomean,
                                  s.spearman, s.both_win};
        for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
            hb_doc_set_number(t, 2 + i, numbers[i]);
    }
    return HB_OK;
}

/* --- the largest disagreements ------------------------------------------------------------- */

typedef struct disagreement {
    const hb_compare_pair *config;
    size_t column;
    double ours, theirs, size; /* size: |log(ours / theirs)| */
} disagreement;

static int larger_first(const void *a, const void *b)
{
    const disagreement *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? 1 : -1;
    /* equal sizes: the earlier configuration, then column, first, so the order is fixed */
    if (x->config != y->config)
        return x->config < y->config ? -1 : 1;
    return (x->column > y->column) - (x->column < y->column);
}

static hb_status disagreement_rows(const disagreement *d, size_t count, hb_doc_table *t)
{
    for (size_t i = 0; i < count && i < HB_COMPARE_TOP_DISAGREEMENTS; i++) {
        char mnk[64];
        hb_config_key_mnk(&d[i].config->ours->key, mnk, sizeof mnk);
        HB_TRY(hb_doc_add_row(t));
        HB_TRY(hb_doc_set_text(t, 0, mnk));
        HB_TRY(hb_doc_set_text(t, 1, hb_speedup_column_at(d[i].column)->name));
        hb_doc_set_number(t, 2, d[i].ours);
        hb_doc_set_number(t, 3, d[i].theirs);
        hb_doc_set_number(t, 4, d[i].ours / d[i].theirs);
        hb_doc_set_number(t, 5, d[i].size);
        char why[256];
        hb_config_in_doubt(d[i].config->ours, why, sizeof why);
        HB_TRY(hb_doc_set_text(t, 6, why));
    }
    return HB_OK;
}

static hb_status disagreement_table(const hb_compare_input *in, const pairing *p, hb_doc *doc)
{
    hb_doc_table *t = hb_doc_add_table(doc, "compare_disagreements", "The largest disagreements", 0);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(hb_doc_caption(t,
                          "The %d (configuration, baseline) pairs where ours and the published t_base/t_cand differ "
                          "most, by |log(ours/published)| (abs_log: 0.693 is a factor of 2 either way); doubt: why "
                          "our timing of the configuration is in doubt (empty: it is not).",
                          HB_COMPARE_TOP_DISAGREEMENTS));
    const char *const text_columns[] = {"mnk", "baseline"};
    for (size_t c = 0; c < 2; c++)
        hb_doc_column(t, text_columns[c], HB_DOC_TEXT);
    hb_doc_column(t, "ours", HB_DOC_RATIO);
    hb_doc_column(t, "published", HB_DOC_RATIO);
    hb_doc_column(t, "ours_over_published", HB_DOC_RATIO);
    hb_doc_column(t, "abs_log", HB_DOC_COEFFICIENT);
    hb_doc_column(t, "doubt", HB_DOC_TEXT);
    size_t columns = hb_speedup_column_count(), count = 0, room = p->count * columns;
    disagreement *d = malloc((room ? room : 1) * sizeof *d);
    if (!d)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory comparing %zu configurations", p->count);
    for (size_t i = 0; i < p->count; i++)
        for (size_t c = 0; c < columns; c++) {
            double o = our_ratio(in, p->common[i].ours, c), th = p->common[i].theirs->ratio[c];
            if (o > 0 && th > 0)
                d[count++] = (disagreement){&p->common[i], c, o, th, fabs(log(o / th))};
        }
    qsort(d, count, sizeof *d, larger_first);
    hb_status status = disagreement_rows(d, count, t);
    free(d);
    return status;
}

/* --- what only one side has ------------------------------------------------------------------- */

static hb_status missing_row(hb_doc_table *t, long m, long n, long k, const char *side, const char *why)
{
    char mnk[96];
    snprintf(mnk, sizeof mnk, "%ld_%ld_%ld", m, n, k);
    HB_TRY(hb_doc_add_row(t));
    HB_TRY(hb_doc_set_text(t, 0, mnk));
    HB_TRY(hb_doc_set_text(t, 1, side));
    return hb_doc_set_text(t, 2, why);
}

static hb_status missing_table(const hb_compare_input *in, hb_doc *doc)
{
    hb_doc_table *t = hb_doc_add_table(doc, "compare_missing", "Configurations only one side has", 1);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(hb_doc_caption(t, "Left out of the comparison: configurations of %s mode only in our folders, only in %s, "
                             "or in both but left out of our tables (their verdict).",
                          hb_mode_name(in->mode), in->published_path));
    hb_doc_column(t, "mnk", HB_DOC_TEXT);
    hb_doc_column(t, "only_in", HB_DOC_TEXT);
    hb_doc_column(t, "why", HB_DOC_TEXT);
    for (size_t i = 0; i < in->ours->count; i++) {
        const hb_config_entry *e = &in->ours->entries[i];
        if (e->key.mode != in->mode)
            continue;
        int published = hb_published_find(in->theirs, e->key.m, e->key.n, e->key.k) != NULL;
        char why[96];
        snprintf(why, sizeof why, "ours left it out: %s", e->verdict);
        if (!hb_config_counts(e)) /* ours has it, but no speedups to compare */
            HB_TRY(missing_row(t, e->key.m, e->key.n, e->key.k, published ? "published" : "neither", why));
        else if (!published)
            HB_TRY(missing_row(t, e->key.m, e->key.n, e->key.k, "ours", "not in the published file"));
    }
    for (size_t i = 0; i < in->theirs->count; i++) {
        const hb_published_row *r = &in->theirs->rows[i];
        hb_config_key key = {r->m, r->n, r->k, in->mode};
        if (!hb_result_set_find(in->ours, &key))
            HB_TRY(missing_row(t, r->m, r->n, r->k, "published", "not in our folders"));
    }
    return HB_OK;
}

/* --- every configuration ------------------------------------------------------------------------ */

static hb_status configs_table(const hb_compare_input *in, const pairing *p, hb_doc *doc)
{
    hb_doc_table *t = hb_doc_add_table(doc, "compare_configs", "Per configuration: ours, published, their ratio", 1);
    if (!t)
        return HB_ERR_INTERNAL;
    HB_TRY(hb_doc_caption(t, "For each configuration both sides have and each baseline: our t_base/t_cand, the "
                             "published one, and ours/published; doubt: why our timing of the configuration is in "
                             "doubt (empty: it is not)."));
    hb_doc_column(t, "mnk", HB_DOC_TEXT);
    for (size_t c = 0; c < hb_speedup_column_count(); c++) {
        char name[64];
        const char *base = hb_speedup_column_at(c)->name;
        snprintf(name, sizeof name, "%s_ours", base);
        hb_doc_column(t, name, HB_DOC_RATIO);
        snprintf(name, sizeof name, "%s_published", base);
        hb_doc_column(t, name, HB_DOC_RATIO);
        snprintf(name, sizeof name, "%s_ratio", base);
        hb_doc_column(t, name, HB_DOC_RATIO);
    }
    size_t doubt_column = t->n_columns;
    hb_doc_column(t, "doubt", HB_DOC_TEXT);
    for (size_t i = 0; i < p->count; i++) {
        char mnk[64];
        hb_config_key_mnk(&p->common[i].ours->key, mnk, sizeof mnk);
        HB_TRY(hb_doc_add_row(t));
        HB_TRY(hb_doc_set_text(t, 0, mnk));
        for (size_t c = 0; c < hb_speedup_column_count(); c++) {
            double o = our_ratio(in, p->common[i].ours, c), th = p->common[i].theirs->ratio[c];
            hb_doc_set_number(t, 1 + 3 * c, o);
            hb_doc_set_number(t, 2 + 3 * c, th);
            hb_doc_set_number(t, 3 + 3 * c, o / th);
        }
        char why[256];
        hb_config_in_doubt(p->common[i].ours, why, sizeof why);
        HB_TRY(hb_doc_set_text(t, doubt_column, why));
    }
    return HB_OK;
}


/* The header's counts: what each side has that the other lacks, in numbers
 * (the configurations themselves are in compare_missing, CSV and JSON). */
static hb_status count_notes(const hb_compare_input *in, const pairing *p, hb_doc *doc)
{
    size_t ours = 0, only_ours = 0, left_out = 0, left_out_published = 0, only_published = 0, doubt = 0;
    for (size_t i = 0; i < in->ours->count; i++) {
        const hb_config_entry *e = &in->ours->entries[i];
        if (e->key.mode != in->mode)
            continue;
        ours++;
        int published = hb_published_find(in->theirs, e->key.m, e->key.n, e->key.k) != NULL;
        if (!hb_config_counts(e)) {
            left_out++;
            left_out_published += published;
        } else if (!published) {
            only_ours++;
        }
    }
    for (size_t i = 0; i < in->theirs->count; i++) {
        const hb_published_row *r = &in->theirs->rows[i];
        hb_config_key key = {r->m, r->n, r->k, in->mode};
        only_published += !hb_result_set_find(in->ours, &key);
    }
    for (size_t i = 0; i < p->count; i++) {
        char why[256];
        doubt += hb_config_in_doubt(p->common[i].ours, why, sizeof why);
    }
    HB_TRY(hb_doc_note(doc, "%zu configurations of %s mode in both: ours has %zu of that mode, %s %zu", p->count,
                       hb_mode_name(in->mode), ours, in->published_path, in->theirs->count));
    HB_TRY(hb_doc_note(doc, "%zu published configurations not in our folders (they hold %zu of %s mode); %zu of ours "
                            "not in the published file; %zu of ours left out (a verdict other than pass or too-slow), "
                            "%zu of them published. The list: compare_missing.csv (--out) or the JSON",
                       only_published, ours, hb_mode_name(in->mode), only_ours, left_out, left_out_published));
    if (doubt)
        HB_TRY(hb_doc_note(doc, "%zu of the %zu compared configurations have timing in doubt (a wall-clock headline, "
                                "or a call monitor that did not run whole): counted in the in_doubt columns, each "
                                "with its reason in the doubt columns",
                           doubt, p->count));
    return HB_OK;
}

static hb_status compare_configurations(const hb_compare_input *in, hb_doc *doc, hb_compare_outcome *out)
{
    pairing p;
    memset(out, 0, sizeof *out);
    HB_TRY(pair_up(in, &p));
    hb_status status = count_notes(in, &p, doc);
    if (status == HB_OK)
        status = summary_table(in, &p, doc);
    if (status == HB_OK)
        status = hb_build_timer_tables(in, p.common, p.count, doc, out);
    if (status == HB_OK)
        status = disagreement_table(in, &p, doc);
    if (status == HB_OK)
        status = missing_table(in, doc);
    if (status == HB_OK)
        status = configs_table(in, &p, doc);
    free(p.common);
    return status;
}

static void add_outcome(hb_compare_outcome *sum, const hb_compare_outcome *part)
{
    sum->pairs += part->pairs;
    for (size_t i = 0; i < HB_CMP_STATUS_COUNT; i++)
        sum->status[i] += part->status[i];
    sum->below_threshold += part->below_threshold;
}

/* One form's configurations against the published file, its tables named
 * for it (bench/analysis/result_forms.h). */
static hb_status compare_form(const hb_compare_input *in, const char *form, hb_doc *doc, hb_compare_outcome *sum)
{
    hb_result_set of_form;
    hb_compare_input part = *in;
    part.ours = &of_form;
    hb_compare_outcome outcome;
    const size_t first = doc->n_tables;
    hb_status status = hb_result_set_of_form(in->ours, form, &of_form);
    if (status == HB_OK)
        status = hb_doc_note(doc, "form %s:", form);
    if (status == HB_OK)
        status = compare_configurations(&part, doc, &outcome);
    if (status == HB_OK)
        status = hb_doc_mark_form(doc, first, form, 1);
    hb_result_set_free(&of_form);
    if (status == HB_OK)
        add_outcome(sum, &outcome);
    return status;
}

hb_status hb_build_comparison(const hb_compare_input *in, hb_doc *doc, hb_compare_outcome *out)
{
    size_t counts[HB_N_RESULT_FORMS];
    char words[160];
    const size_t forms = hb_result_form_counts(in->ours, counts);
    hb_result_form_words(counts, words, sizeof words);
    if (forms)
        HB_TRY(hb_doc_note(doc, "ours: %s%s", words,
                           forms > 1 ? " (each compared on its own: compare_summary_replay, ...)" : ""));
    if (forms <= 1) {
        const size_t first = doc->n_tables;
        HB_TRY(compare_configurations(in, doc, out));
        for (size_t f = 0; f < HB_N_RESULT_FORMS; f++)
            if (counts[f])
                HB_TRY(hb_doc_mark_form(doc, first, hb_result_form_at(f), 0));
        return HB_OK;
    }
    memset(out, 0, sizeof *out);
    for (size_t f = 0; f < HB_N_RESULT_FORMS; f++)
        if (counts[f])
            HB_TRY(compare_form(in, hb_result_form_at(f), doc, out));
    return HB_OK;
}
