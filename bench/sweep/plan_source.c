#include "bench/sweep/plan_source.h"

#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/sweep/mnk_file.h"

hb_status hb_plan_from_options(const hb_run_options *o, const char *command, hb_sweep_plan *plan)
{
    if (o->grid) {
        if (strcmp(o->grid, "paper"))
            return hb_fail(HB_ERR_USAGE, "--grid expects paper (the paper's 1000 configurations), got '%s'", o->grid);
        hb_plan_grid_paper(plan);
    } else if (o->mnk_file) {
        HB_TRY(hb_mnk_file_read(o->mnk_file, plan));
        if (plan->n_configs == 0)
            return hb_fail(HB_ERR_USAGE, "--mnk-file %s holds no configuration", o->mnk_file);
    } else if (o->m_list) {
        HB_TRY(hb_plan_axes(plan, o->m_list, o->n_list, o->k_list));
    } else {
        for (size_t i = 0; i < o->n_configs; i++)
            HB_TRY(hb_plan_add(plan, o->configs[i], "--mnk"));
    }
    size_t dropped = hb_plan_dedupe(plan);
    if (dropped)
        fprintf(stderr, "hgemm-bench: %s: %zu repeated configuration%s dropped from the plan (the first kept)\n",
                command, dropped, dropped == 1 ? "" : "s");
    return HB_OK;
}
