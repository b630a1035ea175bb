#include "bench/result/headline.h"

#include <stdio.h>

#include "bench/core/diag.h"

#include "bench/result/gate.h"
#include "bench/result/headline_figures.h"
#include "bench/result/max_rows.h"
#include "bench/result/plausibility.h"

/* The figures' steps need timed rounds, and none runs once a check failed:
 * a candidate that failed any check gets no speedup figure. */
static int figures_wanted(const hb_headline_input *in)
{
    return in->timed && in->count > 0 && !hb_check_list_failure(in->checks);
}

/* The faster variant of each -max pair by the headline timer, so after the timers' decision. */
static hb_status max_rows(const hb_headline_input *in, hb_config_result *r)
{
    (void)in;
    hb_add_max_rows(r);
    return HB_OK;
}

/* The first failed check decides; a configuration that failed any has no speedup figure. */
static hb_status verdict(const hb_headline_input *in, hb_config_result *r)
{
    const hb_check_outcome *failed = in->checks ? hb_check_list_failure(in->checks) : NULL;
    r->status = failed ? failed->status : HB_OK;
    r->verdict = hb_verdict_of_status(r->status);
    if (!failed)
        return HB_OK;
    r->measured = 0;
    snprintf(r->check, sizeof r->check, "%s", failed->check);
    snprintf(r->reason, sizeof r->reason, "%s", failed->reason);
    return HB_OK;
}

/* Before the threshold: an implausible time must not count as fast enough. */
static hb_status peak_throughput(const hb_headline_input *in, hb_config_result *r)
{
    if (in->options.device)
        hb_plausibility_apply(r, in->options.device, in->options.peak_tflops);
    return HB_OK;
}

static hb_status speedup(const hb_headline_input *in, hb_config_result *r)
{
    if (in->options.gate)
        hb_gate_apply(r, in->options.vs, in->options.min_speedup);
    return HB_OK;
}

/* After the threshold: a refused finding is forbidden whether or not the
 * candidate was fast enough. */
static hb_status conduct(const hb_headline_input *in, hb_config_result *r)
{
    if (in->options.gate)
        hb_gate_apply_conduct(r, in->options.forbidden);
    return HB_OK;
}

/* Last: the verdict is final (implausible and forbidden are decided above). */
static hb_status reward(const hb_headline_input *in, hb_config_result *r)
{
    const int requested = in->options.reward && in->options.reward->on;
    hb_reward_settle(&r->reward, requested, r->status, r->measured, hb_verdict_name(r->verdict), r->check);
    return HB_OK;
}

typedef struct headline_step {
    const char *name;  /* the check it is, or what it records */
    unsigned stage;    /* HB_HEADLINE_* */
    hb_status (*run)(const hb_headline_input *in, hb_config_result *r);
} headline_step;

/* The one order.  A check on the timed figures is a FIGURES row after
 * the timers' (it reads the headline timer) that records its outcome in
 * in->checks; a check the parent makes on the result is a GATE row before
 * the speedup's. */
static const headline_step steps[] = {
    {"figures", HB_HEADLINE_FIGURES, hb_headline_summaries},
    {HB_CHECK_TIMER_CROSS_CHECK, HB_HEADLINE_FIGURES, hb_headline_timers},
    {"decision", HB_HEADLINE_FIGURES, hb_headline_decision},
    {"max-rows", HB_HEADLINE_FIGURES, max_rows},
    {"reward-terms", HB_HEADLINE_FIGURES, hb_headline_reward_terms},
    {"final-halfwidth", HB_HEADLINE_FIGURES, hb_headline_final_halfwidth},
    {"verdict", HB_HEADLINE_VERDICT, verdict},
    {HB_CHECK_PEAK_THROUGHPUT, HB_HEADLINE_GATE, peak_throughput},
    {HB_CHECK_SPEEDUP, HB_HEADLINE_GATE, speedup},
    {HB_CHECK_CONDUCT, HB_HEADLINE_GATE, conduct},
    {"reward", HB_HEADLINE_GATE, reward},
};

hb_headline_options hb_headline_options_of(const hb_run_options *o)
{
    hb_headline_options h = {
        .vs = o->vs,
        .gate = o->gate,
        .min_speedup = o->min_speedup,
        .forbidden = hb_gate_forbidden_findings(o->strict, o->forbid),
        .reward = &o->reward,
        .target_ci = o->target_ci,
        .peak_tflops = o->peak_tflops,
    };
    return h;
}

hb_status hb_headline_decide(const hb_headline_input *in, unsigned stages, hb_config_result *r)
{
    if (!in->checks && (stages & (HB_HEADLINE_FIGURES | HB_HEADLINE_VERDICT)))
        return hb_fail(HB_ERR_INTERNAL, "the headline's figures and verdict need the list of the checks that ran");
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        const headline_step *step = &steps[i];
        if (!(step->stage & stages))
            continue;
        if (step->stage == HB_HEADLINE_FIGURES && !figures_wanted(in))
            continue;
        HB_TRY(step->run(in, r));
    }
    if (stages & (HB_HEADLINE_VERDICT | HB_HEADLINE_GATE))
        return r->status;
    const hb_check_outcome *failed = in->checks ? hb_check_list_failure(in->checks) : NULL;
    return failed ? failed->status : HB_OK;
}
