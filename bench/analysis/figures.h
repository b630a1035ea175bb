/* The figures of report and compare (docs/reports.md, "Figures"), drawn by
 * gnuplot into the --out folder, each as PNG and SVG:
 *  - report: per mode, the speedup over each baseline against log2(M*N*K)
 *    (the paper's Figure 3, left), the ECDF of the per-configuration
 *    speedups per baseline, and where the speedup comes from (the headline
 *    against kernel time, source_figure.h);
 *  - compare: ours against published per baseline, with the line y = x, on
 *    axes fitted to the points; and where the speedup comes from, over the
 *    configurations of the published file.
 * Every baseline and -max figure is drawn, in its style from the baseline
 * registry.  A figure with no configuration to draw says so (and why)
 * instead: --plots never fails for want of data.  Beside the figures go their data (.dat) and the gnuplot script
 * that drew them, so they can be redrawn or restyled with `gnuplot FILE.gp`
 * in that folder; a folder's text is in that script only as strings
 * (gnuplot_text.h), so redrawing runs nothing a folder says. */
#ifndef HB_FIGURES_H
#define HB_FIGURES_H

#include "bench/analysis/comparison.h"
#include "bench/analysis/output_folder.h"
#include "bench/analysis/result_set.h"

/* 1 if a `gnuplot` program is on PATH. */
int hb_gnuplot_available(void);

/* Writes the report's figures (report_*.png, .svg, .dat, report_figures.gp)
 * into the staged folder.  HB_ERR_IO if gnuplot fails (its messages shown)
 * or a figure it drew is not whole (a full disk: figure_files.h); the
 * caller then abandons the staged folder. */
hb_status hb_draw_report_figures(const hb_result_set *set, hb_timer timer, const hb_output_folder *out);

/* Writes compare's figures (compare_<mode>.png, compare_speedup_source_<mode>.png,
 * each also .svg, their .dat, the caption's .txt, compare_figures.gp);
 * HB_ERR_IO as hb_draw_report_figures. */
hb_status hb_draw_compare_figures(const hb_compare_input *in, const hb_output_folder *out);

#endif
