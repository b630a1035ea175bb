#include "bench/result/decision_record.h"

#include <math.h>
#include <stdio.h>

_Static_assert(HB_SEQUENTIAL_FIRST_LOOK == 64, "HB_DECISION_RULE names the first look's rounds");

double hb_decision_low(const hb_decision_record *d) { return expm1(d->last.low); }

double hb_decision_high(const hb_decision_record *d) { return expm1(d->last.high); }

/* 1600 -> "1,600". */
static void with_commas(size_t value, char *out, size_t size)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%zu", value);
    size_t used = 0;
    for (int i = 0; i < n && used + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            out[used++] = ',';
        out[used++] = digits[i];
    }
    out[used] = '\0';
}

void hb_decision_text(const hb_decision_record *d, char *out, size_t size)
{
    char rounds[40];
    with_commas(d->last.rounds, rounds, sizeof rounds);
    const char *how = d->last.state == HB_LOOK_UNDECIDED ? "undecided about" : "decided";
    const char *where = d->last.state == HB_LOOK_ABOVE ? "above " : d->last.state == HB_LOOK_BELOW ? "below " : "";
    snprintf(out, size, "%s %s%+.2f%% over %s at round %s (look %zu, %.1f s; interval %+.2f%% to %+.2f%% at %.4g%%, %s "
             "timer)", how, where, d->threshold * 100, d->vs, rounds, d->last.look, d->seconds,
             hb_decision_low(d) * 100, hb_decision_high(d) * 100, (1 - d->last.alpha) * 100, hb_timer_name(d->timer));
}
