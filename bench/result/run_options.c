#include "bench/result/run_options.h"

#include <stdio.h>

const char *hb_candidate_label(const hb_run_options *run)
{
    static char label[80];
    if (!run->aa)
        return run->candidate_path ? run->candidate_path : "";
    snprintf(label, sizeof label, "aa:%s", run->aa);
    return label;
}
