#include "bench/result/deviation_rule.h"

#include <math.h>
#include <string.h>

const char *hb_deviation_rule_name(hb_deviation_rule rule)
{
    return rule == HB_RULE_PAPER ? "paper" : "ulp-excess";
}

int hb_deviation_rule_parse(const char *text, hb_deviation_rule *out)
{
    if (!text)
        return 0;
    if (!strcmp(text, "ulp-excess"))
        *out = HB_RULE_ULP_EXCESS;
    else if (!strcmp(text, "paper"))
        *out = HB_RULE_PAPER;
    else
        return 0;
    return 1;
}

double hb_unit_roundoff(hb_acc_class acc)
{
    return ldexp(1.0, acc == HB_ACC_FP16 ? -11 : -24);
}

void hb_rule_judge(hb_acc_class acc, long k, double ref_rms, double baseline_excess, double excess,
                   double paper_bound, double paper_dev, hb_rule_figures *out)
{
    out->analytic = HB_RULE_ANALYTIC_FACTOR * hb_unit_roundoff(acc) * sqrt((double)k) * ref_rms;
    out->baseline_excess = baseline_excess;
    out->tolerance = fmax(out->analytic, HB_RULE_BASELINE_FACTOR * baseline_excess);
    out->excess = excess;
    out->ratio = out->tolerance > 0 ? excess / out->tolerance : (excess > 0 ? INFINITY : 0);
    out->paper_bound = paper_bound;
    out->paper_dev = paper_dev;
    out->paper_ratio = paper_bound > 0 ? paper_dev / paper_bound : (paper_dev > 0 ? INFINITY : 0);
    /* Written so that NaN fails: a comparison with NaN is false. */
    out->excess_pass = excess <= out->tolerance;
    out->paper_pass = paper_dev <= paper_bound;
}

int hb_rule_passes(hb_deviation_rule rule, const hb_rule_figures *f)
{
    return rule == HB_RULE_PAPER ? f->paper_pass : f->excess_pass;
}

void hb_deviation_record_add(hb_deviation_record *r, const hb_rule_figures *f)
{
    r->checks++;
    r->paper_failures += !f->paper_pass;
    if (r->checks == 1 || !(f->ratio <= r->worst_ratio)) { /* NaN counts as worse */
        r->worst_ratio = f->ratio;
        r->tolerance = f->tolerance;
        r->analytic_tolerance = f->analytic;
        r->baseline_excess = f->baseline_excess;
    }
    if (r->checks == 1 || !(f->paper_ratio <= r->paper_worst_ratio))
        r->paper_worst_ratio = f->paper_ratio;
    r->paper_dev_sum += f->paper_dev;
    if (r->checks == 1 || !(f->paper_dev <= r->paper_dev_max)) /* NaN counts as worse */
        r->paper_dev_max = f->paper_dev;
}
