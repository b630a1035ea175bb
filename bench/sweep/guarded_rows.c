#include "bench/sweep/guarded_rows.h"

#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/csv_text.h"
#include "bench/core/diag.h"
#include "bench/report/csv_writer.h"

typedef struct row_copy {
    FILE *out;
    const hb_summary_header *header; /* NULL: the fields in their order */
    size_t fields;                   /* of the row being copied */
    /* with a header: the row's fields, kept until its end (each NUL-ended in `text`) */
    char *text;
    size_t used, capacity;
    size_t *start;                   /* per field of the file: where it starts in `text` */
    size_t rows;
    int fault;                       /* 1: out of memory; 2: a row of another width than its header */
    size_t fault_fields;
} row_copy;

/* A whole number or real as strtod reads one: a spreadsheet reads it as a number too. */
static int reads_as_number(const char *text)
{
    if (!*text)
        return 0;
    char *end = NULL;
    errno = 0;
    (void)strtod(text, &end);
    return end && *end == '\0';
}

static void write_cell(FILE *out, const char *text, size_t length)
{
    if (length == 0)
        return;
    if (reads_as_number(text))
        fputs(text, out);
    else /* the text as its writer meant it, then guarded as this harness guards it */
        hb_csv_write_field(out, hb_csv_text_unguard(text));
}

/* A field kept for the row's end; the file's columns past its header's count are counted, not kept. */
static void keep_field(row_copy *c, const char *text, size_t length)
{
    size_t field = c->fields++;
    if (c->fault || field >= c->header->columns)
        return;
    if (c->used + length + 1 > c->capacity) {
        size_t capacity = (c->used + length + 1) * 2;
        char *grown = realloc(c->text, capacity);
        if (!grown) {
            c->fault = 1;
            return;
        }
        c->text = grown;
        c->capacity = capacity;
    }
    c->start[field] = c->used;
    memcpy(c->text + c->used, text, length);
    c->text[c->used + length] = '\0';
    c->used += length + 1;
}

static void on_field(void *data, size_t length, void *context)
{
    row_copy *c = context;
    const char *text = data ? data : "";
    if (c->header) {
        keep_field(c, text, length);
        return;
    }
    if (c->fields++)
        fputc(',', c->out);
    write_cell(c->out, text, length);
}

/* The kept row in this harness's columns: each from the file's column
 * holding it, empty where the file has none. */
static void write_mapped(row_copy *c)
{
    const hb_summary_header *h = c->header;
    for (size_t i = 0; i < h->our_columns; i++) {
        if (i)
            fputc(',', c->out);
        long source = h->source_of[i];
        if (source >= 0) {
            const char *text = c->text + c->start[source];
            write_cell(c->out, text, strlen(text));
        }
    }
}

static void on_row_end(int terminator, void *context)
{
    (void)terminator;
    row_copy *c = context;
    c->rows++;
    if (c->header && !c->fault && c->fields != c->header->columns) {
        c->fault = 2;
        c->fault_fields = c->fields;
    }
    if (c->header && !c->fault)
        write_mapped(c);
    if (!c->fault)
        fputc('\n', c->out);
    c->fields = 0;
    c->used = 0;
}

hb_status hb_copy_rows_guarded(const char *rows, size_t length, const hb_summary_header *header, FILE *out,
                               const char *label)
{
    struct csv_parser parser;
    if (csv_init(&parser, CSV_APPEND_NULL) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot start the CSV parser (out of memory)");
    row_copy copy = {.out = out, .header = header && !header->ours ? header : NULL};
    if (copy.header && !(copy.start = malloc(copy.header->columns * sizeof *copy.start))) {
        csv_free(&parser);
        return hb_fail(HB_ERR_INTERNAL, "out of host memory copying the rows of %s", label);
    }
    size_t parsed = csv_parse(&parser, rows, length, on_field, on_row_end, &copy);
    int failed = parsed != length || csv_fini(&parser, on_field, on_row_end, &copy) != 0;
    const char *why = csv_strerror(csv_error(&parser));
    csv_free(&parser);
    free(copy.text);
    free(copy.start);
    if (failed)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s: its rows do not parse as CSV (%s)", label, why);
    if (copy.fault == 1)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory copying the rows of %s", label);
    if (copy.fault == 2)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s: a row has %zu fields, its header %zu: the file was edited or cut",
                       label, copy.fault_fields, header->columns);
    if (ferror(out))
        return hb_fail(HB_ERR_IO, "writing the merged summary.csv failed: %s", strerror(errno));
    return HB_OK;
}
