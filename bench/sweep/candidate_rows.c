#include "bench/sweep/candidate_rows.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/csv_text.h"
#include "bench/core/diag.h"
#include "bench/core/timing_policy.h"
#include "bench/result/config_result.h"

/* The journal's texts are copied from a configuration's result as the rows
 * are written (bench/sweep/sweep_store.c): one size each, or an honest
 * reason cut at one length in the journal and another in summary.csv
 * would read as an edit. */
_Static_assert(sizeof ((hb_journal_entry *)0)->check == sizeof ((hb_config_result *)0)->check,
               "the journal's check is the result's");
_Static_assert(sizeof ((hb_journal_entry *)0)->reason == sizeof ((hb_config_result *)0)->reason,
               "the journal's reason is the result's");

/* The columns read, all near the start of a row (docs/results.md). */
enum { COL_M, COL_N, COL_K, COL_ROLE, COL_VERDICT, COL_CHECK, COL_REASON, COL_COUNT };
static const char *const column_names[COL_COUNT] = {"m", "n", "k", "role", "verdict", "check", "reason"};

/* A field as read: its first bytes and its whole length.  The journal's
 * texts are at most 511 bytes (bench/sweep/journal.h), so a longer field
 * differs from them whatever its end. */
typedef struct field_text {
    char text[512];
    size_t length;
} field_text;

/* What the parser's callbacks keep: the columns' places from the header,
 * then the fields of the row being read; and, item by item, its candidate row. */
typedef struct row_scan {
    int in_header;
    long column[COL_COUNT];     /* the header's field number of each; -1: the header lacks it */
    size_t header_fields;
    size_t needed;              /* the fields a row is read for: up to the last of the columns */
    signed char *slot_of;       /* per header field: which of column_names it is, -1: none */
    int out_of_memory;
    size_t fields;              /* of the row being read */
    field_text row[COL_COUNT];
    const hb_journal_entry *entry; /* the item whose rows these are */
    size_t candidates;
    size_t candidate_line, second_candidate_line;
    field_text candidate[COL_COUNT];
} row_scan;

static size_t count_newlines(const char *text, size_t length)
{
    size_t lines = 0;
    for (const char *p = text, *end = text + length; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        lines++;
    return lines;
}

/* Where the row that starts at `at` ends: just past the first '\n' outside
 * quotes, or `end`.  RFC 4180 doubles a quote inside a quoted field, so a
 * '\n' is outside quotes when the row holds an even number of them before it. */
static size_t row_end(const char *csv, size_t at, size_t end)
{
    size_t quotes = 0;
    const char *p = csv + at, *stop = csv + end;
    for (const char *newline; (newline = memchr(p, '\n', (size_t)(stop - p))) != NULL; p = newline + 1) {
        for (const char *q = p; (q = memchr(q, '"', (size_t)(newline - q))) != NULL; q++)
            quotes++;
        if (quotes % 2 == 0)
            return (size_t)(newline - csv) + 1;
    }
    return end;
}

static void keep(field_text *field, const char *text, size_t length)
{
    size_t kept = length < sizeof field->text - 1 ? length : sizeof field->text - 1;
    memcpy(field->text, text, kept);
    field->text[kept] = '\0';
    field->length = length;
}

static int field_is(const field_text *field, const char *text)
{
    return field->length == strlen(text) && !memcmp(field->text, text, field->length);
}

static void on_field(void *data, size_t length, void *context)
{
    row_scan *s = context;
    const char *text = data ? data : "";
    if (s->in_header) {
        for (int c = 0; c < COL_COUNT; c++)
            if (s->column[c] < 0 && length == strlen(column_names[c]) && !memcmp(text, column_names[c], length))
                s->column[c] = (long)s->fields;
    } else if (s->fields < s->header_fields && s->slot_of[s->fields] >= 0) {
        size_t guard = hb_csv_text_guard_bytes(text, length); /* the text as written, as every reader takes it */
        keep(&s->row[s->slot_of[s->fields]], text + guard, length - guard);
    }
    s->fields++;
}

/* The header read: which of its fields each column is. */
static void map_header(row_scan *s)
{
    s->in_header = 0;
    s->header_fields = s->fields;
    s->slot_of = malloc(s->header_fields ? s->header_fields : 1);
    if (!s->slot_of) {
        s->out_of_memory = 1;
        s->header_fields = 0;
        return;
    }
    memset(s->slot_of, -1, s->header_fields);
    for (int c = 0; c < COL_COUNT; c++)
        if (s->column[c] >= 0) {
            s->slot_of[s->column[c]] = (signed char)c;
            if ((size_t)s->column[c] + 1 > s->needed)
                s->needed = (size_t)s->column[c] + 1;
        }
}

/* A dimension field is the entry's: the writer's "%.9g" of a whole number. */
static int same_dimension(const field_text *field, long expected)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(field->text, &end, 10);
    return field->length > 0 && field->length < 32 && !errno && *end == '\0' && value == expected;
}

static int of_the_item(const row_scan *s)
{
    const hb_journal_entry *e = s->entry;
    return same_dimension(&s->row[COL_M], e->mnk.m) && same_dimension(&s->row[COL_N], e->mnk.n) &&
           same_dimension(&s->row[COL_K], e->mnk.k);
}

/* --- the messages ------------------------------------------------------------------------ */

/* Text from the folder, fit for a message on a terminal: control bytes shown as '?'. */
static void printable(char *out, size_t size, const char *text, size_t limit)
{
    size_t n = 0;
    for (; text[n] && n < limit && n + 1 < size; n++)
        out[n] = (unsigned char)text[n] < 0x20 || text[n] == 0x7f ? '?' : text[n];
    out[n] = '\0';
}

/* "passed", "incorrect (deviation)", "crashed". */
static void describe(char *out, size_t size, const char *verdict, const char *check)
{
    char v[48], c[48];
    printable(v, sizeof v, verdict, 40);
    printable(c, sizeof c, check, 40);
    if (!strcmp(verdict, "pass"))
        snprintf(out, size, "passed");
    else
        snprintf(out, size, *c ? "%s (%s)" : "%s", v, c);
}

static void config_name(const hb_journal_entry *e, char *out, size_t size)
{
    snprintf(out, size, "%ld_%ld_%ld %s", e->mnk.m, e->mnk.n, e->mnk.k, hb_mode_name(e->mode));
}

/* A row too short to hold the columns, or of another configuration. */
static hb_status row_fault(const hb_sweep_files *f, const row_scan *s, size_t line)
{
    const hb_journal_entry *e = s->entry;
    char name[96];
    config_name(e, name, sizeof name);
    if (s->fields < s->needed)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:%zu: the row ends after %zu of the header's %zu fields (it is one of "
                       "the rows of item %zu, %s, that %s:%ld vouches for): the folder was edited or damaged",
                       f->csv_path, line, s->fields, s->header_fields, e->item, name, f->journal_path, e->line);
    char m[40], n[40], k[40];
    printable(m, sizeof m, s->row[COL_M].text, 32);
    printable(n, sizeof n, s->row[COL_N].text, 32);
    printable(k, sizeof k, s->row[COL_K].text, 32);
    return hb_fail(HB_ERR_BAD_RESULTS, "%s:%zu: a row of %s_%s_%s, but %s:%ld says the rows there are item %zu's "
                   "(%s): the folder was edited or damaged", f->csv_path, line, m, n, k, f->journal_path, e->line,
                   e->item, name);
}

static hb_status candidate_fault(const hb_sweep_files *f, const row_scan *s, size_t first_line, size_t last_line)
{
    const hb_journal_entry *e = s->entry;
    char name[96];
    config_name(e, name, sizeof name);
    if (s->candidates == 0)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:%zu-%zu: the rows of item %zu (%s), which %s:%ld vouches for, have no "
                       "candidate row (role \"candidate\", which carries the verdict): the folder was edited or "
                       "damaged", f->csv_path, first_line, last_line, e->item, name, f->journal_path, e->line);
    return hb_fail(HB_ERR_BAD_RESULTS, "%s:%zu: a second candidate row among the rows of item %zu (%s), which %s:%ld "
                   "vouches for (the first is line %zu): the folder was edited or damaged", f->csv_path,
                   s->second_candidate_line, e->item, name, f->journal_path, e->line, s->candidate_line);
}

/* The candidate row's verdict, check and reason are the journal line's. */
static hb_status hold_outcome(const hb_sweep_files *f, const row_scan *s)
{
    const hb_journal_entry *e = s->entry;
    const field_text *row = s->candidate;
    const int same_verdict = field_is(&row[COL_VERDICT], e->verdict) && field_is(&row[COL_CHECK], e->check);
    if (same_verdict && field_is(&row[COL_REASON], e->reason))
        return HB_OK;
    char name[96], said[160], written[160];
    config_name(e, name, sizeof name);
    describe(said, sizeof said, e->verdict, e->check);
    describe(written, sizeof written, row[COL_VERDICT].text, row[COL_CHECK].text);
    if (same_verdict) {
        char a[72], b[72];
        printable(a, sizeof a, e->reason, 60);
        printable(b, sizeof b, row[COL_REASON].text, 60);
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:%ld says item %zu (%s) %s because \"%s\"; %s:%zu says because \"%s\": "
                       "the folder was edited or damaged", f->journal_path, e->line, e->item, name, said, a,
                       f->csv_path, s->candidate_line, b);
    }
    return hb_fail(HB_ERR_BAD_RESULTS, "%s:%ld says item %zu (%s) %s; %s:%zu says %s: the folder was edited or damaged",
                   f->journal_path, e->line, e->item, name, said, f->csv_path, s->candidate_line, written);
}

/* --- reading ------------------------------------------------------------------------------ */

static hb_status read_header(struct csv_parser *parser, const hb_sweep_files *f, row_scan *s)
{
    s->in_header = 1;
    for (int c = 0; c < COL_COUNT; c++)
        s->column[c] = -1;
    csv_parse(parser, f->csv, f->header_bytes, on_field, NULL, s);
    csv_fini(parser, NULL, NULL, NULL);
    map_header(s);
    if (s->out_of_memory)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", f->csv_path);
    for (int c = 0; c < COL_COUNT; c++)
        if (s->column[c] < 0)
            return hb_fail(HB_ERR_BAD_RESULTS, "%s:1: the header has no column '%s', so the rows cannot be held to "
                           "%s: not a sweep's summary.csv", f->csv_path, column_names[c], f->journal_path);
    return HB_OK;
}

/* A row's fields up to the last column read (the rest of it is not
 * parsed), fed to the parser a little at a time; the parser is left ready
 * for the next row.  0: malformed CSV. */
enum { PREFIX_CHUNK = 64 }; /* bytes: the columns read fill about 60 of a baseline's row */
static int read_prefix(struct csv_parser *parser, row_scan *s, const char *row, size_t length)
{
    s->fields = 0;
    for (int c = 0; c < COL_COUNT; c++)
        keep(&s->row[c], "", 0);
    for (size_t fed = 0; fed < length && s->fields < s->needed;) {
        const size_t n = length - fed < PREFIX_CHUNK ? length - fed : PREFIX_CHUNK;
        if (csv_parse(parser, row + fed, n, on_field, NULL, s) != n)
            return 0;
        fed += n;
    }
    csv_fini(parser, NULL, NULL, NULL); /* drops the field it stopped in */
    return 1;
}

/* Entry i's rows, [from, to): between the previous line's csv_end (or the
 * header) and its own; `line` is the first one's line in summary.csv. */
static hb_status hold_item(struct csv_parser *parser, const hb_sweep_files *f, size_t i, size_t from, size_t to,
                           size_t line, row_scan *s)
{
    const size_t first_line = line;
    s->entry = &f->entries[i];
    s->candidates = 0;
    for (size_t at = from, end; at < to; at = end) {
        end = row_end(f->csv, at, to);
        const size_t row_line = line;
        line += count_newlines(f->csv + at, end - at);
        if (!read_prefix(parser, s, f->csv + at, end - at)) {
            char name[96];
            config_name(s->entry, name, sizeof name);
            return hb_fail(HB_ERR_BAD_RESULTS, "%s:%zu: malformed CSV (%s) in the rows of item %zu (%s), which %s:%ld "
                           "vouches for: the folder was edited or damaged", f->csv_path, row_line,
                           csv_strerror(csv_error(parser)), s->entry->item, name, f->journal_path, s->entry->line);
        }
        if (s->fields == 0) /* an empty line, which readers pass over */
            continue;
        if (s->fields < s->needed || !of_the_item(s))
            return row_fault(f, s, row_line);
        if (!field_is(&s->row[COL_ROLE], "candidate"))
            continue;
        if (s->candidates++ == 0) {
            memcpy(s->candidate, s->row, sizeof s->candidate);
            s->candidate_line = row_line;
        } else {
            s->second_candidate_line = row_line;
            return candidate_fault(f, s, first_line, line - 1);
        }
    }
    if (s->candidates != 1)
        return candidate_fault(f, s, first_line, line - 1);
    return hold_outcome(f, s);
}

/* Fields as written: libcsv would drop the spaces at a field's ends, and a
 * reason cut at 511 bytes may end in one. */
static int no_space(unsigned char c)
{
    (void)c;
    return 0;
}

hb_status hb_candidate_rows_hold(const hb_sweep_files *f)
{
    if (!f->has_csv || f->count == 0)
        return HB_OK;
    struct csv_parser parser;
    /* strict, as the report reads summary.csv (bench/analysis/csv_reader.c);
     * without CSV_STRICT_FINI, so that csv_fini always readies it for the
     * next row, a quote left open at a row's end being found by the one
     * that ends there (row_end) */
    if (csv_init(&parser, CSV_STRICT | CSV_REPALL_NL) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot set up the CSV parser");
    csv_set_space_func(&parser, no_space);
    static row_scan scan;
    memset(&scan, 0, sizeof scan);
    hb_status status = read_header(&parser, f, &scan);
    size_t line = 2; /* the header is one line: check_header found its newline */
    for (size_t i = 0, from = f->header_bytes; status == HB_OK && i < f->count; i++) {
        const size_t to = (size_t)f->entries[i].csv_end;
        status = hold_item(&parser, f, i, from, to, line, &scan);
        line += count_newlines(f->csv + from, to - from);
        from = to;
    }
    csv_free(&parser);
    free(scan.slot_of);
    return status;
}
