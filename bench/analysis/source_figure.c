#include "bench/analysis/source_figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/figure_extent.h"
#include "bench/analysis/figure_script.h"
#include "bench/analysis/gnuplot_text.h"
#include "bench/core/diag.h"

/* The configurations of one size are spread over this much of the log2
 * axis either side of it, so that the grid's many sizes of one M*N*K
 * (64x64x4096 and 4096x64x64) are seen side by side, not on one line. */
#define SPREAD 0.3

/* The class colours: green both, red the host path, blue the kernel, grey neither, light grey no kernel time. */
static const char *const class_colours[HB_SOURCE_CLASS_COUNT] = {"#1a9850", "#d73027", "#4575b4", "#7f7f7f",
                                                                 "#b0b0b0"};

typedef struct point {
    double x, headline, kernel;
    hb_source_class class;
    const hb_config_key *key;
} point;

static int by_size(const void *a, const void *b)
{
    const point *p = a, *q = b;
    if (p->x != q->x)
        return (p->x > q->x) - (p->x < q->x);
    const hb_config_key *k = p->key, *l = q->key;
    return k->m != l->m ? (k->m > l->m) - (k->m < l->m)
                        : k->n != l->n ? (k->n > l->n) - (k->n < l->n) : (k->k > l->k) - (k->k < l->k);
}

/* The points of `s` over `column`, sorted by size, each size's spread side by side. */
static hb_status collect(const hb_result_set *set, const hb_source_select *s, size_t column, point **out, size_t *n)
{
    point *points = malloc((set->count ? set->count : 1) * sizeof *points);
    if (!points)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory drawing %zu configurations", set->count);
    *n = 0;
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        double h, k;
        if (!hb_source_ratios(e, s, column, &h, &k) || !(h > 0))
            continue;
        double x = log2((double)e->key.m) + log2((double)e->key.n) + log2((double)e->key.k);
        points[(*n)++] = (point){x, h, k, hb_source_class_of(h, k), &e->key};
    }
    qsort(points, *n, sizeof *points, by_size);
    for (size_t first = 0; first < *n;) {
        size_t last = first;
        while (last + 1 < *n && points[last + 1].x == points[first].x)
            last++;
        double size = points[first].x;
        for (size_t i = first; last > first && i <= last; i++)
            points[i].x = size - SPREAD + 2 * SPREAD * (double)(i - first) / (double)(last - first);
        first = last + 1;
    }
    *out = points;
    return HB_OK;
}

/* One block per class (gnuplot's `index`), "x headline kernel", each ended
 * by two blank lines; a class without points gets one NaN line so the
 * indices stay put (and is left out of the plot). */
static hb_status write_data(const hb_output_folder *out, const char *name, const point *points, size_t n)
{
    FILE *data = hb_output_open(out, name);
    if (!data)
        return HB_ERR_IO;
    for (int c = 0; c < HB_SOURCE_CLASS_COUNT; c++) {
        size_t written = 0;
        fprintf(data, "# %s: log2(MNK), spread; t_base/t_cand on the headline; on kernel time\n",
                hb_source_class_words((hb_source_class)c));
        for (size_t i = 0; i < n; i++)
            if (points[i].class == (hb_source_class)c) {
                fprintf(data, "%.6f %.6g %.6g\n", points[i].x, points[i].headline, points[i].kernel);
                written++;
            }
        fputs(written ? "\n\n" : "NaN NaN NaN\n\n\n", data);
    }
    return hb_output_close(data, name);
}

static hb_status write_caption(const hb_output_folder *out, const char *name, const char *caption)
{
    FILE *f = hb_output_open(out, name);
    if (!f)
        return HB_ERR_IO;
    fprintf(f, "%s\n", caption);
    return hb_output_close(f, name);
}

/* The ratio axis over every point's two speedups. */
static hb_status fit(const point *points, size_t n, hb_figure_extent *extent, double *x_low, double *x_high)
{
    double *ratios = malloc((2 * n + 1) * sizeof *ratios);
    if (!ratios)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory drawing %zu configurations", n);
    size_t m = 0;
    *x_low = INFINITY;
    *x_high = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        ratios[m++] = points[i].headline;
        if (points[i].kernel > 0)
            ratios[m++] = points[i].kernel;
        *x_low = fmin(*x_low, points[i].x);
        *x_high = fmax(*x_high, points[i].x);
    }
    hb_status status = hb_figure_extent_of(ratios, m, extent);
    free(ratios);
    return status;
}

/* The classes in the order they are drawn: the wins last, over the rest
 * (the key lists them in the enum's order, keyentry by keyentry). */
static const hb_source_class draw_order[HB_SOURCE_CLASS_COUNT] = {
    HB_SOURCE_NO_KERNEL, HB_SOURCE_NEITHER, HB_SOURCE_KERNEL_ONLY, HB_SOURCE_HEADLINE_ONLY, HB_SOURCE_BOTH};

/* The left panel's series: per class with points, the joining line, the
 * headline's filled circle and the kernel's open triangle; then the key:
 * each class with its count, and what the two marks are. */
static void size_series(FILE *gp, const char *data, const hb_speedup_source *counts)
{
    fputs("plot 1 with lines lt -1 lw 1 notitle", gp);
    for (int i = 0; i < HB_SOURCE_CLASS_COUNT; i++) {
        int c = (int)draw_order[i];
        if (!counts->by_class[c])
            continue;
        if (c != HB_SOURCE_NO_KERNEL)
            fprintf(gp, ", '%s' index %d using 1:2:(0):($3-$2) with vectors nohead lc rgb '%s' lw 1 dt 1 notitle", data, c,
                    class_colours[c]);
        fprintf(gp, ", '%s' index %d using 1:2 with points pt 7 ps 0.8 lw 1 lc rgb '%s' notitle", data, c,
                class_colours[c]);
        if (c != HB_SOURCE_NO_KERNEL)
            fprintf(gp, ", '%s' index %d using 1:3 with points pt 8 ps 0.8 lw 1 lc rgb '%s' notitle", data, c,
                    class_colours[c]);
    }
    for (int c = 0; c < HB_SOURCE_CLASS_COUNT; c++) {
        if (!counts->by_class[c])
            continue;
        char key[160];
        snprintf(key, sizeof key, "%s: %zu", hb_source_class_words((hb_source_class)c), counts->by_class[c]);
        fprintf(gp, ", keyentry with points pt 7 ps 0.8 lw 1 lc rgb '%s' title ", class_colours[c]);
        hb_gnuplot_string(gp, key);
    }
    fputs(", keyentry with points pt 7 ps 0.8 lw 1 lc rgb 'black' title 'filled circle: headline timer'"
          ", keyentry with points pt 8 ps 0.8 lw 1 lc rgb 'black' title 'open triangle: kernel time'\n",
          gp);
}

/* The right panel: headline against kernel speedup, y = x, r = 1 on both axes, the quadrants named. */
static void quadrant_panel(FILE *gp, const char *data, const hb_speedup_source *counts, const hb_figure_extent *e,
                           const char *tics)
{
    fprintf(gp,
            "set origin 0.6,0\nset size ratio -1 0.4,0.88\nunset key\nset logscale xy\nset xrange [%.6g:%.6g]\n"
            "set yrange [%.6g:%.6g]\nset xtics %s\nset ytics %s\n"
            "set xlabel 'kernel time: t_base / t_cand (log scale)'\nset ylabel 'headline: t_base / t_cand (log scale)'\n"
            "set title 'headline against kernel time'\n"
            "set arrow 1 from %.6g,1 to %.6g,1 nohead lt -1\nset arrow 2 from 1,%.6g to 1,%.6g nohead lt -1\n"
            "set label 1 'headline only: host path' at graph 0.02,0.96 left font ',9' tc rgb '%s'\n"
            "set label 2 'both' at graph 0.98,0.96 right font ',9' tc rgb '%s'\n"
            "set label 3 'kernel only' at graph 0.98,0.04 right font ',9' tc rgb '%s'\n"
            "set label 4 'neither' at graph 0.02,0.04 left font ',9' tc rgb '%s'\n",
            e->low, e->high, e->low, e->high, tics, tics, e->low, e->high, e->low, e->high,
            class_colours[HB_SOURCE_HEADLINE_ONLY], class_colours[HB_SOURCE_BOTH], class_colours[HB_SOURCE_KERNEL_ONLY],
            class_colours[HB_SOURCE_NEITHER]);
    fputs("plot x with lines dt 3 lc rgb '#555555' notitle", gp);
    for (int i = 0; i < HB_SOURCE_CLASS_COUNT; i++) {
        int c = (int)draw_order[i];
        if (counts->by_class[c] && c != HB_SOURCE_NO_KERNEL)
            fprintf(gp, ", '%s' index %d using 3:2 with points pt 7 ps 0.7 lw 1 lc rgb '%s' notitle", data, c,
                    class_colours[c]);
    }
    fputc('\n', gp);
}

static hb_status write_plot(FILE *gp, hb_figure_files *drawn, const char *stem, const char *data, const char *title,
                            const hb_speedup_source *counts, const point *points, size_t n)
{
    hb_figure_extent e;
    double x_low = 0, x_high = 0;
    char tics[300];
    HB_TRY(fit(points, n, &e, &x_low, &x_high));
    hb_figure_log_tics(e.low, e.high, tics, sizeof tics);
    for (size_t t = 0; t < hb_figure_terminal_count(); t++) {
        HB_TRY(hb_figure_begin(gp, drawn, stem, t, HB_WIDE_FIGURE_SIZE));
        fprintf(gp,
                "set multiplot title %s\nset origin 0,0\nset size 0.6,0.88\n"
                "set key outside bottom center horizontal Left reverse maxrows 2 font ',10' samplen 1\n"
                "set title 'over problem size'\nset xlabel 'log2(M*N*K) (configurations of one size side by side)'\n"
                "set ylabel 't_base / t_cand (log scale)'\nset logscale y\nset yrange [%.6g:%.6g]\nset ytics %s\n"
                "set xrange [%.6g:%.6g]\n",
                title, e.low, e.high, tics, x_low - 0.5, x_high + 0.5);
        size_series(gp, data, counts);
        fputs("unset logscale\nunset arrow\nunset label\n", gp);
        quadrant_panel(gp, data, counts, &e, tics);
        fputs("unset multiplot\n", gp);
    }
    hb_figure_end(gp);
    return HB_OK;
}

hb_status hb_draw_source_figure(FILE *gp, hb_figure_files *drawn, const hb_output_folder *out,
                                const hb_result_set *set, const hb_source_select *s, const char *prefix,
                                const char *empty_reason)
{
    const char *m = hb_mode_name(s->mode);
    char stem[80], data[96], caption_file[96], caption[600], title[300];
    snprintf(stem, sizeof stem, "%s_speedup_source_%s", prefix, m);
    snprintf(data, sizeof data, "%s_source_%s.dat", prefix, m);
    snprintf(caption_file, sizeof caption_file, "%s.txt", stem);
    size_t column = hb_source_column(set, s);
    hb_speedup_source counts;
    hb_source_count(set, s, column, &counts);
    point *points = NULL;
    size_t n = 0;
    HB_TRY(collect(set, s, column, &points, &n));
    hb_status status = write_data(out, data, points, n);
    if (counts.configs)
        hb_source_caption(&counts, s, caption, sizeof caption);
    else
        snprintf(caption, sizeof caption, "No configuration to plot: %s", empty_reason);
    if (status == HB_OK)
        status = write_caption(out, caption_file, caption);
    if (status == HB_OK) {
        fputs("source_caption = ", gp);
        hb_gnuplot_string(gp, caption);
        fputc('\n', gp);
        hb_figure_title_facts(gp, set, counts.configs,
                              "the paper's estimator on the headline; kernel time: the ratio of the kernel medians");
        /* without a point the caption is the empty figure's own label: the title leaves it out */
        snprintf(title, sizeof title,
                 "\"Where the speedup comes from: the headline timer against the kernels' own GPU time, %s mode\\n\" . "
                 "%stitle_facts",
                 m, counts.configs ? "source_caption . \"\\n\" . " : "");
        status = counts.configs ? write_plot(gp, drawn, stem, data, title, &counts, points, n)
                                : hb_figure_empty(gp, drawn, stem, HB_WIDE_FIGURE_SIZE, title, empty_reason);
    }
    free(points);
    return status;
}
