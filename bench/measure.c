#include "measure.h"

#include "clock.h"
#include "diag.h"
#include "isolate.h"
#include "shuffle.h"

static hb_status run_round(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                           hb_sample_timer *timer, hb_rng *rng, hb_participant_samples *samples)
{
    size_t order[HB_MAX_PARTICIPANTS];
    hb_shuffle_order(rng, order, count);
    for (size_t slot = 0; slot < count; slot++) {
        size_t i = order[slot];
        double event_ms, wall_ms;
        HB_TRY(hb_time_one_call(timer, participants[i], &ios[i], &event_ms, &wall_ms));
        if (samples) {
            HB_TRY(hb_sample_vec_push(&samples[i].event_ms, event_ms));
            HB_TRY(hb_sample_vec_push(&samples[i].wall_ms, wall_ms));
        }
    }
    return HB_OK;
}

static hb_status run_checked_round(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                                   hb_sample_timer *timer, hb_rng *rng, hb_participant_samples *samples,
                                   hb_spot_check *spot)
{
    HB_TRY(spot->before(spot->context));
    HB_TRY(run_round(participants, ios, count, timer, rng, samples));
    spot->done++;
    return spot->after(spot->context);
}

/* Runs rounds for window_s seconds (and min_rounds); returns the seconds one round took. */
static hb_status run_window(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                            hb_sample_timer *timer, hb_rng *rng, double window_s, size_t min_rounds,
                            const char *phase, hb_progress *progress, hb_participant_samples *samples,
                            hb_spot_check *spot, double spot_probability, double *round_s)
{
    double start = hb_now_s();
    size_t rounds = 0;
    for (;;) {
        double elapsed = hb_now_s() - start;
        if (elapsed >= window_s && rounds >= min_rounds)
            break;
        hb_progress_update(progress, phase, elapsed, window_s, rounds);
        hb_heartbeat();
        if (spot && spot->done < spot->max_checks && hb_rng_uniform(rng) < spot_probability)
            HB_TRY(run_checked_round(participants, ios, count, timer, rng, samples, spot));
        else
            HB_TRY(run_round(participants, ios, count, timer, rng, samples));
        rounds++;
    }
    /* A window cut short of its rounds still guarantees one spot check. */
    if (spot && spot->max_checks > 0 && spot->done == 0)
        HB_TRY(run_checked_round(participants, ios, count, timer, rng, samples, spot));
    *round_s = rounds ? (hb_now_s() - start) / (double)rounds : 0;
    return HB_OK;
}

static double spot_probability(const hb_window_options *options, double round_s)
{
    if (!options->spot || options->spot->max_checks <= 0)
        return 0;
    double expected_rounds = round_s > 0 ? options->time_s / round_s : 0;
    if (expected_rounds < HB_MIN_TIMED_ROUNDS)
        expected_rounds = HB_MIN_TIMED_ROUNDS;
    double p = options->spot->max_checks / expected_rounds;
    return p > 1 ? 1 : p;
}

hb_status hb_measure_windows(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                             hb_sample_timer *timer, hb_rng *rng, const hb_window_options *options,
                             hb_progress *progress, hb_participant_samples *samples)
{
    if (count == 0 || count > HB_MAX_PARTICIPANTS)
        return hb_fail(HB_ERR_INTERNAL, "%zu participants (1..%d supported)", count, HB_MAX_PARTICIPANTS);
    /* At least one warm-up round even with --warmup-s 0: the first call of
     * a cuBLAS handle or a freshly loaded module pays one-time costs. */
    double round_s = 0;
    HB_TRY(run_window(participants, ios, count, timer, rng, options->warmup_s, 1, "warm-up", progress, NULL, NULL, 0,
                      &round_s));
    HB_TRY(run_window(participants, ios, count, timer, rng, options->time_s, HB_MIN_TIMED_ROUNDS, "timed", progress,
                      samples, options->spot, spot_probability(options, round_s), &round_s));
    hb_progress_done(progress);
    return HB_OK;
}

void hb_participant_samples_free(hb_participant_samples *samples)
{
    hb_sample_vec_free(&samples->event_ms);
    hb_sample_vec_free(&samples->wall_ms);
}
