/* Where a speedup comes from (docs/reports.md, "Figures"): per
 * configuration, the candidate's speedup t_base / t_cand over one baseline
 * on the headline timer (the paper's estimator on CUDA events, or on the
 * wall clock where the run moved the headline there) beside its speedup on
 * the kernels' own GPU time (CUPTI, the ratio of the kernel medians).  A
 * configuration that wins on the headline and not on kernel time wins on
 * the host path (launch latency, host code, synchronizations), not with a
 * faster kernel.  The counts here are the caption of the figure that draws
 * them (bench/analysis/source_figure.h), so the two cannot disagree. */
#ifndef HB_SPEEDUP_SOURCE_H
#define HB_SPEEDUP_SOURCE_H

#include <stddef.h>

#include "bench/analysis/result_set.h"

/* What a configuration's two speedups say; a win is t_base / t_cand > 1. */
typedef enum hb_source_class {
    HB_SOURCE_BOTH,          /* wins on the headline and on kernel time */
    HB_SOURCE_HEADLINE_ONLY, /* wins on the headline only: the host path */
    HB_SOURCE_KERNEL_ONLY,   /* wins on kernel time only */
    HB_SOURCE_NEITHER,
    HB_SOURCE_NO_KERNEL,     /* no kernel time (an untraced run) */
    HB_SOURCE_CLASS_COUNT
} hb_source_class;

/* Which configurations of the set a figure takes: every one that counts
 * (report), or those that also have a published figure (compare). */
typedef int (*hb_source_filter)(const hb_config_entry *entry, void *context);

typedef struct hb_source_select {
    hb_mode mode;
    hb_timer timer;          /* the headline side: the caller's --timer, HB_TIMER_EVENT for kernel (hb_source_timer) */
    hb_source_filter filter; /* NULL: every configuration that counts */
    void *context;
    const char *which;       /* the caption's name of them: "passing configurations" */
} hb_source_select;

/* The counts of one mode over one column. */
typedef struct hb_speedup_source {
    size_t column;
    size_t configs;          /* that count and have a headline figure over the column */
    size_t win_headline, win_kernel;
    size_t with_kernel;      /* of them with a kernel time */
    size_t wall_headline;    /* of them whose headline is on the wall clock (summary.csv's headline_timer) */
    size_t by_class[HB_SOURCE_CLASS_COUNT];
} hb_speedup_source;

/* The headline side for a report or compare --timer: kernel time is the
 * other side, so --timer kernel puts the headline (events) beside it. */
hb_timer hb_source_timer(hb_timer timer);

/* The class of a configuration's headline and kernel speedups (NaN: none). */
hb_source_class hb_source_class_of(double headline, double kernel);

/* The headline and kernel speedups of `entry` over `column` when `s` takes
 * it (1, each NaN where it has none); 0 when it does not. */
int hb_source_ratios(const hb_config_entry *entry, const hb_source_select *s, size_t column, double *headline,
                     double *kernel);

/* The column the figure is drawn over: torch (the baseline the paper's
 * claim leads with) where any configuration has a headline figure over it,
 * else the column with the most; torch's column (or 0) when none has any. */
size_t hb_source_column(const hb_result_set *set, const hb_source_select *s);

/* The counts of `s`'s configurations over `column`. */
void hb_source_count(const hb_result_set *set, const hb_source_select *s, size_t column, hb_speedup_source *out);

/* The figure's caption: "22 of 50 passing configurations win on the
 * headline timer (CUDA events), 1 on kernel time; against torch,
 * offline mode (a win: t_base / t_cand > 1)", with
 * the wall-clock headlines and missing kernel times said where there are any. */
void hb_source_caption(const hb_speedup_source *c, const hb_source_select *s, char *out, size_t size);

/* "wins on both: 3"-style names of the classes, for the figure's key. */
const char *hb_source_class_words(hb_source_class c);

#endif
