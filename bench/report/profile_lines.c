#include "bench/report/profile_lines.h"

#include <math.h>

/* A metric's cell, 8 wide: "-" where ncu did not report it; times in us. */
static void print_value(FILE *out, const hb_kernel_profile *k, int m)
{
    double v = k->value[m];
    if (isnan(v))
        fprintf(out, " %8s", "-");
    else if (m == HB_PROFILE_DURATION_NS)
        fprintf(out, " %8.2f", v * 1e-3);
    else if (m == HB_PROFILE_REGISTERS || m == HB_PROFILE_SHARED_BYTES)
        fprintf(out, " %8.0f", v);
    else
        fprintf(out, " %8.1f", v);
}

void hb_report_profile(FILE *out, const hb_profile_record *p)
{
    if (!p->asked)
        return;
    if (!p->ran) {
        fprintf(out, "  profile: none (%s)\n", p->note);
        return;
    }
    fprintf(out, "  profile (ncu%s%s, %.1f s; one call each, ncu's clocks and cache control):\n  %-22s",
            p->version[0] ? " " : "", p->version, p->seconds, "participant");
    for (int m = 0; m < HB_N_PROFILE_METRICS; m++)
        fprintf(out, " %8s", hb_profile_metrics[m].head);
    fprintf(out, "  grid x block, kernel\n");
    for (size_t i = 0; i < p->count; i++) {
        const hb_kernel_profile *k = &p->kernels[i];
        fprintf(out, "  %-22s", k->participant);
        for (int m = 0; m < HB_N_PROFILE_METRICS; m++)
            print_value(out, k, m);
        fprintf(out, "  %s x %s, %s\n", k->grid, k->block, k->kernel);
    }
    if (p->dropped)
        fprintf(out, "  profile: %zu more kernels not kept\n", p->dropped);
    if (p->missing[0])
        fprintf(out, "  profile: not reported by this ncu or GPU: %s\n", p->missing);
    if (p->note[0])
        fprintf(out, "  profile: %s\n", p->note);
}
