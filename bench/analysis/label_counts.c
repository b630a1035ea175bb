#define _POSIX_C_SOURCE 200809L /* strdup */
#include "bench/analysis/label_counts.h"

#include <stdlib.h>
#include <string.h>

#include "bench/core/array_room.h"
#include "bench/core/diag.h"

hb_status hb_label_add(hb_label_counts *c, const char *label, size_t column)
{
    if (column >= HB_LABEL_COLUMNS)
        return hb_fail(HB_ERR_INTERNAL, "label column %zu past %d", column, HB_LABEL_COLUMNS);
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->rows[i].label, label)) {
            c->rows[i].count[column]++;
            return HB_OK;
        }
    void *rows = c->rows;
    if (!hb_array_room(&rows, &c->capacity, c->n, sizeof *c->rows))
        return hb_fail(HB_ERR_INTERNAL, "out of memory for a census table");
    c->rows = rows;
    hb_label_count *row = &c->rows[c->n];
    memset(row, 0, sizeof *row);
    if (!(row->label = strdup(label)))
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    row->count[column] = 1;
    c->n++;
    return HB_OK;
}

size_t hb_label_total(const hb_label_count *row)
{
    size_t total = 0;
    for (int i = 0; i < HB_LABEL_COLUMNS; i++)
        total += row->count[i];
    return total;
}

void hb_label_sort(hb_label_counts *c)
{
    /* insertion sort: stable, and the tables hold tens of rows */
    for (size_t i = 1; i < c->n; i++) {
        hb_label_count row = c->rows[i];
        size_t j = i;
        while (j > 0 && hb_label_total(&c->rows[j - 1]) < hb_label_total(&row)) {
            c->rows[j] = c->rows[j - 1];
            j--;
        }
        c->rows[j] = row;
    }
}

void hb_label_counts_free(hb_label_counts *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->rows[i].label);
    free(c->rows);
    memset(c, 0, sizeof *c);
}
