#include "bench/analysis/csv_reader.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/bad_results.h"
#include "bench/core/csv_text.h"
#include "bench/core/diag.h"
#include "bench/core/input_file.h"

/* A field's text, grown as needed. */
typedef struct field_text {
    char *text;
    size_t size;
} field_text;

typedef struct reader {
    const hb_csv_spec *spec;
    const char *path;
    hb_status status;        /* the first error; rows after it are skipped */
    size_t line;             /* the line being read, 1-based */
    size_t row_line;         /* the line the current row began on */
    size_t fields;           /* fields of the current row so far */
    int in_header;
    char **names;            /* the header's names */
    size_t n_names, cap_names;
    int *slot_of;            /* per header column: the wanted column it is, or -1 */
    field_text *slots;       /* per wanted column: the current row's field */
    size_t *column_of;       /* per wanted column: its 1-based position, 0 if lacking */
    const char **texts;      /* per wanted column: what the callback sees */
} reader;

static size_t count_newlines(const char *text, size_t length)
{
    size_t lines = 0;
    for (size_t i = 0; i < length; i++)
        lines += text[i] == '\n';
    return lines;
}

static void keep_header_name(reader *r, const char *text, size_t length)
{
    if (r->n_names == r->cap_names) {
        size_t cap = r->cap_names ? 2 * r->cap_names : 64;
        char **grown = realloc(r->names, cap * sizeof *grown);
        if (!grown) {
            r->status = hb_fail(HB_ERR_INTERNAL, "out of host memory reading the header of %s", r->path);
            return;
        }
        r->names = grown;
        r->cap_names = cap;
    }
    char *name = malloc(length + 1);
    if (!name) {
        r->status = hb_fail(HB_ERR_INTERNAL, "out of host memory reading the header of %s", r->path);
        return;
    }
    memcpy(name, text, length);
    name[length] = '\0';
    r->names[r->n_names++] = name;
}

/* A field as the callback sees it: a text cell the harness guarded against
 * formulas without the guard's quote (bench/core/csv_text.h). */
static void keep_field(reader *r, const char *text, size_t length)
{
    if (r->fields >= r->n_names)
        return; /* one too many: the row's end says so */
    int slot = r->slot_of[r->fields];
    if (slot < 0)
        return;
    if (length >= 2 && hb_csv_text_unguard(text) != text) {
        text++;
        length--;
    }
    field_text *f = &r->slots[slot];
    if (length + 1 > f->size) {
        char *grown = realloc(f->text, length + 1);
        if (!grown) {
            r->status = hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", r->path);
            return;
        }
        f->text = grown;
        f->size = length + 1;
    }
    memcpy(f->text, text, length);
    f->text[length] = '\0';
}

static void on_field(void *data, size_t length, void *context)
{
    reader *r = context;
    if (r->status != HB_OK)
        return;
    if (r->fields == 0)
        r->row_line = r->line;
    const char *text = data ? data : "";
    if (r->in_header)
        keep_header_name(r, text, length);
    else
        keep_field(r, text, length);
    r->fields++;
    r->line += count_newlines(text, length); /* a quoted field may span lines */
}

/* The header read: map the wanted columns onto it. */
static hb_status map_header(reader *r)
{
    const hb_csv_spec *s = r->spec;
    if (s->header)
        HB_TRY(s->header(s->context, r->path, (const char *const *)r->names, r->n_names));
    r->slot_of = malloc(r->n_names * sizeof *r->slot_of);
    if (!r->slot_of)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", r->path);
    for (size_t c = 0; c < r->n_names; c++)
        r->slot_of[c] = -1;
    for (size_t w = 0; w < s->n_wanted; w++) {
        size_t c = 0;
        while (c < r->n_names && strcmp(r->names[c], s->wanted[w]))
            c++;
        if (c < r->n_names) {
            r->slot_of[c] = (int)w;
            r->column_of[w] = c + 1;
        } else if (!s->optional || !s->optional[w]) {
            return hb_bad_results(r->path, 1, 0, NULL, "the header has no column '%s': this is not %s", s->wanted[w],
                                  s->what);
        }
    }
    return HB_OK;
}

static hb_status end_row(reader *r, int terminated)
{
    if (r->in_header) {
        r->in_header = 0;
        if (!terminated)
            return hb_bad_results(r->path, r->row_line, 0, NULL,
                                  "the file ends inside its header line (no newline): it was cut short");
        return map_header(r);
    }
    if (r->fields < r->n_names)
        return hb_bad_results(r->path, r->row_line, r->fields + 1, r->names[r->fields],
                              "the row ends after %zu of the header's %zu fields: the file was cut short (truncated) "
                              "or the row is malformed",
                              r->fields, r->n_names);
    if (r->fields > r->n_names)
        return hb_bad_results(r->path, r->row_line, r->n_names + 1, NULL,
                              "the row has %zu fields, the header %zu", r->fields, r->n_names);
    if (!terminated && !r->spec->lenient_last_newline)
        return hb_bad_results(r->path, r->row_line, 0, NULL,
                              "the last line has no newline: the file was cut short (truncated) while it was written");
    for (size_t w = 0; w < r->spec->n_wanted; w++)
        r->texts[w] = r->column_of[w] ? r->slots[w].text : NULL;
    hb_csv_row row = {r->path, r->row_line, r->texts, r->column_of, r->spec->wanted};
    return r->spec->row(r->spec->context, &row);
}

static void on_row_end(int terminator, void *context)
{
    reader *r = context;
    if (r->status == HB_OK && r->fields > 0)
        r->status = end_row(r, terminator != -1);
    r->fields = 0;
    if (terminator == '\n')
        r->line++;
}

/* The whole file in memory: one pass of the parser over it.  A path that is
 * missing, not a regular file, over the spec's size or unreadable is a
 * result that is not what it should be. */
static hb_status slurp(const char *path, const hb_csv_spec *spec, char **text, size_t *length)
{
    return hb_input_read(path, NULL, spec->max_bytes ? spec->max_bytes : HB_CSV_MAX_BYTES, HB_ERR_BAD_RESULTS, 0,
                         text, length);
}

/* libcsv stopped at byte `offset`: say which line and character. */
static hb_status parse_error(const reader *r, const char *text, size_t offset, const char *why)
{
    size_t line = 1 + count_newlines(text, offset);
    const char *line_start = text + offset;
    while (line_start > text && line_start[-1] != '\n')
        line_start--;
    return hb_bad_results(r->path, line, 0, NULL, "malformed CSV at character %zu of the line (%s)",
                          (size_t)(text + offset - line_start) + 1, why);
}

/* CSV is text: a NUL byte would cut a field short where C strings read it
 * ("1\0 2" would read as 1), so it is refused where it is. */
static hb_status check_text(const reader *r, const char *text, size_t length)
{
    size_t line, column;
    if (!hb_text_nul_at(text, length, &line, &column))
        return HB_OK;
    return hb_bad_results(r->path, line, 0, NULL,
                          "a NUL byte at character %zu of the line: the file is not text (damaged, or not a CSV)",
                          column);
}

/* A UTF-8 byte-order mark, which spreadsheet programs put before the header:
 * skipped where the spec allows it, else named (it is invisible in a message). */
static hb_status skip_bom(const reader *r, const char **text, size_t *length)
{
    static const char bom[3] = {'\xef', '\xbb', '\xbf'};
    if (*length < 3 || memcmp(*text, bom, 3))
        return HB_OK;
    if (!r->spec->lenient_bom)
        return hb_bad_results(r->path, 1, 1, NULL, "the file starts with a UTF-8 byte-order mark (bytes ef bb bf), "
                              "which hgemm-bench never writes: it was re-saved by another program; remove the mark");
    *text += 3;
    *length -= 3;
    return HB_OK;
}

static hb_status parse(reader *r, const char *text, size_t length)
{
    HB_TRY(skip_bom(r, &text, &length));
    HB_TRY(check_text(r, text, length));
    struct csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot set up the CSV parser");
    size_t parsed = csv_parse(&parser, text, length, on_field, on_row_end, r);
    hb_status status = r->status;
    if (status == HB_OK && parsed < length)
        status = parse_error(r, text, parsed, csv_strerror(csv_error(&parser)));
    if (status == HB_OK && csv_fini(&parser, on_field, on_row_end, r) != 0)
        status = parse_error(r, text, length, csv_strerror(csv_error(&parser)));
    if (status == HB_OK)
        status = r->status;
    if (status == HB_OK && csv_error(&parser) == CSV_EPARSE)
        status = parse_error(r, text, length, "a quoted field is not closed");
    if (status == HB_OK && r->in_header)
        status = hb_bad_results(r->path, 0, 0, NULL, "the file is empty: it has no header line, so it is not %s",
                                r->spec->what);
    csv_free(&parser);
    return status;
}

static void release(reader *r)
{
    for (size_t i = 0; i < r->n_names; i++)
        free(r->names[i]);
    free(r->names);
    free(r->slot_of);
    for (size_t w = 0; r->slots && w < r->spec->n_wanted; w++)
        free(r->slots[w].text);
    free(r->slots);
    free(r->column_of);
    free(r->texts);
}

static hb_status read_through(const char *path, const char *given, size_t given_length, const hb_csv_spec *spec)
{
    reader r = {.spec = spec, .path = path, .status = HB_OK, .line = 1, .in_header = 1};
    size_t wanted = spec->n_wanted ? spec->n_wanted : 1;
    r.slots = calloc(wanted, sizeof *r.slots);
    r.column_of = calloc(wanted, sizeof *r.column_of);
    r.texts = calloc(wanted, sizeof *r.texts);
    char *text = NULL;
    size_t length = 0;
    hb_status status = r.slots && r.column_of && r.texts ? HB_OK
                                                        : hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", path);
    if (status == HB_OK && !given)
        status = slurp(path, spec, &text, &length);
    if (status == HB_OK)
        status = given ? parse(&r, given, given_length) : parse(&r, text, length);
    free(text);
    release(&r);
    return status;
}

hb_status hb_csv_read(const char *path, const hb_csv_spec *spec)
{
    return read_through(path, NULL, 0, spec);
}

hb_status hb_csv_read_text(const char *path, const char *text, size_t length, const hb_csv_spec *spec)
{
    return read_through(path, text ? text : "", length, spec);
}
