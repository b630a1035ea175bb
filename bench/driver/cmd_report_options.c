/* The flags of report (bench/driver/cmd_report.c): the output group, which
 * compare takes too, and what they need of each other. */
#include "bench/core/diag.h"
#include "bench/driver/command_options.h"

const hb_option_group *const hb_report_option_list[] = {&hb_output_options, &hb_common_options, NULL};

hb_status hb_report_options_check(const hb_option_parse *p)
{
    if (p->run->report.plots && !p->run->report.out_dir)
        return hb_fail(HB_ERR_USAGE, "%s: --plots draws figure files: give --out DIR for them", p->command);
    return HB_OK;
}
