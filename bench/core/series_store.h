/* An append-only table of rows of `width` doubles: one thread appends a row
 * at a time while another copies a prefix of a column, without a lock.
 *
 * Chunks never move.  Chunk k holds HB_SERIES_FIRST_CHUNK << k rows, so its
 * HB_SERIES_MAX_CHUNKS slots, fixed in the struct, hold more rows than any
 * timed window produces (4096 * (2^40 - 1)) and no directory is reallocated
 * under a reader.  Within a chunk each column is contiguous, so a reader
 * copies a column's prefix with one memcpy per chunk.
 *
 * The writer publishes its row count with a release store after the row's
 * values (and any new chunk's address) are written; a reader's acquire load
 * of that count makes every row below it, and its chunk, visible. */
#ifndef HB_SERIES_STORE_H
#define HB_SERIES_STORE_H

#include <stdatomic.h>
#include <stddef.h>

#include "bench/core/status.h"

#define HB_SERIES_MAX_WIDTH 16
#define HB_SERIES_FIRST_CHUNK 4096 /* rows of chunk 0: 32 KiB a column */
#define HB_SERIES_MAX_CHUNKS 40

typedef struct hb_series_store {
    size_t width;                         /* columns, fixed at init */
    double *chunk[HB_SERIES_MAX_CHUNKS];  /* NULL until the writer reaches it */
    size_t current, used;                 /* writer only: the chunk it fills and the rows in it */
    atomic_size_t published;              /* rows a reader may copy */
} hb_series_store;

hb_status hb_series_store_init(hb_series_store *store, size_t width);

/* Writer: appends `row` (width values) and publishes it.  O(width); one
 * malloc each time a chunk fills (the next is twice as large). */
hb_status hb_series_store_append(hb_series_store *store, const double *row);

/* Any thread: the rows published so far. */
size_t hb_series_store_published(const hb_series_store *store);

/* Any thread: the first `rows` values of `column` into `out`; rows must not
 * exceed what is published. */
hb_status hb_series_store_copy(const hb_series_store *store, size_t column, size_t rows, double *out);

/* Frees every chunk; no reader or writer may use the store any more. */
void hb_series_store_free(hb_series_store *store);

#endif
