/* Which timed rounds CUPTI also reads the event pair of, and how a round's
 * samples are kept (docs/methodology.md, "Timers out of the candidate's
 * reach").  CUDA-free: the windows (bench/measure/windows.c) draw and keep
 * through it, the tests drive it on the CPU.
 *
 * A few percent of the timed rounds (--cross-check-rounds, default 3 %) are
 * drawn at random, one draw per round, made between rounds: after the
 * previous round ended and before anything of the next one runs.  The draw
 * comes from a generator of its own, seeded from the configuration's, and
 * reads nothing of the rounds: not their order, their inputs or any time.
 * Nothing differs in a drawn round but CUPTI's reading itself, which the
 * call monitor switches on and off around each of its calls, untimed
 * (bench/trace/call_monitor.h).  A drawn round is left out of the
 * statistics, every participant's sample of it, so the rounds that remain
 * stay paired; its calls are still scanned and may still be spot-checked. */
#ifndef HB_CROSS_CHECK_ROUNDS_H
#define HB_CROSS_CHECK_ROUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/rng.h"
#include "bench/result/participant_desc.h"
#include "bench/result/window_samples.h"

/* --cross-check-rounds' most: half the rounds, the statistics keep the
 * other half (at 100 % no round would be kept and the window never end). */
#define HB_CROSS_CHECK_MAX_PERCENT 50

typedef struct hb_cross_rounds {
    double fraction; /* of timed rounds; 0: none drawn */
    hb_rng rng;      /* its own stream: the round orders and spot checks of a seed are the same with it on or off */
    size_t drawn;    /* rounds drawn so far */
    size_t draws;    /* draws so far, one per round */
} hb_cross_rounds;

/* `fraction` in [0, HB_CROSS_CHECK_MAX_PERCENT / 100]; `seed` from the
 * configuration's generator (the window seeds it from its own seed). */
void hb_cross_rounds_init(hb_cross_rounds *c, double fraction, uint64_t seed);

/* Between rounds: 1 if the next round is cross-checked.  One draw per call
 * whatever the fraction (0 and 1 included), so round r's draw is the r-th
 * of the seed's stream. */
int hb_cross_rounds_draw(hb_cross_rounds *c);

/* One round's figures by participant index, gathered call by call and kept
 * or dropped whole when the round ends. */
typedef struct hb_round_figures {
    double event_ms[HB_MAX_PARTICIPANTS];
    double wall_ms[HB_MAX_PARTICIPANTS];
    double slot[HB_MAX_PARTICIPANTS];    /* the call's place in the round's order */
    double start_s[HB_MAX_PARTICIPANTS]; /* from the window's start */
    double gap_ms[HB_MAX_PARTICIPANTS];  /* idle gap slept just before the call */
} hb_round_figures;

/* The end of a round: every participant's figures pushed onto its samples
 * (the slot, start and gap too when `keep_detail`), or, for a cross-checked
 * round, none of them.  Out of memory: HB_ERR_INTERNAL, from the vectors. */
hb_status hb_keep_round(hb_participant_samples *samples, size_t count, const hb_round_figures *round, int crossed,
                        int keep_detail);

#endif
