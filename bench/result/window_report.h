/* What the warm-up and timed windows of one configuration did (bench/measure/
 * windows.h runs them), as the results record it.  Plain data. */
#ifndef HB_WINDOW_REPORT_H
#define HB_WINDOW_REPORT_H

#include <stddef.h>

typedef struct hb_window_report {
    size_t warmup_rounds, timed_rounds; /* timed_rounds: the rounds kept, up to the decision's round */
    size_t cross_checked_rounds; /* timed rounds whose event pairs CUPTI also read, all of the window's (those after
                                    the decision's round too); left out of timed_rounds and every statistic */
    double warmup_s, timed_s;   /* wall length of each window, seconds */
    double output_scan_s;       /* of both windows, the output scans' read-backs after each round, seconds */
    char stopped_by[16];        /* "time", "target-ci", "decided" (gate --decide) or "time-cap" (the target or decision not reached) */
    double final_halfwidth;     /* with --target-ci: the largest speedup_event.ci95_halfwidth of the baselines'
                                   summaries, over the rounds kept (fraction; set after the summary) */
    double decision_halfwidth;  /* stopped by target-ci: the largest half-width the criterion saw at timed_rounds,
                                   equal to final_halfwidth by construction; else NAN */
    size_t gaps;                /* idle gaps slept in the timed window */
    double gap_mean_ms;         /* their measured mean, milliseconds */
    double gap_fraction;        /* share of the timed window spent in gaps */
    double achieved_rate_per_s; /* gaps (arrivals) per second of timed window: calls/s per-call, rounds/s per-round */
} hb_window_report;

#endif
