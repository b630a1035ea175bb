/* The profile pass's lines in the stdout table (docs/gate.md, "Profile"):
 * a head naming ncu and the pass's cost, then one line per kernel profiled,
 * the candidate's first, so its figures stand above the baseline's; or one
 * line saying why there is no profile. */
#ifndef HB_PROFILE_LINES_H
#define HB_PROFILE_LINES_H

#include <stdio.h>

#include "bench/result/kernel_profile.h"

/* Nothing when --profile was not given. */
void hb_report_profile(FILE *out, const hb_profile_record *profile);

#endif
