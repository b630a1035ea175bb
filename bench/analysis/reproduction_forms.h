/* The forms side by side (the summary page of `reproduce --forms
 * replay,launcher`, docs/reproduce-cuda-l2.md, "Both forms"): per
 * configuration and mode, each form's verdict and its speedup over the
 * page's headline baseline (torch, t_base / t_cand on the headline timer,
 * summary.csv's speedup_paper + 1), from each form's summary.csv; and, of
 * the replay form, why a launcher had none (summary.csv's replay_refusal,
 * where the file has the column). */
#ifndef HB_REPRODUCTION_FORMS_H
#define HB_REPRODUCTION_FORMS_H

#include <stddef.h>

#include "bench/analysis/label_counts.h"
#include "bench/core/status.h"

/* The baseline the side-by-side figures are over: the paper's headline. */
#define HB_FORMS_BASELINE "torch"

typedef struct hb_form_config {
    long m, n, k;
    char mode[16];
    char verdict[24];
    double ratio; /* t_base / t_cand over HB_FORMS_BASELINE; NaN: none (not passing, or not measured) */
} hb_form_config;

typedef struct hb_form_rows {
    hb_form_config *rows; /* in summary.csv's order */
    size_t n, cap;
    int has_refusals;          /* 1: summary.csv has a replay_refusal column */
    hb_label_counts refusals;  /* its non-empty cells, by class (column 0): configurations, each counted once */
} hb_form_rows;

/* Reads a form's sweep summary.csv.  HB_ERR_BAD_RESULTS naming the place
 * for a file that is not one. */
hb_status hb_form_rows_read(const char *summary_csv, hb_form_rows *out);
void hb_form_rows_free(hb_form_rows *rows);

/* The row of M, N, K in `mode`, or NULL. */
const hb_form_config *hb_form_rows_find(const hb_form_rows *rows, long m, long n, long k, const char *mode);

#endif
