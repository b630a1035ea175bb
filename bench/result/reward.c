#include "bench/result/reward.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"

double hb_reward_speed_term(const double *t_ref, const double *t_cand, size_t n, int clip, double low, double high,
                            double *unclipped, size_t *clipped)
{
    double sum = 0, sum_clipped = 0;
    *clipped = 0;
    for (size_t i = 0; i < n; i++) {
        const double ratio = t_ref[i] / t_cand[i];
        sum += ratio;
        double kept = ratio;
        if (clip && !(ratio >= low)) /* NaN (a 0/0 round) is clipped too, to LO */
            kept = low;
        else if (clip && ratio > high)
            kept = high;
        *clipped += kept != ratio;
        sum_clipped += kept;
    }
    *unclipped = sum / (double)n;
    return sum_clipped / (double)n;
}

hb_status hb_reward_compute(const hb_reward_settings *settings, const double *t_ref, const double *t_cand,
                            size_t rounds, const hb_deviation_record *checks, hb_reward_record *out)
{
    if (rounds == 0 || checks->checks <= 0)
        return hb_fail(HB_ERR_INTERNAL, "the reward needs timed rounds and deviation checks (%zu rounds, %d "
                       "checks): a harness bug", rounds, checks->checks);
    out->requested = 1;
    out->earned = 1;
    out->note[0] = '\0';
    out->alpha = settings->alpha;
    out->beta = settings->beta;
    out->rounds = rounds;
    out->clip = settings->clip;
    out->clip_low = settings->clip ? settings->clip_low : NAN;
    out->clip_high = settings->clip ? settings->clip_high : NAN;
    out->speed_term = hb_reward_speed_term(t_ref, t_cand, rounds, settings->clip, settings->clip_low,
                                           settings->clip_high, &out->speed_term_unclipped, &out->clipped_rounds);
    out->diff_checks = checks->checks;
    out->diff_mean = checks->paper_dev_sum / checks->checks;
    out->diff_max = checks->paper_dev_max;
    out->length_bytes = settings->source ? settings->length_bytes : -1;
    snprintf(out->source, sizeof out->source, "%s", settings->source ? settings->source : "");
    /* Without a source beta is 0 (the options insist), so L contributes nothing. */
    const double length_term = out->length_bytes >= 0 ? settings->beta * (double)out->length_bytes : 0.0;
    out->r = out->speed_term - settings->alpha * out->diff_mean - length_term;
    return HB_OK;
}

void hb_reward_settle(hb_reward_record *record, int requested, hb_status status, int measured, const char *verdict,
                      const char *check)
{
    record->requested = requested;
    if (!requested) {
        record->earned = 0;
        return;
    }
    const int correct_and_timed = measured && (status == HB_OK || status == HB_ERR_TOO_SLOW);
    if (correct_and_timed && record->earned)
        return;
    record->earned = 0;
    if (!measured && (status == HB_OK || status == HB_ERR_TOO_SLOW))
        snprintf(record->note, sizeof record->note, "no reward: the configuration was not timed");
    else if (correct_and_timed) /* timed and correct, yet nothing computed: the child's record was lost */
        snprintf(record->note, sizeof record->note, "no reward: its figures did not reach the results");
    else
        snprintf(record->note, sizeof record->note, "no reward: verdict %s%s%s%s (a reward is given only to a "
                 "configuration that passed every check and was timed)", verdict, check && check[0] ? " (" : "",
                 check && check[0] ? check : "", check && check[0] ? ")" : "");
}
