/* The sequential test behind `gate --decide` (docs/methodology.md,
 * "Sequential testing"): is the mean of the per-round log ratios
 * x_r = log(t_base / t_cand) above or below log(1 + threshold)?
 *
 * Looks.  The test looks at the rounds n_k = first * 2^(k-1), k = 1, 2, ...
 * (and once more at the cap, where the window ends between two looks).
 * Looking repeatedly at an interval and stopping at the first that excludes
 * the threshold inflates its error (optional stopping: with a 95 % interval
 * at every look, a pair exactly at the threshold is eventually "decided"
 * with probability well above 5 %).  So the error is spent: look k uses a
 * two-sided interval of level 1 - alpha_k, alpha_k = alpha 6 / (pi^2 k^2),
 * whose sum over all looks is alpha.  By the union bound, the chance that
 * any look's interval misses the true mean is at most alpha, hence a pair
 * whose true speedup is the threshold passes (decided above) with
 * probability at most alpha / 2, whatever the looks and however they stop.
 * Geometric looks keep the cost O(2n) over a window of n rounds and the
 * level of late looks moderate (k grows as log2 n).
 *
 * Interval.  mean(x) +- t_{b-1}(alpha_k / 2) * SE, SE from b non-overlapping
 * batch means of m = floor(n / b) rounds, b = floor(sqrt(n / 2)) (batches
 * of about sqrt(2 n) rounds).  Rounds are
 * autocorrelated (neighbours share clocks and temperature), so a standard
 * error that treats them as independent is too small; the means of long
 * batches are nearly independent, and batches of sqrt(2 n) rounds grow with
 * the window, so any finite correlation length is eventually inside a batch
 * (consistent batch means: Flegal & Jones 2010).  It is the O(n) counterpart
 * of the block bootstrap behind the summary's CI (bench/core/stats.h), and
 * needs no resampling at each look.  With few batches (5 at 64 rounds) a
 * normal quantile would make the interval 20-60 % too narrow, so the
 * quantile is Student's t with b - 1 degrees of freedom.  Simulated A/A
 * pairs (tests/test_sequential_test.c) pass at about alpha / 2 or less with
 * independent, heavy-tailed and AR(1) rounds up to phi = 0.7; slower drift
 * (phi = 0.9, correlated over ~20 rounds) is longer than the first looks'
 * batches and passes about 7 % at alpha 0.05.  Batches of sqrt(n) rounds
 * and a first look at 32 rounds passed 2.7 % at phi 0.5: this choice trades
 * a few early rounds for that.
 *
 * Several series (a -max figure: the NN and the TN layout) are judged
 * together: the interval of the smaller of their means is [min of lows, min
 * of highs], which covers it whenever every series' interval covers its own
 * mean.  Above: its low is above the threshold (every series is above);
 * below: its high is below (some series is below).
 *
 * Pure: no clock, no thread; the stopping criterion
 * (bench/measure/decide_criterion.h), the re-judgement on the wall clock
 * (bench/driver/config_eval.c) and the tests' simulations call it alike. */
#ifndef HB_SEQUENTIAL_TEST_H
#define HB_SEQUENTIAL_TEST_H

#include <stddef.h>

#include "bench/core/status.h"

/* Rounds before the first look: 5 batches of 12 rounds, long enough for the
 * round-to-round correlation a GPU shows within a few rounds. */
#define HB_SEQUENTIAL_FIRST_LOOK 64
/* Series judged together at most (a -max figure has two). */
#define HB_SEQUENTIAL_MAX_SERIES 2
/* The fewest rounds an interval is made of (2 batches of 2). */
#define HB_SEQUENTIAL_MIN_ROUNDS 4

typedef enum hb_look_state {
    HB_LOOK_UNDECIDED, /* the interval contains the threshold */
    HB_LOOK_ABOVE,     /* wholly above it */
    HB_LOOK_BELOW      /* wholly below it */
} hb_look_state;

/* "undecided", "above", "below". */
const char *hb_look_state_name(hb_look_state state);

/* What one look saw. */
typedef struct hb_look {
    size_t look;        /* k, from 1 */
    size_t rounds;      /* n */
    double alpha;       /* alpha_k: the interval's level is 1 - alpha_k */
    size_t batches;     /* b */
    size_t batch_size;  /* m */
    double quantile;    /* t_{b-1}(alpha_k / 2) */
    double low, high;   /* the interval of the (smallest) mean of x, log scale */
    hb_look_state state;
} hb_look;

/* alpha_k = alpha 6 / (pi^2 k^2), k >= 1. */
double hb_look_alpha(double alpha, size_t look);

/* Mean and batch-means standard error of x[0..n), n >= HB_SEQUENTIAL_MIN_ROUNDS:
 * b = floor(sqrt(n / 2)) batches (at least 2) of m = floor(n / b) rounds (the last n - b m
 * rounds count in the mean, not in the batches); SE^2 = m s_b^2 / n, s_b^2
 * the sample variance of the batch means. */
hb_status hb_batch_means(const double *x, size_t n, double *mean, double *se, size_t *batches, size_t *batch_size);

/* One look at `count` series of n log ratios each, at level 1 - look_alpha,
 * against log_threshold (may be -INFINITY: every interval is above it).  A
 * series holding a ratio that is not finite gives no interval (NaN ends):
 * undecided, never a pass. */
hb_status hb_look_at(const double *const *series, size_t count, size_t n, double look_alpha, double log_threshold,
                     hb_look *out);

/* A test in progress: which looks are due and what the last one saw. */
typedef struct hb_sequential_test {
    double alpha;          /* the error spent over every look, (0, 1) */
    double log_threshold;  /* log(1 + threshold) */
    size_t first;          /* rounds at the first look */
    size_t looks;          /* looks made */
    hb_look last;          /* the last look (looks > 0) */
} hb_sequential_test;

void hb_sequential_init(hb_sequential_test *test, double alpha, double log_threshold, size_t first);

/* 1 when a look is due at `rounds`: the next one on the schedule, or, at
 * the cap, a last one over the rounds since the last look. */
int hb_sequential_due(const hb_sequential_test *test, size_t rounds, int at_cap);

/* The next look, over the first `rounds` values of each series; its result
 * is test->last. */
hb_status hb_sequential_look(hb_sequential_test *test, const double *const *series, size_t count, size_t rounds);

#endif
