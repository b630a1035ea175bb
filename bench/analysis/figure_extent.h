/* What the report's figures fit to their data (docs/reports.md, "Figures"):
 * the range of t_base / t_cand a mode's points span, padded and holding 1
 * (the line r = 1), so a log axis shows the data rather than a fixed
 * 0.1..10; the range of log2(M*N*K); and which points are outliers, to be
 * labelled with their size: by Tukey's fences on log r over all of the
 * mode's points (below Q1 - 1.5 IQR or above Q3 + 1.5 IQR, in logs), the
 * most extreme HB_FIGURE_MAX_LABELS of them. */
#ifndef HB_FIGURE_EXTENT_H
#define HB_FIGURE_EXTENT_H

#include <stddef.h>

#include "bench/core/status.h"

#define HB_FIGURE_MAX_LABELS 8

typedef struct hb_figure_extent {
    size_t points;          /* the ratios behind it */
    double low, high;       /* the ratio axis: [low, high], 1 inside, 10 % beyond the data each way */
    double fence_low, fence_high; /* ratios outside [fence_low, fence_high] are outliers; NaN: < 4 points */
} hb_figure_extent;

/* The extent of `n` ratios (each > 0).  With none, 0.5..2. */
hb_status hb_figure_extent_of(const double *ratios, size_t n, hb_figure_extent *out);

/* The tics of a log ratio axis over [low, high]: gnuplot's "(0.5, 0.8, 1,
 * 1.25, 2)", the round values of a 1-2-5 ladder and its steps near 1 that
 * fall inside (a log axis over a narrow range otherwise labels only 1). */
void hb_figure_log_tics(double low, double high, char *out, size_t size);

/* 1 if `ratio` lies outside the fences. */
int hb_figure_outlier(const hb_figure_extent *e, double ratio);

#endif
