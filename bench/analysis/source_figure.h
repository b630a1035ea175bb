/* The figure of where a speedup comes from (docs/reports.md, "Figures";
 * the counts: speedup_source.h), drawn by report (every passing
 * configuration of a mode) and compare (those with a published figure):
 *  - left, over problem size (log2(M*N*K), the configurations of one size
 *    side by side): each configuration's speedup on the headline timer (a
 *    filled circle) and on kernel time (an open triangle), joined by a line
 *    in the colour of what the two say (wins on both, on the headline only:
 *    the host path, on kernel time only, on neither);
 *  - right, the same configurations as headline against kernel speedup,
 *    with the line y = x: a host-path win lies in the upper left.
 * The caption (the counts, the baseline, the mode) is in the title and in
 * PREFIX_speedup_source_MODE.txt beside the figure, for a page that shows it
 * (reproduce's summary.md); the points are PREFIX_source_MODE.dat. */
#ifndef HB_SOURCE_FIGURE_H
#define HB_SOURCE_FIGURE_H

#include <stdio.h>

#include "bench/analysis/figure_files.h"
#include "bench/analysis/output_folder.h"
#include "bench/analysis/speedup_source.h"

/* Writes the figure's data and caption into out's staging folder and its
 * drawing into `gp` (after hb_figure_styles), each file recorded in
 * `drawn`; `prefix` is "report" or "compare".  Without a configuration to
 * draw, a figure that says so and why (`empty_reason`). */
hb_status hb_draw_source_figure(FILE *gp, hb_figure_files *drawn, const hb_output_folder *out,
                                const hb_result_set *set, const hb_source_select *s, const char *prefix,
                                const char *empty_reason);

#endif
