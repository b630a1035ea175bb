#include "bench/core/series_store.h"

#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

static size_t chunk_rows(size_t k) { return (size_t)HB_SERIES_FIRST_CHUNK << k; }

hb_status hb_series_store_init(hb_series_store *store, size_t width)
{
    memset(store, 0, sizeof *store);
    if (width == 0 || width > HB_SERIES_MAX_WIDTH)
        return hb_fail(HB_ERR_INTERNAL, "series store of %zu columns (1..%d supported)", width, HB_SERIES_MAX_WIDTH);
    store->width = width;
    atomic_init(&store->published, 0);
    return HB_OK;
}

/* Moves the writer to the next chunk, allocating it. */
static hb_status next_chunk(hb_series_store *store)
{
    size_t k = store->chunk[store->current] ? store->current + 1 : store->current;
    if (k >= HB_SERIES_MAX_CHUNKS)
        return hb_fail(HB_ERR_INTERNAL, "series store full after %zu rows", atomic_load(&store->published));
    double *chunk = malloc(chunk_rows(k) * store->width * sizeof *chunk);
    if (!chunk)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu more rows of %zu log ratios", chunk_rows(k),
                       store->width);
    store->chunk[k] = chunk;
    store->current = k;
    store->used = 0;
    return HB_OK;
}

hb_status hb_series_store_append(hb_series_store *store, const double *row)
{
    if (!store->chunk[store->current] || store->used == chunk_rows(store->current))
        HB_TRY(next_chunk(store));
    double *chunk = store->chunk[store->current];
    const size_t stride = chunk_rows(store->current);
    for (size_t c = 0; c < store->width; c++)
        chunk[c * stride + store->used] = row[c];
    store->used++;
    size_t rows = atomic_load_explicit(&store->published, memory_order_relaxed) + 1; /* only this thread writes it */
    atomic_store_explicit(&store->published, rows, memory_order_release);
    return HB_OK;
}

size_t hb_series_store_published(const hb_series_store *store)
{
    return atomic_load_explicit(&store->published, memory_order_acquire);
}

hb_status hb_series_store_copy(const hb_series_store *store, size_t column, size_t rows, double *out)
{
    size_t published = hb_series_store_published(store);
    if (column >= store->width || rows > published)
        return hb_fail(HB_ERR_INTERNAL, "copy of %zu rows of column %zu from a series store of %zu rows and %zu "
                       "columns", rows, column, published, store->width);
    for (size_t k = 0, done = 0; done < rows; k++) {
        size_t take = rows - done < chunk_rows(k) ? rows - done : chunk_rows(k);
        memcpy(out + done, store->chunk[k] + column * chunk_rows(k), take * sizeof *out);
        done += take;
    }
    return HB_OK;
}

void hb_series_store_free(hb_series_store *store)
{
    for (size_t k = 0; k < HB_SERIES_MAX_CHUNKS; k++)
        free(store->chunk[k]);
    memset(store->chunk, 0, sizeof store->chunk);
    store->current = store->used = 0;
    atomic_store(&store->published, 0);
}
