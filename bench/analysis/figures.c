#define _POSIX_C_SOURCE 200809L
#include "bench/analysis/figures.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/analysis/figure_extent.h"
#include "bench/analysis/figure_files.h"
#include "bench/analysis/gnuplot_text.h"
#include "bench/analysis/paper_tables.h"
#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/core/process.h"

static const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
#define MODE_COUNT (sizeof modes / sizeof modes[0])

/* The terminals every figure is drawn in: the file's extension, the driver and its set-up after the size. */
static const struct {
    const char *extension, *driver, *options;
} terminals[] = {
    {"png", "pngcairo", "noenhanced font ',11'"},
    {"svg", "svg", "noenhanced font ',11' background '#ffffff'"},
};
/* Pixels: one panel, and the report's two side by side. */
#define FIGURE_SIZE "1200,700"
#define WIDE_FIGURE_SIZE "1800,750"
#define TERMINAL_COUNT (sizeof terminals / sizeof terminals[0])

int hb_gnuplot_available(void)
{
    char path[4200];
    return hb_process_find_program("gnuplot", path, sizeof path); /* where run_gnuplot will look */
}

/* --- the script's preamble: the columns and their styles ------------------------------------- */

/* Every string of the script that is not a constant here (a folder's GPU
 * and candidate names; the registry's column names) is written by
 * hb_gnuplot_string (bench/analysis/gnuplot_text.h): the commands are ours
 * alone, and a folder's text is never read as one. */
static void write_styles(FILE *gp)
{
    char names[1024] = "";
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", c ? " " : "",
                 hb_speedup_column_at(c)->name);
    fputs("# Drawn by hgemm-bench (docs/reports.md, \"Figures\"): run `gnuplot FILE.gp` in this folder to\n"
          "# redraw.  The styles are the baseline registry's (hgemm-bench baselines).\n"
          "set datafile separator whitespace\nset grid\nset key outside right top\nnames = ",
          gp);
    hb_gnuplot_string(gp, names);
    fputc('\n', gp);
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        fprintf(gp, "set linetype %zu %s\n", c + 1, hb_speedup_column_at(c)->plot_style); /* reset keeps linetypes */
}

/* The same figure in every terminal, each file recorded in `drawn`:
 * `setup` (title, axes), then `plot`. */
static hb_status write_figure(FILE *gp, hb_figure_files *drawn, const char *stem, const char *setup,
                              const char *plot)
{
    for (size_t t = 0; t < TERMINAL_COUNT; t++) {
        fprintf(gp, "set terminal %s size " FIGURE_SIZE " %s\n", terminals[t].driver, terminals[t].options);
        HB_TRY(hb_figure_output(gp, drawn, stem, terminals[t].extension));
        fprintf(gp, "%s\n%s\n", setup, plot);
    }
    fputs("reset\nset grid\nset key outside right top\n", gp);
    return HB_OK;
}

/* --- running gnuplot ------------------------------------------------------------------------------ */

/* The last lines gnuplot wrote, for the error message. */
static void log_tail(const char *log, char *out, size_t size)
{
    FILE *f = fopen(log, "r");
    out[0] = '\0';
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(out, size, "%s", line);
    }
    fclose(f);
}

/* gnuplot SCRIPT in the staging folder, its messages into a log there
 * (removed when it succeeds: only the figures are published).  Found in
 * $PATH and run with an argument vector, never through a shell. */
static hb_status run_gnuplot(const hb_output_folder *out, const char *script)
{
    char log[HB_OUTPUT_PATH_SIZE + 64];
    HB_TRY(hb_output_path(out, "gnuplot.log", log, sizeof log));
    int log_fd;
    HB_TRY(hb_open_output(log, 0, &log_fd));
    char *argv[] = {"gnuplot", (char *)script, NULL};
    hb_process gnuplot = HB_PROCESS_INIT;
    gnuplot.argv = argv;
    gnuplot.search_path = 1;
    gnuplot.cwd = out->stage;
    gnuplot.in = HB_FD_NULL;
    gnuplot.out = gnuplot.err = log_fd;
    /* signals as the harness has them: a SIGXFSZ it ignores (a file-size limit) then makes gnuplot's write fail
     * with EFBIG, which the figure check reports as a full disk, instead of killing gnuplot */
    gnuplot.default_signals = 0;
    hb_process_end end;
    hb_status ran = hb_process_run(&gnuplot, 0, NULL, &end);
    close(log_fd);
    if (ran != HB_OK)
        return HB_ERR_IO; /* the reason is above: gnuplot missing from PATH, or it could not be started */
    char tail[512], how[96];
    log_tail(log, tail, sizeof tail);
    hb_process_end_text(&end, how, sizeof how);
    if (!end.exited || end.code != 0)
        return hb_fail(HB_ERR_IO, "gnuplot failed on %s (%s)%s%s", script, how, tail[0] ? ": " : "", tail);
    if (unlink(log) != 0)
        return hb_fail(HB_ERR_IO, "cannot remove %s: %s", log, strerror(errno));
    return HB_OK;
}

/* --- the report's figures ----------------------------------------------------------------------- */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* What a mode's figures are fitted to and say in their titles. */
typedef struct mode_figure {
    hb_mode mode;
    size_t configs;            /* configurations that count, with a figure */
    hb_figure_extent extent;   /* the ratio axis and the outlier fences */
    double size_low, size_high; /* the log2(M*N*K) axis */
} mode_figure;

/* An outlier to be labelled: where it is drawn, and how far beyond its fence (in logs). */
typedef struct outlier {
    double x, r, beyond;
    size_t column;
    const hb_config_entry *entry;
} outlier;

static double size_of(const hb_config_entry *e)
{
    return log2((double)e->key.m) + log2((double)e->key.n) + log2((double)e->key.k);
}

/* The figure's ratio of entry `e` in column `c`, NaN where it is not drawn. */
static double drawn_ratio(const hb_config_entry *e, hb_timer timer, hb_mode mode, size_t c)
{
    double r = hb_config_ratio(e, timer, HB_EST_PAPER, c);
    return e->key.mode == mode && hb_config_counts(e) && r > 0 ? r : NAN;
}

/* The extent of every drawn point of the mode, and the size axis. */
static hb_status fit_mode(const hb_result_set *set, hb_timer timer, mode_figure *f)
{
    size_t cap = set->count * hb_speedup_column_count() + 1, n = 0;
    double *ratios = malloc(cap * sizeof *ratios);
    if (!ratios)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory drawing %zu configurations", set->count);
    f->configs = 0;
    f->size_low = INFINITY;
    f->size_high = -INFINITY;
    for (size_t i = 0; i < set->count; i++) {
        size_t before = n;
        for (size_t c = 0; c < hb_speedup_column_count(); c++) {
            double r = drawn_ratio(&set->entries[i], timer, f->mode, c);
            if (r > 0)
                ratios[n++] = r;
        }
        if (n > before) {
            double x = size_of(&set->entries[i]);
            f->configs++;
            f->size_low = x < f->size_low ? x : f->size_low;
            f->size_high = x > f->size_high ? x : f->size_high;
        }
    }
    hb_status status = hb_figure_extent_of(ratios, n, &f->extent);
    free(ratios);
    return status;
}

static int farther(const void *a, const void *b)
{
    double x = ((const outlier *)a)->beyond, y = ((const outlier *)b)->beyond;
    return (x < y) - (x > y);
}

/* The labels of one panel (the baselines, or the -max figures: is_max):
 * its HB_FIGURE_MAX_LABELS outliers farthest beyond their fence,
 * "x r M_N_K column".  No line at all where there is none: gnuplot 5.4
 * crashes on labels whose every point is undefined, and only warns on a
 * file without points. */
static hb_status write_labels(const hb_result_set *set, hb_timer timer, const mode_figure *f, int is_max,
                              FILE *labels)
{
    size_t n = 0, cap = set->count * hb_speedup_column_count() + 1;
    outlier *found = malloc(cap * sizeof *found);
    if (!found)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory drawing %zu configurations", set->count);
    for (size_t i = 0; i < set->count; i++)
        for (size_t c = 0; c < hb_speedup_column_count(); c++) {
            double r = drawn_ratio(&set->entries[i], timer, f->mode, c);
            if (!(r > 0) || !hb_figure_outlier(&f->extent, r) || hb_speedup_column_at(c)->is_max != is_max)
                continue;
            double beyond = r > f->extent.fence_high ? log(r / f->extent.fence_high) : log(f->extent.fence_low / r);
            found[n++] = (outlier){size_of(&set->entries[i]), r, beyond, c, &set->entries[i]};
        }
    qsort(found, n, sizeof *found, farther);
    fprintf(labels, "# log2(MNK) t_base/t_cand M_N_K column: the outliers of the %s labelled (Tukey's fences on log r, "
                    "at most %d)\n", is_max ? "-max figures" : "baselines", HB_FIGURE_MAX_LABELS);
    for (size_t i = 0; i < n && i < HB_FIGURE_MAX_LABELS; i++) {
        char mnk[64];
        hb_config_key_mnk(&found[i].entry->key, mnk, sizeof mnk);
        fprintf(labels, "%.6f %.6g %s %zu\n", found[i].x, found[i].r, mnk, found[i].column + 1);
    }
    free(found);
    return HB_OK;
}

/* One data block per column (gnuplot's `index`), each ended by two blank
 * lines; a column without data gets one NaN line, so the indices stay put. */
static hb_status write_mode_data(const hb_result_set *set, hb_timer timer, hb_mode mode, FILE *size, FILE *ecdf)
{
    double *values = malloc((set->count ? set->count : 1) * sizeof *values);
    if (!values)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory drawing %zu configurations", set->count);
    for (size_t c = 0; c < hb_speedup_column_count(); c++) {
        size_t n = 0;
        fprintf(size, "# %s\n", hb_speedup_column_at(c)->name);
        fprintf(ecdf, "# %s\n", hb_speedup_column_at(c)->name);
        for (size_t i = 0; i < set->count; i++) {
            double r = drawn_ratio(&set->entries[i], timer, mode, c);
            if (!(r > 0))
                continue;
            fprintf(size, "%.6f %.6g\n", size_of(&set->entries[i]), r);
            values[n++] = r;
        }
        qsort(values, n, sizeof *values, by_value);
        for (size_t i = 0; i < n; i++) /* the step to (i+1)/n at each value */
            fprintf(ecdf, "%.6g %.6g\n", values[i], (double)(i + 1) / (double)n);
        if (n == 0) {
            fputs("NaN NaN\n", size);
            fputs("NaN NaN\n", ecdf);
        }
        fputs("\n\n", size);
        fputs("\n\n", ecdf);
    }
    free(values);
    return HB_OK;
}

/* Opens the staged data file `PREFIX_MODE.dat`. */
static FILE *open_data(const hb_output_folder *out, const char *prefix, hb_mode mode, char *name, size_t size)
{
    snprintf(name, size, "%s_%s.dat", prefix, hb_mode_name(mode));
    return hb_output_open(out, name);
}

static hb_status write_data_files(const hb_result_set *set, hb_timer timer, const mode_figure *f,
                                  const hb_output_folder *out)
{
    char size_name[64], ecdf_name[64], label_name[64], max_label_name[64];
    FILE *size = open_data(out, "report_size", f->mode, size_name, sizeof size_name);
    FILE *ecdf = size ? open_data(out, "report_ecdf", f->mode, ecdf_name, sizeof ecdf_name) : NULL;
    FILE *labels = ecdf ? open_data(out, "report_labels", f->mode, label_name, sizeof label_name) : NULL;
    FILE *max_labels = labels ? open_data(out, "report_labels_max", f->mode, max_label_name, sizeof max_label_name)
                              : NULL;
    hb_status status = max_labels ? write_mode_data(set, timer, f->mode, size, ecdf) : HB_ERR_IO;
    if (status == HB_OK)
        status = write_labels(set, timer, f, 0, labels);
    if (status == HB_OK)
        status = write_labels(set, timer, f, 1, max_labels);
    hb_status closed = HB_OK;
    if (size && hb_output_close(size, size_name) != HB_OK)
        closed = HB_ERR_IO;
    if (ecdf && hb_output_close(ecdf, ecdf_name) != HB_OK)
        closed = HB_ERR_IO;
    if (labels && hb_output_close(labels, label_name) != HB_OK)
        closed = HB_ERR_IO;
    if (max_labels && hb_output_close(max_labels, max_label_name) != HB_OK)
        closed = HB_ERR_IO;
    return status != HB_OK ? status : closed;
}

/* The second line of every report figure's title, as the gnuplot variable
 * `title_facts`: GPU, candidate, n, estimator and timer.  The GPU and
 * candidate names are the folders' text, so the line goes in through
 * hb_gnuplot_string, and the titles join it to ours as a variable. */
static void write_title_facts(FILE *gp, const hb_result_set *set, const mode_figure *f, hb_timer timer)
{
    char gpus[512] = "", candidates[512] = "", text[1200];
    for (size_t i = 0; i < set->n_gpus; i++)
        snprintf(gpus + strlen(gpus), sizeof gpus - strlen(gpus), "%s%s", i ? "; " : "", set->gpus[i]);
    for (size_t i = 0; i < set->n_candidates; i++) {
        const char *slash = strrchr(set->candidates[i], '/');
        const char *name = slash && slash[1] ? slash + 1 : set->candidates[i];
        snprintf(candidates + strlen(candidates), sizeof candidates - strlen(candidates), "%s%s", i ? "; " : "",
                 name);
    }
    snprintf(text, sizeof text, "GPU: %s; candidate: %s; n = %zu configurations; paper estimator, %s",
             gpus[0] ? gpus : "not recorded", candidates[0] ? candidates : "not recorded", f->configs,
             hb_timer_words(timer));
    fputs("title_facts = ", gp);
    hb_gnuplot_string(gp, text);
    fputc('\n', gp);
}

/* "1 2 3 5": the 1-based indices of the columns that are (is_max 1) or are not -max figures. */
static void column_list(int is_max, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        if (hb_speedup_column_at(c)->is_max == is_max)
            snprintf(out + strlen(out), size - strlen(out), "%s%zu", out[0] ? " " : "", c + 1);
}

/* Two panels, the baselines and the -max figures, so the thick -max series
 * (in their NN row's colour) are not drawn over the others; each file
 * recorded in `drawn`.  `title` is a gnuplot string expression. */
static hb_status two_panels(FILE *gp, hb_figure_files *drawn, const char *stem, const char *title, const char *axes,
                            const char *series, const char *extra)
{
    char base[128], maxes[128];
    column_list(0, base, sizeof base);
    column_list(1, maxes, sizeof maxes);
    for (size_t t = 0; t < TERMINAL_COUNT; t++) {
        fprintf(gp, "set terminal %s size " WIDE_FIGURE_SIZE " %s\n", terminals[t].driver, terminals[t].options);
        HB_TRY(hb_figure_output(gp, drawn, stem, terminals[t].extension));
        fprintf(gp, "%s\nset multiplot layout 1,2 title %s\n", axes, title);
        fprintf(gp, "base = \"%s\"\npanel_max = 0\nset title 'each baseline'\n"
                    "plot for [j=1:words(base)] %s%s%s\n",
                base, series, extra[0] ? ", " : "", extra);
        fprintf(gp, "maxes = \"%s\"\nset title '-max: over the faster of NN and TN per configuration'\n", maxes);
        /* the same series over the -max columns: `base` names the list the series loop reads */
        fprintf(gp, "base = maxes\npanel_max = 1\nplot for [j=1:words(base)] %s%s%s\nunset multiplot\n", series,
                extra[0] ? ", " : "", extra);
    }
    fputs("reset\nset grid\nset key outside right top\n", gp);
    return HB_OK;
}

static hb_status write_report_plots(FILE *gp, hb_figure_files *drawn, const hb_result_set *set, const mode_figure *f,
                                    hb_timer timer)
{
    const char *m = hb_mode_name(f->mode);
    char stem[64], title[200], axes[800], series[400], extra[400], tics[300];
    write_title_facts(gp, set, f, timer);
    hb_figure_log_tics(f->extent.low, f->extent.high, tics, sizeof tics);
    snprintf(stem, sizeof stem, "report_speedup_vs_size_%s", m);
    snprintf(title, sizeof title, "\"Speedup over each baseline by problem size, %s mode\\n\" . title_facts", m);
    snprintf(axes, sizeof axes,
             "set xlabel 'log2(M*N*K)'\nset ylabel 't_base / t_cand (log scale)'\nset logscale y\n"
             "set yrange [%.6g:%.6g]\nset ytics %s\nset xrange [%.6g:%.6g]",
             f->extent.low, f->extent.high, tics, f->size_low - 0.5, f->size_high + 0.5);
    snprintf(series, sizeof series,
             "'report_size_%s.dat' index (int(word(base,j))-1) using 1:2 with points lt int(word(base,j)) ps 0.6 "
             "title word(names, int(word(base,j)))",
             m);
    snprintf(extra, sizeof extra,
             "1 with lines lt -1 lw 1 notitle, (panel_max ? 'report_labels_max_%s.dat' : 'report_labels_%s.dat') "
             "using 1:2:3 with labels left offset char 0.6,0.4 font ',8' notitle",
             m, m);
    HB_TRY(two_panels(gp, drawn, stem, title, axes, series, extra));
    snprintf(stem, sizeof stem, "report_ecdf_%s", m);
    snprintf(title, sizeof title, "\"ECDF of the per-configuration speedups, %s mode\\n\" . title_facts", m);
    snprintf(axes, sizeof axes,
             "set xlabel 't_base / t_cand (log scale)'\nset ylabel 'share of configurations <= x'\nset logscale x\n"
             "set xrange [%.6g:%.6g]\nset xtics %s\nset yrange [0:1]\nset arrow from 1, graph 0 to 1, graph 1 "
             "nohead lt -1",
             f->extent.low, f->extent.high, tics);
    snprintf(series, sizeof series,
             "'report_ecdf_%s.dat' index (int(word(base,j))-1) using 1:2 with steps lt int(word(base,j)) "
             "title word(names, int(word(base,j)))",
             m);
    return two_panels(gp, drawn, stem, title, axes, series, "");
}

hb_status hb_draw_report_figures(const hb_result_set *set, hb_timer timer, const hb_output_folder *out)
{
    static const char script[] = "report_figures.gp";
    FILE *gp = hb_output_open(out, script);
    if (!gp)
        return HB_ERR_IO;
    write_styles(gp);
    hb_figure_files drawn = {.count = 0};
    hb_status status = HB_OK;
    for (size_t m = 0; m < MODE_COUNT && status == HB_OK; m++) {
        mode_figure f = {.mode = modes[m]};
        status = fit_mode(set, timer, &f);
        if (status != HB_OK || f.configs == 0)
            continue;
        status = write_data_files(set, timer, &f, out);
        if (status == HB_OK)
            status = write_report_plots(gp, &drawn, set, &f, timer);
    }
    hb_status closed = hb_output_close(gp, script);
    HB_TRY(status);
    HB_TRY(closed);
    HB_TRY(run_gnuplot(out, script));
    return hb_figure_files_check(&drawn, out);
}

/* --- compare's figure ---------------------------------------------------------------------------- */

static hb_status write_compare_data(const hb_compare_input *in, FILE *data)
{
    for (size_t c = 0; c < hb_speedup_column_count(); c++) {
        size_t n = 0;
        fprintf(data, "# %s: published ours\n", hb_speedup_column_at(c)->name);
        for (size_t i = 0; i < in->ours->count; i++) {
            const hb_config_entry *e = &in->ours->entries[i];
            if (e->key.mode != in->mode || !hb_config_counts(e))
                continue;
            const hb_published_row *r = hb_published_find(in->theirs, e->key.m, e->key.n, e->key.k);
            double o = hb_config_ratio(e, in->timer, HB_EST_PAPER, c);
            if (r && o > 0 && r->ratio[c] > 0) {
                fprintf(data, "%.6g %.6g\n", r->ratio[c], o);
                n++;
            }
        }
        fputs(n ? "\n\n" : "NaN NaN\n\n\n", data);
    }
    return ferror(data) ? hb_fail(HB_ERR_IO, "writing compare's figure data failed") : HB_OK;
}

hb_status hb_draw_compare_figures(const hb_compare_input *in, const hb_output_folder *out)
{
    static const char script[] = "compare_figures.gp";
    const char *m = hb_mode_name(in->mode);
    char data_name[64], stem[64], setup[512], plot[512];
    snprintf(data_name, sizeof data_name, "compare_%s.dat", m);
    FILE *data = hb_output_open(out, data_name);
    if (!data)
        return HB_ERR_IO;
    hb_status status = write_compare_data(in, data);
    hb_status closed = hb_output_close(data, data_name);
    HB_TRY(status);
    HB_TRY(closed);
    FILE *gp = hb_output_open(out, script);
    if (!gp)
        return HB_ERR_IO;
    write_styles(gp);
    hb_figure_files drawn = {.count = 0};
    snprintf(stem, sizeof stem, "compare_%s", m);
    snprintf(setup, sizeof setup,
             "set title 'Ours against published, per configuration, %s mode (t_base / t_cand)'\n"
             "set xlabel 'published (log scale)'\nset ylabel 'ours (log scale)'\nset logscale xy\nset size ratio -1",
             m);
    snprintf(plot, sizeof plot,
             "plot for [i=1:words(names)] '%s' index (i-1) using 1:2 with points lt i ps 0.6 title word(names, i), "
             "x with lines lt -1 lw 1 title 'y = x'",
             data_name);
    status = write_figure(gp, &drawn, stem, setup, plot);
    closed = hb_output_close(gp, script);
    HB_TRY(status);
    HB_TRY(closed);
    HB_TRY(run_gnuplot(out, script));
    return hb_figure_files_check(&drawn, out);
}
