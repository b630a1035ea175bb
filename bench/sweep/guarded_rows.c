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
    size_t fields; /* of the row being copied */
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

static void on_field(void *data, size_t length, void *context)
{
    row_copy *c = context;
    const char *text = data ? data : "";
    if (c->fields++)
        fputc(',', c->out);
    if (length == 0)
        return;
    if (reads_as_number(text))
        fputs(text, c->out);
    else /* the text as its writer meant it, then guarded as this harness guards it */
        hb_csv_write_field(c->out, hb_csv_text_unguard(text));
}

static void on_row_end(int terminator, void *context)
{
    (void)terminator;
    row_copy *c = context;
    fputc('\n', c->out);
    c->fields = 0;
}

hb_status hb_copy_rows_guarded(const char *rows, size_t length, FILE *out, const char *label)
{
    struct csv_parser parser;
    if (csv_init(&parser, CSV_APPEND_NULL) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot start the CSV parser (out of memory)");
    row_copy copy = {out, 0};
    size_t parsed = csv_parse(&parser, rows, length, on_field, on_row_end, &copy);
    int failed = parsed != length || csv_fini(&parser, on_field, on_row_end, &copy) != 0;
    const char *why = csv_strerror(csv_error(&parser));
    csv_free(&parser);
    if (failed)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s: its rows do not parse as CSV (%s)", label, why);
    if (ferror(out))
        return hb_fail(HB_ERR_IO, "writing the merged summary.csv failed: %s", strerror(errno));
    return HB_OK;
}
