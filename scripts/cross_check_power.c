/* The timed window's cross-check, its honest spread and its power, from one
 * configuration of an honest run (scripts/bench_cross_check_power.sh runs
 * `hgemm-bench run --raw` and then this; never part of `make test`).  It
 * reads the run's summary.csv (the candidate's row) and the configuration's
 * <run>/raw/<config>.cross.csv (docs/results.md, "Cross-checked rounds (--raw)")
 * and prints, with the harness's own rule (bench/result/cross_check.h):
 *   - the honest spread of the candidate's d (event - CUPTI's reading) and
 *     of its paired c (d minus the baselines' median d of the same round),
 *     and the share of rounds c puts below -tolerance;
 *   - the cross-checked rounds a run of PCT % (default 3) over a window of
 *     TIME_S seconds (default 30) would have, at this run's rate of rounds;
 *   - for a shave of 1 us, 3 us and 10 % of the candidate's event median:
 *     the share of rounds it puts below -tolerance (from the honest c), the
 *     paired sign test's power over those rounds at the harness's false-alarm
 *     bound, and the fewest checked rounds that see it 9 times in 10.
 * Usage: cross-check-power SUMMARY_CSV CROSS_CSV [PCT [TIME_S]].
 * And, for the script's other figures, one cell of a summary.csv read with
 * the harness's own CSV reader (a text cell may hold quoted commas):
 * cross-check-power --cell SUMMARY_CSV PARTICIPANT COLUMN. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/csv_reader.h"
#include "bench/core/binomial.h"
#include "bench/core/diag.h"
#include "bench/core/sample_vec.h"
#include "bench/core/stats.h"
#include "bench/result/cross_check.h"

#define MOST_ROUNDS_SEARCHED 20000 /* "rounds for 90 %" beyond this prints "more than" */

/* The candidate's row of summary.csv. */
typedef struct candidate_row {
    int found;
    long m, n, k;
    double samples, crossed, timed_s, event_median_us;
} candidate_row;

static hb_status summary_row(void *context, const hb_csv_row *row)
{
    candidate_row *c = context;
    if (c->found || strcmp(row->text[0], "candidate") != 0)
        return HB_OK;
    c->found = 1;
    c->m = strtol(row->text[1], NULL, 10);
    c->n = strtol(row->text[2], NULL, 10);
    c->k = strtol(row->text[3], NULL, 10);
    c->samples = strtod(row->text[4], NULL);
    c->crossed = strtod(row->text[5], NULL);
    c->timed_s = strtod(row->text[6], NULL);
    c->event_median_us = strtod(row->text[7], NULL);
    return HB_OK;
}

/* The candidate's lines of the cross-checked rounds. */
typedef struct cross_rows {
    hb_sample_vec event_us, diff_us, paired_us;
} cross_rows;

static double number_or_nan(const char *text)
{
    char *end = NULL;
    double value = strtod(text, &end);
    return end != text ? value : NAN;
}

static hb_status cross_row(void *context, const hb_csv_row *row)
{
    cross_rows *c = context;
    if (strcmp(row->text[0], "candidate") != 0)
        return HB_OK;
    HB_TRY(hb_sample_vec_push(&c->event_us, number_or_nan(row->text[1])));
    HB_TRY(hb_sample_vec_push(&c->diff_us, number_or_nan(row->text[2])));
    return hb_sample_vec_push(&c->paired_us, number_or_nan(row->text[3]));
}

static void print_spread(const char *what, const hb_sample_vec *v, double *scratch)
{
    static const double q[] = {0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99};
    printf("  %-36s", what);
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        printf(" p%-2.0f %+7.2f", q[i] * 100, hb_finite_quantile(v->data, v->len, q[i], scratch));
    printf("  (us)\n");
}

static void print_shave(const char *label, double shave_us, const cross_rows *rows, double tolerance_us,
                        size_t default_rounds)
{
    const double p = hb_cross_check_round_power(rows->paired_us.data, rows->paired_us.len, shave_us, tolerance_us);
    const double power = hb_sign_test_power(default_rounds, p, HB_CROSS_CHECK_ALPHA);
    const size_t needed = p > 0.5 ? hb_sign_test_rounds_for(p, HB_CROSS_CHECK_ALPHA, 0.9, MOST_ROUNDS_SEARCHED) : 0;
    char rounds[64];
    if (needed)
        snprintf(rounds, sizeof rounds, "%zu", needed);
    else
        snprintf(rounds, sizeof rounds, p > 0.5 ? "more than %d" : "never (p <= 1/2)", MOST_ROUNDS_SEARCHED);
    printf("  shave %-16s per-round p %.3f   power over %zu rounds %.3f   rounds for 90 %%: %s\n", label, p,
           default_rounds, power, rounds);
}

/* --cell: the first row of the participant. */
typedef struct cell_search {
    const char *participant;
    int found;
} cell_search;

static hb_status print_cell(void *context, const hb_csv_row *row)
{
    cell_search *c = context;
    if (!c->found && !strcmp(row->text[0], c->participant)) {
        printf("%s\n", row->text[1]);
        c->found = 1;
    }
    return HB_OK;
}

static int cell_main(const char *path, const char *participant, const char *column)
{
    const char *wanted[] = {"participant", column};
    cell_search c = {participant, 0};
    hb_csv_spec spec = {.what = "an hgemm-bench summary.csv", .wanted = wanted, .n_wanted = 2, .row = print_cell,
                        .context = &c};
    if (hb_csv_read(path, &spec) != HB_OK) {
        fprintf(stderr, "%s\n", hb_last_error());
        return 1;
    }
    if (!c.found)
        fprintf(stderr, "%s: no row of participant %s\n", path, participant);
    return c.found ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "--cell"))
        return cell_main(argv[2], argv[3], argv[4]);
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: %s SUMMARY_CSV CROSS_CSV [PCT [TIME_S]]\n       %s --cell SUMMARY_CSV PARTICIPANT COLUMN\n",
                argv[0], argv[0]);
        return 2;
    }
    const double pct = argc > 3 ? atof(argv[3]) : 3, time_s = argc > 4 ? atof(argv[4]) : 30;
    static const char *const summary_columns[] = {"participant", "m", "n", "k", "samples",
                                                  "cross_checked_rounds", "timed_s", "event_median_us"};
    candidate_row cand = {0};
    hb_csv_spec summary = {.what = "an hgemm-bench summary.csv", .wanted = summary_columns, .n_wanted = 8,
                           .row = summary_row, .context = &cand};
    static const char *const cross_columns[] = {"role", "event_us", "diff_us", "paired_us"};
    cross_rows rows;
    memset(&rows, 0, sizeof rows);
    hb_csv_spec cross = {.what = "a cross-checked rounds file (<run>/raw/*.cross.csv)", .wanted = cross_columns,
                         .n_wanted = 4, .row = cross_row, .context = &rows};
    if (hb_csv_read(argv[1], &summary) != HB_OK || hb_csv_read(argv[2], &cross) != HB_OK) {
        fprintf(stderr, "%s\n", hb_last_error());
        return 1;
    }
    if (!cand.found || rows.paired_us.len == 0 || !(cand.timed_s > 0)) {
        fprintf(stderr, "%s: no timed candidate row, or %s: no cross-checked round of the candidate\n", argv[1],
                argv[2]);
        return 1;
    }
    double *scratch = malloc(rows.paired_us.len * sizeof *scratch);
    if (!scratch)
        return 1;
    const double played_per_s = (cand.samples + cand.crossed) / cand.timed_s;
    const size_t default_rounds = (size_t)(pct / 100 * played_per_s * time_s);
    const double cross_event_us = hb_finite_quantile(rows.event_us.data, rows.event_us.len, 0.5, scratch);
    const double tolerance_us = hb_cross_check_tolerance_us(cross_event_us);
    printf("%ldx%ldx%ld: %.0f of %.0f rounds cross-checked in %.2f s; candidate event median %.2f us (%.2f us on the "
           "cross-checked rounds, CUPTI's cost in them)\n",
           cand.m, cand.n, cand.k, cand.crossed, cand.samples + cand.crossed, cand.timed_s, cand.event_median_us,
           cross_event_us);
    print_spread("honest d = event - CUPTI:", &rows.diff_us, scratch);
    print_spread("honest c = d - baselines' median d:", &rows.paired_us, scratch);
    printf("  paired tolerance %.2f us; honest rounds with c below it: %.2f %% (a false alarm needs over half, p <= "
           "%.0e)\n",
           tolerance_us,
           100 * hb_cross_check_round_power(rows.paired_us.data, rows.paired_us.len, 0, tolerance_us),
           HB_CROSS_CHECK_ALPHA);
    printf("  a run of %.3g %% over %.3g s cross-checks about %zu rounds here (%.0f rounds played a second)\n", pct,
           time_s, default_rounds, played_per_s);
    char label[64];
    print_shave("1 us", 1.0, &rows, tolerance_us, default_rounds);
    print_shave("3 us", 3.0, &rows, tolerance_us, default_rounds);
    snprintf(label, sizeof label, "10 %% (%.2f us)", 0.1 * cand.event_median_us);
    print_shave(label, 0.1 * cand.event_median_us, &rows, tolerance_us, default_rounds);
    free(scratch);
    hb_sample_vec_free(&rows.event_us);
    hb_sample_vec_free(&rows.diff_us);
    hb_sample_vec_free(&rows.paired_us);
    return 0;
}
