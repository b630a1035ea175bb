#include "bench/result/gate.h"

#include <stdio.h>
#include <string.h>

#include "bench/result/conduct.h"

/* --decide: only a decision above passes, which is what bounds the false
 * passes at alpha / 2 (docs/gate.md, "A verdict in seconds"). */
static void apply_decision(hb_config_result *r)
{
    const hb_decision_record *d = &r->decision;
    if (d->last.state == HB_LOOK_ABOVE)
        return;
    char text[320];
    hb_decision_text(d, text, sizeof text);
    r->status = HB_ERR_TOO_SLOW;
    snprintf(r->check, sizeof r->check, "%s", HB_CHECK_SPEEDUP);
    if (d->last.state == HB_LOOK_BELOW) {
        r->verdict = HB_VERDICT_TOO_SLOW;
        snprintf(r->reason, sizeof r->reason, "the speedup is below the threshold: %s", text);
        return;
    }
    r->verdict = HB_VERDICT_UNDECIDED;
    snprintf(r->reason, sizeof r->reason, "the speed was not shown to meet the threshold: %s; the window (--time-s) "
             "ended first", text);
}

const hb_participant_result *hb_find_participant(const hb_config_result *r, const char *name)
{
    for (size_t i = 0; i < r->count; i++)
        if (!strcmp(r->participants[i].name, name))
            return &r->participants[i];
    return NULL;
}

void hb_gate_apply(hb_config_result *r, const char *vs, double min_speedup)
{
    if (r->status != HB_OK || !r->measured)
        return;
    const hb_participant_result *base = hb_find_participant(r, vs);
    if (!base) {
        r->status = HB_ERR_INTERNAL;
        r->verdict = HB_VERDICT_ERROR;
        snprintf(r->reason, sizeof r->reason, "baseline %s was not measured", vs);
        return;
    }
    if (r->decision.ran) {
        apply_decision(r);
        return;
    }
    const hb_speedup_summary *s = hb_headline_speedup(r, base);
    if (s->geomean >= min_speedup)
        return;
    r->status = HB_ERR_TOO_SLOW;
    r->verdict = HB_VERDICT_TOO_SLOW;
    snprintf(r->check, sizeof r->check, "%s", HB_CHECK_SPEEDUP);
    snprintf(r->reason, sizeof r->reason,
             "speedup over %s %+.2f%% (95%% CI %+.2f%% to %+.2f%%, %s timer) is below the threshold %+.2f%%", vs,
             s->geomean * 100, s->ci95_low * 100, s->ci95_high * 100, hb_timer_name(r->headline_timer),
             min_speedup * 100);
}

unsigned hb_gate_forbidden_findings(int strict, const char *forbid)
{
    unsigned mask = strict ? hb_finding_strict_mask() : 0;
    unsigned listed = 0;
    char bad[64];
    if (forbid && hb_finding_parse_list(forbid, &listed, bad, sizeof bad)) /* the option parser refused bad names */
        mask |= listed;
    return mask & ~HB_FINDING_BIT(HB_FINDING_HOST_TIME);
}

void hb_gate_apply_conduct(hb_config_result *r, unsigned forbidden)
{
    if (!forbidden || (r->status != HB_OK && r->status != HB_ERR_TOO_SLOW))
        return;
    /* A finding read from the candidate's file stands without a trace, and
     * forbidding only those needs none. */
    const unsigned from_file = hb_finding_static_mask();
    if (!r->conduct.traced && !(r->conduct.found & forbidden & from_file) && (forbidden & ~from_file)) {
        r->status = HB_ERR_CUDA;
        r->verdict = HB_VERDICT_ERROR;
        snprintf(r->check, sizeof r->check, "%s", HB_CHECK_CONDUCT);
        snprintf(r->reason, sizeof r->reason, "the gate forbids conduct findings, but no trace judged this "
                 "configuration: %.400s", r->trace_note[0] ? r->trace_note : "the call monitor did not run");
        return;
    }
    if (!(r->conduct.found & forbidden))
        return;
    r->status = HB_ERR_FORBIDDEN;
    r->verdict = HB_VERDICT_FORBIDDEN;
    snprintf(r->check, sizeof r->check, "%s", HB_CHECK_CONDUCT);
    hb_conduct_lines(&r->conduct, forbidden, "; ", r->reason, sizeof r->reason);
}
