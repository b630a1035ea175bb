/* The parts every gnuplot script of report and compare is made of
 * (docs/reports.md, "Figures"): the styles of the columns, each figure in
 * every terminal (PNG and SVG, each file recorded for the check of
 * figure_files.h), the figure that says there is nothing to plot, the
 * title's facts, and running gnuplot.  Every text of a script that is not a
 * constant of ours goes in through hb_gnuplot_string (gnuplot_text.h). */
#ifndef HB_FIGURE_SCRIPT_H
#define HB_FIGURE_SCRIPT_H

#include <stddef.h>
#include <stdio.h>

#include "bench/analysis/figure_files.h"
#include "bench/analysis/output_folder.h"
#include "bench/analysis/result_set.h"
#include "bench/core/status.h"

/* Pixels: one panel, and two side by side. */
#define HB_FIGURE_SIZE "1200,700"
#define HB_WIDE_FIGURE_SIZE "1800,750"

/* The script's preamble: the column names as the gnuplot string `names`,
 * each column's registry style as its linetype, the grid, the key. */
void hb_figure_styles(FILE *gp);

/* How many terminals each figure is drawn in (PNG and SVG). */
size_t hb_figure_terminal_count(void);

/* `set terminal` (number `terminal`, `size` pixels "W,H") and `set output
 * 'STEM.EXT'`, the file recorded in `drawn`. */
hb_status hb_figure_begin(FILE *gp, hb_figure_files *drawn, const char *stem, size_t terminal, const char *size);

/* After a figure's last terminal: its settings reset for the next one. */
void hb_figure_end(FILE *gp);

/* The same one-panel figure in every terminal: `setup` (title, axes), then `plot`. */
hb_status hb_figure_write(FILE *gp, hb_figure_files *drawn, const char *stem, const char *size, const char *setup,
                          const char *plot);

/* A figure with no data: its title (`title`, a gnuplot string expression)
 * and, where the plot would be, "No configuration to plot: REASON". */
hb_status hb_figure_empty(FILE *gp, hb_figure_files *drawn, const char *stem, const char *size, const char *title,
                          const char *reason);

/* The gnuplot variable `title_facts`: "GPU: ...; candidate: ...; n = N
 * configurations; HOW", the GPU names and what the figures call the
 * candidates (candidate_title.h) being a folder's text. */
void hb_figure_title_facts(FILE *gp, const hb_result_set *set, size_t configs, const char *how);

/* gnuplot SCRIPT in out's staging folder, then every figure it drew
 * checked whole (figure_files.h).  HB_ERR_IO if gnuplot fails (its last
 * message shown) or a figure is not whole. */
hb_status hb_figure_run(const hb_output_folder *out, const char *script, const hb_figure_files *drawn);

#endif
