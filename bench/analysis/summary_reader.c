#define _POSIX_C_SOURCE 200809L /* strdup */
#include "bench/analysis/summary_reader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/bad_results.h"
#include "bench/analysis/csv_reader.h"
#include "bench/analysis/number_ranges.h"
#include "bench/analysis/result_forms.h"
#include "bench/core/diag.h"
#include "bench/core/gemm_types.h"

/* The columns the tables read, by name (docs/results.md). */
enum { C_M, C_N, C_K, C_MODE, C_PARTICIPANT, C_ROLE, C_VERDICT, C_CHECK, C_REASON, C_SPEEDUP_PAPER,
       C_SPEEDUP_GEOMEAN, C_SPEEDUP_PAPER_WALL, C_SPEEDUP_GEOMEAN_WALL,
       /* compare's (hb_config_timers), optional: a summary.csv of an older harness lacks some */
       C_SPEEDUP_PAPER_EVENT, C_SPEEDUP_KERNEL, C_WALL_MEAN_US, C_WALL_REL_STDEV, C_CI_LOW, C_CI_HIGH,
       C_HEADLINE_TIMER, C_TIMER_REASON, C_TRACE_NOTE, C_ACC_CLASS, C_EXACT_BINARY_REPS,
       /* the candidate's form: a harness before the replay form has no `form`, and the oldest no `algorithm` */
       C_FORM, C_REPLAY_REFUSAL, C_ALGORITHM, C_COUNT };
static const char *const wanted[C_COUNT] = {
    "m", "n", "k", "mode", "participant", "role", "verdict", "check", "reason",
    "speedup_paper", "speedup_geomean", "speedup_paper_wall", "speedup_geomean_wall",
    "speedup_paper_event", "speedup_kernel", "wall_mean_us", "wall_rel_stdev", "speedup_ci95_low",
    "speedup_ci95_high", "headline_timer", "timer_reason", "trace_note", "acc_class", "exact_binary_reps",
    "form", "replay_refusal", "algorithm"};
static const unsigned char optional[C_COUNT] = {
    [C_SPEEDUP_PAPER_EVENT] = 1, [C_SPEEDUP_KERNEL] = 1, [C_WALL_MEAN_US] = 1, [C_WALL_REL_STDEV] = 1,
    [C_CI_LOW] = 1, [C_CI_HIGH] = 1, [C_HEADLINE_TIMER] = 1, [C_TIMER_REASON] = 1, [C_TRACE_NOTE] = 1,
    [C_ACC_CLASS] = 1, [C_EXACT_BINARY_REPS] = 1, [C_FORM] = 1, [C_REPLAY_REFUSAL] = 1, [C_ALGORITHM] = 1};

/* Where each estimator and timer is read from.  The kernel time has one
 * figure, the ratio of the kernel medians, for both (an optional column). */
static const int speedup_column[HB_TIMER_COUNT][HB_EST_COUNT] = {
    [HB_TIMER_EVENT] = {[HB_EST_PAPER] = C_SPEEDUP_PAPER, [HB_EST_GEOMEAN] = C_SPEEDUP_GEOMEAN},
    [HB_TIMER_WALL] = {[HB_EST_PAPER] = C_SPEEDUP_PAPER_WALL, [HB_EST_GEOMEAN] = C_SPEEDUP_GEOMEAN_WALL},
    [HB_TIMER_KERNEL] = {[HB_EST_PAPER] = C_SPEEDUP_KERNEL, [HB_EST_GEOMEAN] = C_SPEEDUP_KERNEL},
};

const char *const *hb_summary_reader_columns(size_t *count)
{
    *count = C_COUNT;
    return wanted;
}

typedef struct reading {
    hb_result_set *set;
    const char *source; /* the path, owned by the set */
} reading;

static hb_status bad_field(const hb_csv_row *row, int which, const char *expected)
{
    return hb_bad_results(row->path, row->line, row->column[which], wanted[which], "'%s' is not %s", row->text[which],
                          expected);
}

static hb_status read_key(const hb_csv_row *row, hb_config_key *key)
{
    HB_TRY(hb_csv_dimension(row, C_M, &key->m));
    HB_TRY(hb_csv_dimension(row, C_N, &key->n));
    HB_TRY(hb_csv_dimension(row, C_K, &key->k));
    if (!hb_mode_parse(row->text[C_MODE], &key->mode))
        return bad_field(row, C_MODE, "a mode (offline or server)");
    return HB_OK;
}

/* A speedup field as a ratio (it + 1): NaN where it is empty (not measured)
 * or the file lacks the column; else its ratio must be in range
 * (bench/analysis/number_ranges.h). */
static hb_status read_ratio(const hb_csv_row *row, int which, double *ratio)
{
    double value;
    HB_TRY(hb_csv_number(row, (size_t)which, &value));
    *ratio = value + 1.0;
    return HB_OK;
}

static void copy_optional(const hb_csv_row *row, int which, char *out, size_t size)
{
    snprintf(out, size, "%s", row->text[which] ? row->text[which] : "");
}

/* The candidate row's part of compare's figures (hb_config_timers). */
static hb_status read_candidate_timers(const hb_csv_row *row, hb_config_timers *x)
{
    HB_TRY(hb_csv_number(row, C_WALL_MEAN_US, &x->candidate_wall_mean_us));
    HB_TRY(hb_csv_number(row, C_WALL_REL_STDEV, &x->candidate_wall_rel_stdev));
    copy_optional(row, C_HEADLINE_TIMER, x->headline_timer, sizeof x->headline_timer);
    copy_optional(row, C_TIMER_REASON, x->timer_reason, sizeof x->timer_reason);
    copy_optional(row, C_TRACE_NOTE, x->trace_note, sizeof x->trace_note);
    x->trace_recorded = row->text[C_TRACE_NOTE] != NULL;
    copy_optional(row, C_ACC_CLASS, x->acc_class, sizeof x->acc_class);
    /* the battery's first check is the candidate's first call: written once it began */
    x->candidate_called = row->text[C_EXACT_BINARY_REPS] && row->text[C_EXACT_BINARY_REPS][0];
    return HB_OK;
}

/* A baseline row's part: its speedup on events and kernel time, its wall
 * times, and the headline CI's half-width relative to the headline ratio. */
static hb_status read_baseline_timers(const hb_csv_row *row, int column, double headline, hb_config_timers *x)
{
    HB_TRY(read_ratio(row, C_SPEEDUP_PAPER_EVENT, &x->paper_event[column]));
    HB_TRY(read_ratio(row, C_SPEEDUP_KERNEL, &x->kernel[column]));
    HB_TRY(hb_csv_number(row, C_WALL_MEAN_US, &x->wall_mean_us[column]));
    HB_TRY(hb_csv_number(row, C_WALL_REL_STDEV, &x->wall_rel_stdev[column]));
    double low, high;
    HB_TRY(hb_csv_number(row, C_CI_LOW, &low));
    HB_TRY(hb_csv_number(row, C_CI_HIGH, &high));
    /* the CI is on t_b/t_c - 1, as the headline: its half-width over the ratio is the relative noise */
    x->ci_rel_half[column] = headline > 0 && high >= low ? (high - low) / 2.0 / headline : NAN;
    return HB_OK;
}

/* The form the candidate was timed in.  A harness before the replay form
 * wrote no `form`: its launchers were timed as launchers, and a launcher's
 * algorithm cell says "launcher:<entry>" where a cubin's names its kernel;
 * with neither (a candidate that never loaded, or no column), "unknown". */
static hb_status read_form(const hb_csv_row *row, hb_config_entry *e)
{
    const char *form = row->text[C_FORM], *algorithm = row->text[C_ALGORITHM];
    if (form && form[0]) {
        if (!hb_result_form_known(form))
            return bad_field(row, C_FORM, "a form (cubin, replay or launcher)");
        snprintf(e->form, sizeof e->form, "%s", form);
    } else if (!form && algorithm && !strncmp(algorithm, "launcher:", strlen("launcher:")))
        snprintf(e->form, sizeof e->form, "launcher");
    else if (!form && algorithm && algorithm[0])
        snprintf(e->form, sizeof e->form, "cubin");
    else
        snprintf(e->form, sizeof e->form, "%s", HB_FORM_UNKNOWN);
    copy_optional(row, C_REPLAY_REFUSAL, e->replay_refusal, sizeof e->replay_refusal);
    return HB_OK;
}

static hb_status read_candidate(const hb_csv_row *row, hb_config_entry *e)
{
    if (e->candidate_line)
        return hb_bad_results(row->path, row->line, row->column[C_ROLE], wanted[C_ROLE],
                              "a second candidate row for %ld_%ld_%ld (%s); the first is on line %zu", e->key.m,
                              e->key.n, e->key.k, hb_mode_name(e->key.mode), e->candidate_line);
    e->candidate_line = row->line;
    snprintf(e->verdict, sizeof e->verdict, "%s", row->text[C_VERDICT]);
    snprintf(e->check, sizeof e->check, "%s", row->text[C_CHECK]);
    e->reason = strdup(row->text[C_REASON]);
    if (!e->reason)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", row->path);
    HB_TRY(read_form(row, e));
    return read_candidate_timers(row, &e->timers);
}

static hb_status read_baseline(const hb_csv_row *row, hb_config_entry *e)
{
    int column = hb_speedup_column_find(row->text[C_PARTICIPANT]);
    if (column < 0)
        return HB_OK; /* a participant the tables have no column for (a later harness's baseline) */
    if (e->ratio_line[column])
        return hb_bad_results(row->path, row->line, row->column[C_PARTICIPANT], wanted[C_PARTICIPANT],
                              "a second row of %s for %ld_%ld_%ld (%s); the first is on line %zu",
                              row->text[C_PARTICIPANT], e->key.m, e->key.n, e->key.k, hb_mode_name(e->key.mode),
                              e->ratio_line[column]);
    e->ratio_line[column] = row->line;
    for (int t = 0; t < HB_TIMER_COUNT; t++)
        for (int s = 0; s < HB_EST_COUNT; s++)
            HB_TRY(read_ratio(row, speedup_column[t][s], &e->ratio[t][s][column]));
    return read_baseline_timers(row, column, e->ratio[HB_TIMER_EVENT][HB_EST_GEOMEAN][column], &e->timers);
}

static hb_status on_row(void *context, const hb_csv_row *row)
{
    reading *r = context;
    hb_config_key key;
    HB_TRY(read_key(row, &key));
    hb_config_entry *e;
    HB_TRY(hb_result_set_entry(r->set, &key, r->source, row->line, &e));
    const char *role = row->text[C_ROLE];
    if (!strcmp(role, "candidate"))
        return read_candidate(row, e);
    if (!strcmp(role, "baseline") || !strcmp(role, "baseline-max"))
        return read_baseline(row, e);
    return bad_field(row, C_ROLE, "a role (candidate, baseline or baseline-max)");
}

/* Every configuration of this file has its candidate's row (the verdict). */
static hb_status check_candidates(const hb_result_set *set, const char *source)
{
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        if (e->source == source && !e->candidate_line)
            return hb_bad_results(source, e->line, 0, NULL,
                                  "configuration %ld_%ld_%ld (%s) has baseline rows but no candidate row (no verdict)",
                                  e->key.m, e->key.n, e->key.k, hb_mode_name(e->key.mode));
    }
    return HB_OK;
}

static hb_status read_summary(const char *path, const char *text, size_t length, hb_result_set *set)
{
    const char *source = hb_result_set_keep(set, path);
    if (!source)
        return HB_ERR_INTERNAL;
    reading r = {set, source};
    hb_csv_spec spec = {.what = "an hgemm-bench summary.csv (another tool's CSV?)",
                        .wanted = wanted,
                        .n_wanted = C_COUNT,
                        .optional = optional,
                        .row = on_row,
                        .context = &r};
    HB_TRY(text ? hb_csv_read_text(source, text, length, &spec) : hb_csv_read(source, &spec));
    return check_candidates(set, source);
}

hb_status hb_read_summary(const char *path, hb_result_set *set)
{
    return read_summary(path, NULL, 0, set);
}

hb_status hb_read_summary_text(const char *path, const char *text, size_t length, hb_result_set *set)
{
    return read_summary(path, text ? text : "", length, set);
}
