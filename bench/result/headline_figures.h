/* The headline's figures (bench/result/headline.h): the steps that read the
 * timed samples, each a row of headline.c's table, in its order.  Each
 * returns HB_OK or the harness's error; a check among them records its
 * outcome in in->checks, failed or passed, and returns HB_OK either way. */
#ifndef HB_HEADLINE_FIGURES_H
#define HB_HEADLINE_FIGURES_H

#include <stddef.h>

#include "bench/core/sequential_test.h"
#include "bench/result/headline.h"

/* Each participant's row: its name, its event and wall summaries, and for a
 * baseline the paired speedup of the candidate over it on both timers; the
 * rounds (the candidate's), measured. */
hb_status hb_headline_summaries(const hb_headline_input *in, hb_config_result *r);

/* Check timer-cross-check: the headline timer, why, and each participant's
 * agreement (hb_decide_timer); the timers disagreeing fails it
 * (timer-mismatch). */
hb_status hb_headline_timers(const hb_headline_input *in, hb_config_result *r);

/* The window's --decide decision into r->decision; where the headline moved
 * to the wall clock (work left the timed stream) the decision on CUDA-event
 * times does not stand, so the same look (its k and alpha_k) is made again
 * on the wall times of the rounds kept. */
hb_status hb_headline_decision(const hb_headline_input *in, hb_config_result *r);

/* --reward: the paper's eq. 3 on the kept timed rounds, paired with the
 * --vs baseline (for a -max name, the variant its row copies) on the
 * headline timer, and on every deviation check of the configuration. */
hb_status hb_headline_reward_terms(const hb_headline_input *in, hb_config_result *r);

/* --target-ci: the widest half-width of the baselines' summaries, into the
 * window's record. */
hb_status hb_headline_final_halfwidth(const hb_headline_input *in, hb_config_result *r);

/* The participants gate --decide judges: the baseline `vs` names, or both
 * layouts of a -max figure (its speedup is the smaller of the two, the
 * faster layout's); their indices into column[], their number into
 * *columns.  HB_ERR_INTERNAL when vs names no baseline among them.  Before
 * the timed window (the decide criterion's columns) and after it (the
 * decision on the wall clock). */
hb_status hb_decide_columns(const hb_headline_participant *participants, size_t count, const char *vs,
                            size_t column[HB_SEQUENTIAL_MAX_SERIES], size_t *columns);

#endif
