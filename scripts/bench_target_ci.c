/* What --target-ci costs, on this CPU (scripts/bench_target_ci.sh builds and
 * runs it; never part of `make test`).  For each window size it feeds
 * synthetic rounds of a candidate and 7 baselines through the target-CI
 * criterion as bench/measure/windows.c does (add_round after a round, poll
 * before the next; the window's clock is faked, every cost is real) and
 * prints:
 *   - the timing thread's cost per round, add_round plus a poll, mean and
 *     max, with the worker idle and with it busy on the same size (rounds
 *     then paced as a GPU would pace them), beside an empty timed region:
 *     the clock's cost and the machine's own jitter;
 *   - the cost of a poll that posts a request;
 *   - the worker's time per evaluation: one that stops at the first baseline
 *     over the target (what the checks before the target is met cost), and
 *     one over all 7 baselines (the check that meets it);
 *   - for comparison, the check before this change: the bootstrap of all 7
 *     baselines from the paired times, synchronously, on the timing thread.
 * Usage: bench-target-ci [ROUNDS...] (default 100000 1000000). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/core/clock.h"
#include "bench/core/rng.h"
#include "bench/core/stats.h"
#include "bench/measure/target_ci_criterion.h"

#define PARTICIPANTS 8 /* the candidate (0) and 7 baselines */
#define SEED 0x5eedULL
#define BUSY_ROUNDS 20000    /* rounds fed at least while the worker evaluates */
#define BUSY_RESULTS 3       /* ... and until it has answered this many requests */
#define ROUND_PACE_S 20e-6   /* a round every 20 us while the worker is busy: 1e6 rounds in 20 s, as a real window */

/* Mean and max of a series of durations, seconds. */
typedef struct cost {
    double total, max;
    size_t count;
} cost;

static void cost_add(cost *c, double seconds)
{
    c->total += seconds;
    c->count++;
    if (seconds > c->max)
        c->max = seconds;
}

static double cost_mean(const cost *c) { return c->count ? c->total / (double)c->count : 0; }

/* One round's CUDA-event times, ms: 2 % uniform noise around 1 ms. */
static void synthetic_round(hb_rng *rng, double *event_ms)
{
    for (size_t p = 0; p < PARTICIPANTS; p++)
        event_ms[p] = (1 + 0.01 * (double)p) * (1 + 0.02 * (hb_rng_uniform(rng) - 0.5));
}

static int check(hb_status status, const char *what)
{
    if (status != HB_OK)
        fprintf(stderr, "bench-target-ci: %s failed (see the error above)\n", what);
    return status == HB_OK;
}

static int create(double target, double min_time_s, hb_stop_criterion *c)
{
    hb_target_ci_setup setup = {.halfwidth = target, .min_time_s = min_time_s, .min_rounds = HB_TARGET_CI_MIN_ROUNDS,
                                .every_s = 0, .bootstrap_seed = SEED, .candidate = 0, .count = PARTICIPANTS};
    return check(hb_target_ci_criterion_create(&setup, c), "creating the criterion");
}

/* One round as the window plays it, timed: add_round, then the next poll.
 * *posted says whether that poll posted a request. */
static int timed_round(hb_stop_criterion *c, hb_rng *rng, hb_window_progress *now, double *seconds, int *posted)
{
    double event_ms[PARTICIPANTS];
    synthetic_round(rng, event_ms);
    size_t requests = hb_target_ci_criterion_stats(c).requests;
    hb_stop_decision d;
    double start = hb_now_s();
    hb_status status = c->ops->add_round(c->state, event_ms, PARTICIPANTS);
    now->rounds++;
    if (status == HB_OK)
        status = c->ops->poll(c->state, now, &d);
    *seconds = hb_now_s() - start;
    *posted = hb_target_ci_criterion_stats(c).requests != requests;
    return check(status, "a round");
}

/* Spins until `seconds` after `since`: the GPU's share of a round, during
 * which a real timing thread waits on the stream. */
static void spin_until(double since, double seconds)
{
    while (hb_now_s() - since < seconds)
        ;
}

/* Feeds `rounds` rounds, and more until the worker has answered `results`
 * requests, one every `pace_s` seconds (0: back to back); round costs go to
 * *round, those of rounds whose poll posted to *post. */
static int feed(hb_stop_criterion *c, hb_rng *rng, hb_window_progress *now, size_t rounds, size_t results,
                double pace_s, cost *round, cost *post)
{
    for (size_t r = 0; r < rounds || hb_target_ci_criterion_stats(c).results < results; r++) {
        double seconds, start = hb_now_s();
        int posted;
        if (!timed_round(c, rng, now, &seconds, &posted))
            return 0;
        cost_add(posted ? post : round, seconds);
        spin_until(start, pace_s);
    }
    return 1;
}

/* The clock's own cost and the machine's jitter: an empty region timed as
 * often as the rounds are. */
static void empty_regions(size_t count, cost *floor)
{
    for (size_t i = 0; i < count; i++) {
        double start = hb_now_s();
        cost_add(floor, hb_now_s() - start);
    }
}

typedef struct figures {
    cost floor, idle, busy, post;
    double eval_one_s;  /* mean of the evaluations that stopped at the first baseline */
    double eval_all_s;  /* the evaluation of all 7 */
    cost today;
} figures;

/* A target no baseline meets: every evaluation stops at its first baseline,
 * and the worker, posted to whenever idle (every_s 0), stays busy. */
static int timing_thread_costs(size_t rounds, figures *f)
{
    hb_stop_criterion c;
    if (!create(1e-12, 1.0, &c))
        return 0;
    hb_rng rng;
    hb_rng_seed(&rng, SEED);
    hb_window_progress now = {.rounds = 0, .elapsed_s = 0}; /* short of min_time_s: nothing posted */
    empty_regions(rounds, &f->floor);
    int ok = feed(&c, &rng, &now, rounds, 0, 0, &f->idle, &f->post);
    now.elapsed_s = 2.0;
    ok = ok && feed(&c, &rng, &now, BUSY_ROUNDS, BUSY_RESULTS, ROUND_PACE_S, &f->busy, &f->post);
    hb_target_ci_stats stats = hb_target_ci_criterion_stats(&c);
    f->eval_one_s = stats.results ? stats.eval_s_total / (double)stats.results : 0;
    c.ops->destroy(c.state);
    return ok;
}

static void sleep_50us(void)
{
    struct timespec ts = {0, 50000};
    if (nanosleep(&ts, NULL) != 0)
        perror("bench-target-ci: nanosleep");
}

/* A target every baseline meets: the one evaluation runs over all 7. */
static int full_evaluation(size_t rounds, figures *f)
{
    hb_stop_criterion c;
    if (!create(1e9, 1.0, &c))
        return 0;
    hb_rng rng;
    hb_rng_seed(&rng, SEED);
    hb_window_progress now = {.rounds = 0, .elapsed_s = 0};
    cost unused = {0};
    int ok = feed(&c, &rng, &now, rounds, 0, 0, &unused, &unused);
    now.elapsed_s = 2.0;
    hb_stop_decision d = {.finished = 0};
    while (ok && !d.finished) {
        ok = check(c.ops->poll(c.state, &now, &d), "a poll");
        sleep_50us();
    }
    f->eval_all_s = hb_target_ci_criterion_stats(&c).eval_s_max;
    c.ops->destroy(c.state);
    return ok;
}

/* Before this change, each check on the timing thread: per baseline, the log
 * ratios from the paired times and the bootstrap (hb_speedup_ci_halfwidth,
 * since folded into hb_speedup_from_log_ratios). */
static int synchronous_check(double *const *times, size_t rounds, double *log_ratio, double *seconds)
{
    double start = hb_now_s();
    for (size_t b = 1; b < PARTICIPANTS; b++) {
        for (size_t r = 0; r < rounds; r++)
            log_ratio[r] = hb_log_ratio(times[b][r], times[0][r]);
        hb_speedup_summary ci;
        memset(&ci, 0, sizeof ci);
        if (!check(hb_speedup_from_log_ratios(log_ratio, rounds, SEED + b, &ci), "the bootstrap"))
            return 0;
    }
    *seconds = hb_now_s() - start;
    return 1;
}

static int todays_costs(size_t rounds, figures *f)
{
    double *times[PARTICIPANTS] = {0}, *log_ratio = malloc(rounds * sizeof *log_ratio);
    int ok = log_ratio != NULL;
    for (size_t p = 0; p < PARTICIPANTS; p++)
        ok = ok && (times[p] = malloc(rounds * sizeof *times[p])) != NULL;
    hb_rng rng;
    hb_rng_seed(&rng, SEED);
    for (size_t r = 0; ok && r < rounds; r++) {
        double event_ms[PARTICIPANTS];
        synthetic_round(&rng, event_ms);
        for (size_t p = 0; p < PARTICIPANTS; p++)
            times[p][r] = event_ms[p];
    }
    for (int repeat = 0; ok && repeat < 3; repeat++) {
        double seconds = 0;
        ok = synchronous_check(times, rounds, log_ratio, &seconds);
        cost_add(&f->today, seconds);
    }
    if (!log_ratio)
        fprintf(stderr, "bench-target-ci: out of memory for %zu rounds\n", rounds);
    for (size_t p = 0; p < PARTICIPANTS; p++)
        free(times[p]);
    free(log_ratio);
    return ok;
}

static void print_row(size_t rounds, const figures *f)
{
    printf("| %9zu | %5.3f / %6.1f | %5.3f / %6.1f | %5.3f / %6.1f | %6.1f / %6.1f (%zu) | %7.2f | %7.1f "
           "| %7.1f / %6.1f |\n", rounds, cost_mean(&f->floor) * 1e6, f->floor.max * 1e6, cost_mean(&f->idle) * 1e6, f->idle.max * 1e6,
           cost_mean(&f->busy) * 1e6, f->busy.max * 1e6,
           cost_mean(&f->post) * 1e6, f->post.max * 1e6, f->post.count, f->eval_one_s * 1e3, f->eval_all_s * 1e3,
           cost_mean(&f->today) * 1e3, f->today.max * 1e3);
}

int main(int argc, char **argv)
{
    const char *defaults[] = {"100000", "1000000"};
    int n = argc > 1 ? argc - 1 : 2;
    const char *const *sizes = argc > 1 ? (const char *const *)argv + 1 : defaults;
    printf("| rounds | empty timed region: mean / max, us | add_round + poll, worker idle: mean / max, us "
           "| same, worker busy: mean / max, us | poll that posts: mean / max, us (posts) "
           "| worker, 1 baseline, ms | worker, 7 baselines, ms | before: synchronous check, mean / max, ms |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < n; i++) {
        char *end;
        unsigned long long rounds = strtoull(sizes[i], &end, 10);
        if (*end || rounds < HB_TARGET_CI_MIN_ROUNDS) {
            fprintf(stderr, "bench-target-ci: '%s' is not a number of rounds (at least %d)\n", sizes[i],
                    HB_TARGET_CI_MIN_ROUNDS);
            return 2;
        }
        figures f;
        memset(&f, 0, sizeof f);
        if (!timing_thread_costs(rounds, &f) || !full_evaluation(rounds, &f) || !todays_costs(rounds, &f))
            return 1;
        print_row(rounds, &f);
    }
    return 0;
}
