/* The reward of a kernel-generation loop (docs/gate.md, "Reward"): the
 * paper's eq. 3,
 *     r = (1/N) sum_i [t_ref^i / t_cand^i - alpha diff^i] - beta L,
 * with diff^i the largest |c - ref32| of round i's output and L the
 * candidate's code length.  Pure arithmetic on figures the evaluation
 * already has, so it is testable without a GPU:
 *   - the speed term is the mean over the kept timed rounds of the paired
 *     ratio t_ref / t_cand on the configuration's headline timer (without a
 *     clip it is 1 + the paper's eq. 2 estimator, speedup.paper);
 *   - (1/N) sum diff^i is estimated by the mean of the candidate's largest
 *     |c - ref32| over the configuration's deviation checks (before timing,
 *     the spot checks of timed rounds, after timing);
 *   - L is the source file's size in bytes. */
#ifndef HB_REWARD_H
#define HB_REWARD_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/battery_record.h"

#define HB_REWARD_SOURCE_MAX 4096 /* a path */

/* --reward, --reward-clip and --source as given, and the source's length
 * (measured before the GPU: bench/driver/reward_source.h). */
typedef struct hb_reward_settings {
    int on;                  /* --reward ALPHA,BETA given */
    double alpha, beta;      /* >= 0, finite */
    int clip;                /* --reward-clip LO,HI given */
    double clip_low, clip_high; /* LO < HI: each round's ratio is clipped into [LO, HI] */
    const char *source;      /* --source FILE; NULL: none */
    long long length_bytes;  /* the source's size in bytes; -1: no source */
} hb_reward_settings;

/* One configuration's reward and every term of it, as the results record it. */
typedef struct hb_reward_record {
    int requested;           /* --reward was on */
    int earned;              /* r and its terms hold: every check passed and the configuration was timed */
    char note[256];          /* requested, not earned: why */
    double r;
    double alpha, beta;
    char vs[64];             /* the baseline named by --vs (torch for run and sweep) */
    char vs_participant[64]; /* the row whose per-round times were paired: vs, or the variant a -max row copies */
    char timer[8];           /* "event" or "wall": the configuration's headline timer */
    size_t rounds;           /* kept timed rounds, N */
    double speed_term;       /* mean of t_ref / t_cand, each clipped with --reward-clip */
    double speed_term_unclipped; /* the same without the clip: 1 + speedup.paper */
    int clip;                /* --reward-clip given */
    double clip_low, clip_high;
    size_t clipped_rounds;   /* rounds whose ratio lay outside [clip_low, clip_high] */
    double diff_mean;        /* mean over the deviation checks of the candidate's largest |c - ref32| */
    double diff_max;         /* the largest of them */
    int diff_checks;         /* how many checks */
    long long length_bytes;  /* L; -1: no source (beta must then be 0) */
    char source[HB_REWARD_SOURCE_MAX]; /* "" when none */
} hb_reward_record;

/* The mean over n rounds of t_ref[i] / t_cand[i], clipped into [low, high]
 * when `clip`; the unclipped mean and the number of clipped rounds beside it.
 * n > 0; times in any one unit. */
double hb_reward_speed_term(const double *t_ref, const double *t_cand, size_t n, int clip, double low, double high,
                            double *unclipped, size_t *clipped);

/* r and every term, from the paired per-round times of the kept timed
 * rounds (the headline timer's), the configuration's deviation checks and
 * the settings.  HB_ERR_INTERNAL when there is no round or no deviation
 * check to average (a harness bug: a timed configuration has both). */
hb_status hb_reward_compute(const hb_reward_settings *settings, const double *t_ref, const double *t_cand,
                            size_t rounds, const hb_deviation_record *checks, hb_reward_record *out);

/* Once the configuration's verdict is final: a reward only for one that
 * passed every check and was timed (pass, or too-slow: slow is not wrong);
 * any other keeps its verdict and gets none, with the reason in the note.
 * `requested` is --reward; `verdict` and `check` name the final verdict. */
void hb_reward_settle(hb_reward_record *record, int requested, hb_status status, int measured, const char *verdict,
                      const char *check);

#endif
