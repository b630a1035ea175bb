/* Counts by label ("built", "incorrect / deviation", ...), in the order the
 * labels first came, for the census tables of the reproduction page.  A
 * label is counted in up to HB_LABEL_COLUMNS columns (offline, server, ...). */
#ifndef HB_LABEL_COUNTS_H
#define HB_LABEL_COUNTS_H

#include <stddef.h>

#include "bench/core/status.h"

#define HB_LABEL_COLUMNS 4

typedef struct hb_label_count {
    char *label;
    size_t count[HB_LABEL_COLUMNS];
} hb_label_count;

typedef struct hb_label_counts {
    hb_label_count *rows;
    size_t n, capacity;
} hb_label_counts;

/* Adds one to `label`'s count in `column` (a new label gets a row).
 * HB_ERR_INTERNAL when memory runs out. */
hb_status hb_label_add(hb_label_counts *c, const char *label, size_t column);

/* The rows, largest total first (ties: first seen first). */
void hb_label_sort(hb_label_counts *c);

size_t hb_label_total(const hb_label_count *row);

void hb_label_counts_free(hb_label_counts *c);

#endif
