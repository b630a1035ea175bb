/* `hgemm-bench baselines`: the baseline registry (bench/result/baseline_registry.h)
 * as tab-separated text, one line per baseline under a header line, for
 * people choosing --vs or --aa and for plots/plot_run.sh, which draws each
 * baseline in the style given here. */
#include <stdio.h>

#include "bench/core/gemm_types.h"
#include "bench/driver/commands.h"
#include "bench/result/baseline_registry.h"

hb_status hb_cmd_baselines(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)self;
    (void)cli;
    (void)command_line;
    printf("name\tb_layout\tmax_row\tsets_bound\tplot_style\tabout\n");
    for (size_t i = 0; i < HB_N_BASELINES; i++) {
        const hb_baseline_entry *b = &hb_baselines[i];
        printf("%s\t%s\t%s\t%s\t%s\t%s\n", b->name, hb_b_layout_name(b->b_layout), b->max_row ? b->max_row : "-",
               b->bounds_deviation ? "yes" : "no", b->plot_style, b->about);
    }
    return fflush(stdout) == 0 ? HB_OK : HB_ERR_IO;
}
