#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench/sweep/summary_header.h"

#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/report/csv_writer.h"
#include "bench/report/summary_columns.h"

/* The columns every version of summary.csv had, which the readers of a
 * folder need: the configuration, the participant and its role, the verdict. */
static const char *const always[] = {"run_id", "m", "n", "k", "mode", "participant", "role", "verdict", "check",
                                     "reason"};

/* What the parser's callbacks keep: each field's place among this harness's columns. */
typedef struct header_scan {
    const char *path;
    hb_summary_header *header;
    long last;             /* this harness's column of the previous field; -1: none yet */
    hb_status status;      /* the first fault found */
} header_scan;

static long our_column(const char *name, size_t length)
{
    for (size_t i = 0; i < hb_summary_column_count(); i++) {
        const char *ours = hb_summary_column(i)->name;
        if (strlen(ours) == length && !memcmp(ours, name, length))
            return (long)i;
    }
    return -1;
}

static void on_name(void *data, size_t length, void *context)
{
    header_scan *s = context;
    hb_summary_header *h = s->header;
    const size_t field = ++h->columns;
    if (s->status != HB_OK)
        return;
    const char *name = data ? data : "";
    long column = our_column(name, length);
    if (column < 0)
        s->status = hb_fail(HB_ERR_BAD_RESULTS, "%s:1: its column %zu, \"%.*s\", is not one this harness writes: "
                            "the file is a newer harness's or another tool's, or was edited (an earlier harness's "
                            "header holds only columns this one writes)", s->path, field,
                            (int)(length < 64 ? length : 64), name);
    else if (column <= s->last)
        s->status = hb_fail(HB_ERR_BAD_RESULTS, "%s:1: its column %zu, \"%.*s\", is out of this harness's order "
                            "(or there twice): no version wrote this header; the file was edited", s->path, field,
                            (int)(length < 64 ? length : 64), name);
    else {
        h->source_of[column] = (long)(field - 1);
        s->last = column;
    }
}

static void on_line_end(int terminator, void *context)
{
    (void)terminator;
    (void)context;
}

hb_status hb_summary_header_is_ours(const char *line, size_t length, int *ours)
{
    char *expected = NULL;
    size_t expected_size = 0;
    FILE *memory = open_memstream(&expected, &expected_size);
    if (!memory)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory");
    hb_csv_write_header(memory);
    if (fclose(memory) != 0) {
        free(expected);
        return hb_fail(HB_ERR_INTERNAL, "out of host memory");
    }
    *ours = expected_size == length && !memcmp(expected, line, length);
    free(expected);
    return HB_OK;
}

/* The file's columns mapped onto this harness's, each checked. */
static hb_status map_columns(const char *path, const char *line, size_t length, hb_summary_header *h)
{
    struct csv_parser parser;
    if (csv_init(&parser, CSV_APPEND_NULL) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot start the CSV parser (out of memory)");
    header_scan scan = {.path = path, .header = h, .last = -1, .status = HB_OK};
    size_t parsed = csv_parse(&parser, line, length, on_name, on_line_end, &scan);
    int failed = parsed != length || csv_fini(&parser, on_name, on_line_end, &scan) != 0;
    csv_free(&parser);
    if (failed && scan.status == HB_OK)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:1: its header does not parse as CSV", path);
    HB_TRY(scan.status);
    for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
        if (h->source_of[our_column(always[i], strlen(always[i]))] < 0)
            return hb_fail(HB_ERR_BAD_RESULTS, "%s:1: its header has no column \"%s\", which every version of "
                           "summary.csv has: not a summary.csv of this harness or an earlier one", path, always[i]);
    return HB_OK;
}

hb_status hb_summary_header_read(const char *path, const char *line, size_t length, hb_summary_header *h)
{
    memset(h, 0, sizeof *h);
    h->our_columns = hb_summary_column_count();
    h->source_of = malloc(h->our_columns * sizeof *h->source_of);
    if (!h->source_of)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory");
    for (size_t i = 0; i < h->our_columns; i++)
        h->source_of[i] = -1;
    HB_TRY(hb_summary_header_is_ours(line, length, &h->ours));
    return map_columns(path, line, length, h);
}

void hb_summary_header_free(hb_summary_header *h)
{
    free(h->source_of);
    h->source_of = NULL;
}
