#include "bench/analysis/published_layout.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/analysis/bad_results.h"
#include "bench/analysis/csv_reader.h"
#include "bench/analysis/number_ranges.h"
#include "bench/core/diag.h"
#include "bench/core/gemm_types.h"
#include "bench/core/input_file.h"

#define SIZE_COLUMN "mnk"

/* CUDA-L2's published files are about 100 KiB (1,000 rows); 64 MiB is no such file. */
#define HB_PUBLISHED_MAX_BYTES ((size_t)64 << 20)

const char *hb_published_header(void)
{
    static char header[1024];
    if (!header[0]) {
        size_t used = (size_t)snprintf(header, sizeof header, "%s", SIZE_COLUMN);
        for (size_t c = 0; c < hb_speedup_column_count() && used < sizeof header; c++)
            used += (size_t)snprintf(header + used, sizeof header - used, ",%s", hb_speedup_column_at(c)->published);
    }
    return header;
}

/* The wanted columns: the size, then each speedup column's published name. */
static const char *const *wanted_columns(size_t *count)
{
    static const char *names[HB_MAX_SPEEDUP_COLUMNS + 1];
    names[0] = SIZE_COLUMN;
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        names[c + 1] = hb_speedup_column_at(c)->published;
    *count = hb_speedup_column_count() + 1;
    return names;
}

static hb_status check_header(void *context, const char *path, const char *const *names, size_t count)
{
    (void)context;
    size_t expected_count;
    const char *const *expected = wanted_columns(&expected_count);
    for (size_t c = 0; c < expected_count; c++)
        if (c >= count || strcmp(names[c], expected[c]))
            return hb_bad_results(path, 1, c + 1, NULL,
                                  "'%s' where the published layout has '%s': not a published speedup file (its "
                                  "header is exactly %s)",
                                  c < count ? names[c] : "(nothing)", expected[c], hb_published_header());
    if (count > expected_count)
        return hb_bad_results(path, 1, expected_count + 1, NULL,
                              "'%s' after the published layout's last column (its header is exactly %s)",
                              names[expected_count], hb_published_header());
    return HB_OK;
}

static hb_status read_size(const hb_csv_row *row, hb_published_row *out)
{
    const char *text = row->text[0];
    long dims[3];
    char *end = (char *)text;
    for (int d = 0; d < 3; d++) {
        const char *start = end + (d > 0);
        errno = 0;
        dims[d] = strtol(start, &end, 10);
        int separator_ok = d < 2 ? *end == '_' : *end == '\0';
        if (errno || end == start || !separator_ok || dims[d] < 1 || dims[d] > HB_MAX_DIM)
            return hb_bad_results(row->path, row->line, 1, SIZE_COLUMN,
                                  "'%s' is not a size M_N_K (three whole numbers 1..262144 joined by '_')", text);
    }
    out->m = dims[0];
    out->n = dims[1];
    out->k = dims[2];
    return HB_OK;
}

static hb_status on_row(void *context, const hb_csv_row *row)
{
    hb_published_table *t = context;
    if (t->count == t->capacity) {
        size_t more = t->capacity ? 2 * t->capacity : 256;
        hb_published_row *grown = realloc(t->rows, more * sizeof *grown);
        if (!grown)
            return hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", row->path);
        t->rows = grown;
        t->capacity = more;
    }
    hb_published_row *r = &t->rows[t->count];
    r->line = row->line;
    HB_TRY(read_size(row, r));
    for (size_t c = 0; c < HB_MAX_SPEEDUP_COLUMNS; c++)
        r->ratio[c] = NAN;
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        HB_TRY(hb_csv_number_as(row, c + 1, HB_NUM_RATIO, &r->ratio[c]));
    t->count++;
    return HB_OK;
}

static int compare_size_only(const void *a, const void *b);

/* By size, then line: a size given twice sorts its first line first. */
static int compare_sizes(const void *a, const void *b)
{
    int by_size = compare_size_only(a, b);
    const hb_published_row *x = a, *y = b;
    return by_size ? by_size : (x->line > y->line) - (x->line < y->line);
}

hb_status hb_read_published(const char *path, hb_published_table *out)
{
    memset(out, 0, sizeof *out);
    size_t count;
    hb_csv_spec spec = {.what = "a published speedup file",
                        .wanted = wanted_columns(&count),
                        .lenient_last_newline = 1,
                        .header = check_header,
                        .row = on_row,
                        .context = out};
    spec.n_wanted = count;
    spec.lenient_bom = 1;
    spec.max_bytes = HB_PUBLISHED_MAX_BYTES;
    HB_TRY(hb_csv_read(path, &spec));
    if (out->count > 1) /* qsort's array may not be NULL, even for no rows (a header-only file) */
        qsort(out->rows, out->count, sizeof *out->rows, compare_sizes);
    for (size_t i = 1; i < out->count; i++) {
        const hb_published_row *a = &out->rows[i - 1], *b = &out->rows[i];
        if (a->m == b->m && a->n == b->n && a->k == b->k)
            return hb_bad_results(path, b->line, 1, SIZE_COLUMN, "%ld_%ld_%ld again (first on line %zu)", b->m, b->n,
                                  b->k, a->line);
    }
    return HB_OK;
}

hb_status hb_published_check_file(const char *path)
{
    if (!strcmp(hb_input_kind(path), "missing"))
        return hb_fail(HB_ERR_BAD_RESULTS, "the published file %s (--published) does not exist", path);
    char label[4200];
    snprintf(label, sizeof label, "the published file %s (--published)", path);
    int fd = -1;
    size_t size = 0;
    HB_TRY(hb_input_open(path, label, HB_PUBLISHED_MAX_BYTES, HB_ERR_BAD_RESULTS, 0, &fd, &size));
    close(fd);
    return HB_OK;
}

void hb_published_free(hb_published_table *table)
{
    free(table->rows);
    memset(table, 0, sizeof *table);
}

/* By size alone: the rows are distinct once read. */
static int compare_size_only(const void *a, const void *b)
{
    const hb_published_row *x = a, *y = b;
    if (x->m != y->m)
        return x->m < y->m ? -1 : 1;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

const hb_published_row *hb_published_find(const hb_published_table *table, long m, long n, long k)
{
    hb_published_row probe = {.m = m, .n = n, .k = k};
    return table->count ? bsearch(&probe, table->rows, table->count, sizeof *table->rows, compare_size_only) : NULL;
}
