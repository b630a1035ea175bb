/* The time criterion (bench/measure/stop_criterion.h): a window is finished
 * once it has lasted `window_s` and played `min_rounds` rounds, whichever
 * comes last, so a window of slow calls still gets its minimum rounds.
 * With --target-ci it is the cap and says so ("time-cap"). */
#ifndef HB_TIME_CRITERION_H
#define HB_TIME_CRITERION_H

#include "bench/measure/stop_criterion.h"

/* `caps_target`: 1 when a target-CI criterion runs beside it; its decision
 * then reads "time-cap", else "time". */
hb_status hb_time_criterion_create(double window_s, size_t min_rounds, int caps_target, hb_stop_criterion *out);

#endif
