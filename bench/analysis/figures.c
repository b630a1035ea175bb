#define _POSIX_C_SOURCE 200809L
#include "bench/analysis/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/figure_extent.h"
#include "bench/analysis/figure_files.h"
#include "bench/analysis/figure_script.h"
#include "bench/analysis/paper_tables.h"
#include "bench/analysis/source_figure.h"
#include "bench/core/diag.h"
#include "bench/core/process.h"

static const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
#define MODE_COUNT (sizeof modes / sizeof modes[0])

int hb_gnuplot_available(void)
{
    char path[4200];
    return hb_process_find_program("gnuplot", path, sizeof path); /* where hb_figure_run will look */
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
    for (size_t t = 0; t < hb_figure_terminal_count(); t++) {
        HB_TRY(hb_figure_begin(gp, drawn, stem, t, HB_WIDE_FIGURE_SIZE));
        fprintf(gp, "%s\nset multiplot layout 1,2 title %s\n", axes, title);
        fprintf(gp, "base = \"%s\"\npanel_max = 0\nset title 'each baseline'\n"
                    "plot for [j=1:words(base)] %s%s%s\n",
                base, series, extra[0] ? ", " : "", extra);
        fprintf(gp, "maxes = \"%s\"\nset title '-max: over the faster of NN and TN per configuration'\n", maxes);
        /* the same series over the -max columns: `base` names the list the series loop reads */
        fprintf(gp, "base = maxes\npanel_max = 1\nplot for [j=1:words(base)] %s%s%s\nunset multiplot\n", series,
                extra[0] ? ", " : "", extra);
    }
    hb_figure_end(gp);
    return HB_OK;
}

static hb_status write_report_plots(FILE *gp, hb_figure_files *drawn, const hb_result_set *set, const mode_figure *f,
                                    hb_timer timer)
{
    const char *m = hb_mode_name(f->mode);
    char stem[64], title[200], axes[800], series[400], extra[400], tics[300], how[200];
    snprintf(how, sizeof how, "paper estimator, %s", hb_timer_words(timer));
    hb_figure_title_facts(gp, set, f->configs, how);
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

/* Why a mode has no configuration to plot, for its empty figures. */
static void empty_reason(const hb_result_set *set, hb_mode mode, char *out, size_t size)
{
    size_t of_mode = 0, counting = 0;
    for (size_t i = 0; i < set->count; i++)
        if (set->entries[i].key.mode == mode) {
            of_mode++;
            counting += hb_config_counts(&set->entries[i]);
        }
    if (of_mode == 0)
        snprintf(out, size, "the folders hold no configuration of the %s mode that ran", hb_mode_name(mode));
    else if (counting == 0)
        snprintf(out, size, "none of the %zu configurations of the %s mode passed its checks (excluded.csv says why)",
                 of_mode, hb_mode_name(mode));
    else
        snprintf(out, size, "none of the %zu passing configurations of the %s mode has a speedup figure", counting,
                 hb_mode_name(mode));
}

/* The modes a report draws: each that a configuration of the folders has,
 * run or only planned; the offline mode when none has any (its figures
 * then say there is nothing to plot). */
static int mode_drawn(const hb_result_set *set, hb_mode mode)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->entries[i].key.mode == mode)
            return 1;
    for (size_t i = 0; i < set->n_missing; i++)
        if (set->missing[i].key.mode == mode)
            return 1;
    return mode == HB_MODE_OFFLINE && set->count == 0 && set->n_missing == 0;
}

/* A mode's report figures when no configuration has a point: each says so. */
static hb_status write_empty_report_plots(FILE *gp, hb_figure_files *drawn, const hb_result_set *set, hb_mode mode,
                                          hb_timer timer, const char *reason)
{
    const char *m = hb_mode_name(mode);
    char stem[64], title[200], how[200];
    snprintf(how, sizeof how, "paper estimator, %s", hb_timer_words(timer));
    hb_figure_title_facts(gp, set, 0, how);
    snprintf(stem, sizeof stem, "report_speedup_vs_size_%s", m);
    snprintf(title, sizeof title, "\"Speedup over each baseline by problem size, %s mode\\n\" . title_facts", m);
    HB_TRY(hb_figure_empty(gp, drawn, stem, HB_WIDE_FIGURE_SIZE, title, reason));
    snprintf(stem, sizeof stem, "report_ecdf_%s", m);
    snprintf(title, sizeof title, "\"ECDF of the per-configuration speedups, %s mode\\n\" . title_facts", m);
    return hb_figure_empty(gp, drawn, stem, HB_WIDE_FIGURE_SIZE, title, reason);
}

/* One mode's three figures: speedup by size, ECDF, where the speedup comes from. */
static hb_status write_mode_figures(FILE *gp, hb_figure_files *drawn, const hb_result_set *set, hb_mode mode,
                                    hb_timer timer, const hb_output_folder *out)
{
    char reason[300];
    empty_reason(set, mode, reason, sizeof reason);
    mode_figure f = {.mode = mode};
    HB_TRY(fit_mode(set, timer, &f));
    if (f.configs) {
        HB_TRY(write_data_files(set, timer, &f, out));
        HB_TRY(write_report_plots(gp, drawn, set, &f, timer));
    } else {
        HB_TRY(write_empty_report_plots(gp, drawn, set, mode, timer, reason));
    }
    hb_source_select s = {.mode = mode, .timer = hb_source_timer(timer), .which = "passing configurations"};
    return hb_draw_source_figure(gp, drawn, out, set, &s, "report", reason);
}

hb_status hb_draw_report_figures(const hb_result_set *set, hb_timer timer, const hb_output_folder *out)
{
    static const char script[] = "report_figures.gp";
    FILE *gp = hb_output_open(out, script);
    if (!gp)
        return HB_ERR_IO;
    hb_figure_styles(gp);
    hb_figure_files drawn = {.count = 0};
    hb_status status = HB_OK;
    for (size_t m = 0; m < MODE_COUNT && status == HB_OK; m++)
        if (mode_drawn(set, modes[m]))
            status = write_mode_figures(gp, &drawn, set, modes[m], timer, out);
    hb_status closed = hb_output_close(gp, script);
    HB_TRY(status);
    HB_TRY(closed);
    return hb_figure_run(out, script, &drawn);
}

/* --- compare's figure ---------------------------------------------------------------------------- */

/* compare's scatter: square, the key below it. */
#define COMPARE_FIGURE_SIZE "1200,1000"

/* The points of compare's scatter: per column, (published, ours) of each
 * configuration both sides have a figure for; every value into `values`
 * (room for two per configuration and column) for the axes, and the
 * configurations with a point into *configs. */
static hb_status write_compare_data(const hb_compare_input *in, FILE *data, double *values, size_t *n_values,
                                    size_t *configs)
{
    *n_values = *configs = 0;
    unsigned char *drawn = calloc(in->ours->count + 1, 1);
    if (!drawn)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory drawing %zu configurations", in->ours->count);
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
                values[(*n_values)++] = r->ratio[c];
                values[(*n_values)++] = o;
                *configs += !drawn[i];
                drawn[i] = 1;
                n++;
            }
        }
        fputs(n ? "\n\n" : "NaN NaN\n\n\n", data);
    }
    free(drawn);
    return ferror(data) ? hb_fail(HB_ERR_IO, "writing compare's figure data failed") : HB_OK;
}

/* compare_MODE.dat, and the extent of its values. */
static hb_status compare_data(const hb_compare_input *in, const hb_output_folder *out, const char *name,
                              hb_figure_extent *extent, size_t *configs)
{
    size_t room = 2 * (in->ours->count + 1) * hb_speedup_column_count(), n = 0;
    double *values = malloc(room * sizeof *values);
    if (!values)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory drawing %zu configurations", in->ours->count);
    FILE *data = hb_output_open(out, name);
    hb_status status = data ? write_compare_data(in, data, values, &n, configs) : HB_ERR_IO;
    if (data && hb_output_close(data, name) != HB_OK && status == HB_OK)
        status = HB_ERR_IO;
    if (status == HB_OK)
        status = hb_figure_extent_of(values, n, extent);
    free(values);
    return status;
}

/* Ours against published, on axes fitted to the points (both the same,
 * holding 1: the line y = x is the diagonal), the key below. */
static hb_status write_compare_scatter(FILE *gp, hb_figure_files *drawn, const hb_compare_input *in,
                                       const char *data_name, const hb_figure_extent *e, size_t configs)
{
    const char *m = hb_mode_name(in->mode);
    char stem[64], title[200], setup[2400], plot[512], tics[300], how[200];
    snprintf(how, sizeof how, "ours: %s", hb_estimator_column(HB_EST_PAPER, in->timer));
    hb_figure_title_facts(gp, in->ours, configs, how);
    snprintf(stem, sizeof stem, "compare_%s", m);
    snprintf(title, sizeof title,
             "\"Ours against published, per configuration, %s mode (t_base / t_cand)\\n\" . title_facts", m);
    if (configs == 0)
        return hb_figure_empty(gp, drawn, stem, COMPARE_FIGURE_SIZE, title,
                               "no passing configuration of ours is in the published file");
    hb_figure_log_tics(e->low, e->high, tics, sizeof tics);
    snprintf(setup, sizeof setup,
             "set title %s\nset xlabel 'published (log scale)'\nset ylabel 'ours (log scale)'\nset logscale xy\n"
             "set xrange [%.6g:%.6g]\nset yrange [%.6g:%.6g]\nset xtics %s\nset ytics %s\nset size ratio -1\n"
             "set key outside bottom center horizontal Left reverse maxrows 3 font ',9' samplen 2\n"
             "set arrow 1 from %.6g,1 to %.6g,1 nohead dt 3 lc rgb '#555555'\n"
             "set arrow 2 from 1,%.6g to 1,%.6g nohead dt 3 lc rgb '#555555'",
             title, e->low, e->high, e->low, e->high, tics, tics, e->low, e->high, e->low, e->high);
    snprintf(plot, sizeof plot,
             "plot for [i=1:words(names)] '%s' index (i-1) using 1:2 with points lt i ps 0.6 title word(names, i), "
             "x with lines lt -1 lw 1 title 'y = x'",
             data_name);
    return hb_figure_write(gp, drawn, stem, COMPARE_FIGURE_SIZE, setup, plot);
}

/* compare's source figure takes the configurations of the published file. */
static int published_has(const hb_config_entry *e, void *context)
{
    const hb_compare_input *in = context;
    return hb_published_find(in->theirs, e->key.m, e->key.n, e->key.k) != NULL;
}

hb_status hb_draw_compare_figures(const hb_compare_input *in, const hb_output_folder *out)
{
    static const char script[] = "compare_figures.gp";
    char data_name[64];
    snprintf(data_name, sizeof data_name, "compare_%s.dat", hb_mode_name(in->mode));
    hb_figure_extent extent;
    size_t configs = 0;
    HB_TRY(compare_data(in, out, data_name, &extent, &configs));
    FILE *gp = hb_output_open(out, script);
    if (!gp)
        return HB_ERR_IO;
    hb_figure_styles(gp);
    hb_figure_files drawn = {.count = 0};
    hb_status status = write_compare_scatter(gp, &drawn, in, data_name, &extent, configs);
    hb_source_select s = {.mode = in->mode,
                          .timer = hb_source_timer(in->timer),
                          .filter = published_has,
                          .context = (void *)in,
                          .which = "passing configurations in the published file"};
    if (status == HB_OK)
        status = hb_draw_source_figure(gp, &drawn, out, in->ours, &s, "compare",
                                       "no passing configuration of ours is in the published file");
    hb_status closed = hb_output_close(gp, script);
    HB_TRY(status);
    HB_TRY(closed);
    return hb_figure_run(out, script, &drawn);
}
