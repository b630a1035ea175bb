/* What gate --decide decided for one configuration (docs/gate.md, "A
 * verdict in seconds"): the sequential test's last look
 * (bench/core/sequential_test.h) on the configuration's headline timer.
 * Plain data: the child fills it, the gate (bench/result/gate.h) and the
 * writers read it. */
#ifndef HB_DECISION_RECORD_H
#define HB_DECISION_RECORD_H

#include <stddef.h>

#include "bench/core/sequential_test.h"
#include "bench/result/timer_check.h"

/* The rule, in words, for the results. */
#define HB_DECISION_RULE "sequential: looks at 64 x 2^(k-1) rounds, alpha_k = alpha 6/(pi^2 k^2), batch means, Student t"

typedef struct hb_decision_record {
    int ran;                /* 1: --decide judged this configuration */
    char vs[64];            /* the --vs baseline */
    double threshold;       /* --min-speedup, as a speedup (0.05 = +5 %) */
    double alpha;           /* --decide-alpha: the error spent over every look */
    size_t looks;           /* looks made */
    hb_look last;           /* the last look: the one that decided, or the cap's */
    double seconds;         /* the timed window's seconds at that look */
    hb_timer timer;         /* the series judged: the headline timer */
    hb_look_state window_state; /* what the criterion saw on CUDA-event times when the window ended */
} hb_decision_record;

/* The interval's ends as speedups, exp(.) - 1. */
double hb_decision_low(const hb_decision_record *d);
double hb_decision_high(const hb_decision_record *d);

/* One line for stdout and the gate's reason, e.g. "decided above +5.00% at
 * round 1,024 (look 5, 0.8 s; interval +6.1% to +8.0% at 99.88%, event
 * timer)". */
void hb_decision_text(const hb_decision_record *d, char *out, size_t size);

#endif
