/* A result folder's fields rewritten as a forger would, the folder kept
 * consistent so that the commands read on to the fields: summary.csv's
 * cells (with the journal's csv_end moved in step, so a sweep still
 * vouches for its rows), the journal's text, env.json's strings, and
 * plan.json's command line (through the plan's own writer, so its digest
 * matches). */
#define _XOPEN_SOURCE 700
#include <csv.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sweep/plan_file.h"
#include "tests/fuzz/fuzz.h"

/* --- text grown piece by piece ------------------------------------------------------------------- */

typedef struct text {
    char *data;
    size_t size, room;
} text;

static int grow(text *t, const void *bytes, size_t size)
{
    if (t->size + size + 1 > t->room) {
        size_t room = 2 * (t->size + size + 1);
        char *bigger = realloc(t->data, room);
        if (!bigger)
            return -1;
        t->data = bigger;
        t->room = room;
    }
    memcpy(t->data + t->size, bytes, size);
    t->size += size;
    t->data[t->size] = '\0';
    return 0;
}

/* One field as RFC 4180 writes it: quoted where it must be (libcsv trims
 * blanks around an unquoted field). */
static int grow_field(text *t, const char *field, size_t length)
{
    int quote = length > 0 && (field[0] == ' ' || field[0] == '\t' || field[length - 1] == ' ' ||
                               field[length - 1] == '\t');
    for (size_t i = 0; i < length && !quote; i++)
        quote = field[i] == ',' || field[i] == '"' || field[i] == '\n' || field[i] == '\r';
    if (!quote)
        return grow(t, field, length);
    int failed = grow(t, "\"", 1);
    for (size_t i = 0; i < length && !failed; i++)
        failed = grow(t, field + i, 1) || (field[i] == '"' && grow(t, "\"", 1));
    return failed || grow(t, "\"", 1);
}

/* --- summary.csv ------------------------------------------------------------------------------- */

#define MAX_COLUMNS 512

/* A record as libcsv hands it over: its fields' bytes one after the other
 * in `bytes` (each ended by a NUL), where each begins. */
typedef struct record {
    text bytes;
    size_t starts[MAX_COLUMNS], lengths[MAX_COLUMNS], count;
    int done;    /* the parser has seen its end */
    int failed;  /* out of memory */
} record;

static void on_field(void *data, size_t length, void *context)
{
    record *r = context;
    if (r->count == MAX_COLUMNS)
        return;
    r->starts[r->count] = r->bytes.size;
    r->lengths[r->count++] = length;
    r->failed |= grow(&r->bytes, data ? data : "", length) || grow(&r->bytes, "", 1);
}

static void on_end(int terminator, void *context)
{
    (void)terminator;
    ((record *)context)->done = 1;
}

static void clear(record *r)
{
    r->bytes.size = 0;
    r->count = 0;
    r->done = 0;
}

/* The header's names, in place in `header` (its first line, which the
 * harness writes without quotes). */
static size_t column_names(char *header, const char **names)
{
    size_t n = 0;
    for (char *save = NULL, *name = strtok_r(header, ",\r", &save); name && n < MAX_COLUMNS;
         name = strtok_r(NULL, ",\r", &save))
        names[n++] = name;
    return n;
}

typedef struct boundary {
    size_t old_end, new_end;
} boundary;

/* A record whose fields the editor changed, written again; else its own bytes. */
static int write_record(text *out, record *r, size_t row, const char *const *names, size_t n_names,
                        fuzz_cell_edit edit, void *context, const char *original, size_t original_size)
{
    static text edited; /* the record as written again, when a field changed */
    int changed = 0, failed = r->failed;
    edited.size = 0;
    for (size_t i = 0; i < r->count && !failed; i++) {
        const char *field = r->bytes.data + r->starts[i];
        size_t length = r->lengths[i];
        const char *replaced = i < n_names ? edit(context, row, names[i], field, &length) : NULL;
        changed |= replaced != NULL;
        failed = (i && grow(&edited, ",", 1)) ||
                 grow_field(&edited, replaced ? replaced : field, replaced ? length : r->lengths[i]);
    }
    if (failed || !changed)
        return failed || grow(out, original, original_size);
    return grow(out, edited.data, edited.size) || grow(out, "\n", 1);
}

/* Moves each journal line's csv_end from where its item's rows ended to where they end now. */
static int move_csv_ends(const char *journal_path, const boundary *ends, size_t n_ends)
{
    size_t size;
    char *journal = fuzz_read_file(journal_path, &size);
    if (!journal)
        return 0; /* none, or not a regular file: nothing vouches */
    text out = {0};
    const char *key = "\"csv_end\":";
    int failed = 0;
    for (size_t at = 0; at < size && !failed;) {
        const char *found = strstr(journal + at, key);
        if (!found) {
            failed = grow(&out, journal + at, size - at);
            break;
        }
        const char *digits = found + strlen(key);
        char *end;
        unsigned long long old = strtoull(digits, &end, 10);
        failed = grow(&out, journal + at, (size_t)(digits - journal) - at);
        size_t moved = (size_t)old;
        for (size_t i = 0; i < n_ends; i++)
            if (ends[i].old_end == (size_t)old)
                moved = ends[i].new_end;
        char number[32];
        snprintf(number, sizeof number, "%zu", moved);
        failed = failed || grow(&out, number, strlen(number));
        at = (size_t)(end - journal);
    }
    failed = failed || fuzz_write_file(journal_path, out.data ? out.data : "", out.size);
    free(journal);
    free(out.data);
    return failed ? -1 : 0;
}

int fuzz_edit_csv(const char *path, const char *journal, fuzz_cell_edit edit, void *context)
{
    size_t size;
    char *csv = fuzz_read_file(path, &size);
    if (!csv)
        return -1;
    const size_t header_size = strcspn(csv, "\n") + (csv[strcspn(csv, "\n")] == '\n');
    char *header = strndup(csv, header_size);
    const char *names[MAX_COLUMNS];
    const size_t n_names = header ? column_names(header, names) : 0;
    static record r;
    static boundary ends[1 << 14];
    size_t n_ends = 0, row = 0, record_start = header_size;
    struct csv_parser parser;
    text out = {0};
    if (!header || csv_init(&parser, 0) != 0) {
        free(csv);
        free(header);
        return -1;
    }
    int failed = grow(&out, csv, header_size);
    for (size_t at = header_size; at < size && !failed;) {
        const char *newline = memchr(csv + at, '\n', size - at);
        const size_t line_end = newline ? (size_t)(newline - csv) + 1 : size;
        csv_parse(&parser, csv + at, line_end - at, on_field, on_end, &r);
        at = line_end;
        if (at == size && !r.done)
            csv_fini(&parser, on_field, on_end, &r);
        if (!r.done)
            continue;
        failed = write_record(&out, &r, ++row, names, n_names, edit, context, csv + record_start, at - record_start);
        if (n_ends < sizeof ends / sizeof ends[0])
            ends[n_ends++] = (boundary){at, out.size};
        record_start = at;
        clear(&r);
    }
    csv_free(&parser);
    clear(&r);
    free(r.bytes.data);
    r.bytes = (text){0};
    failed = failed || fuzz_write_file(path, out.data ? out.data : "", out.size) ||
             (journal && move_csv_ends(journal, ends, n_ends));
    free(csv);
    free(header);
    free(out.data);
    return failed ? -1 : 0;
}

/* --- JSON -------------------------------------------------------------------------------------- */

/* Where a string must hold bytes that are not UTF-8, which jansson writes
 * no JSON string of, it holds this stand-in, swapped for the bytes once the
 * text is made. */
#define NOT_UTF8_STAND_IN FUZZ_NOT_UTF8
#define NOT_UTF8_BYTES "\xff\xfe\xc3\x28\xed\xa0\x80"

static int dump_json(const json_t *root, size_t flags, text *out)
{
    char *dumped = json_dumps(root, flags);
    if (!dumped)
        return -1;
    int failed = 0;
    for (const char *at = dumped; *at && !failed;) {
        const char *found = strstr(at, NOT_UTF8_STAND_IN);
        size_t plain = found ? (size_t)(found - at) : strlen(at);
        failed = grow(out, at, plain) || (found && grow(out, NOT_UTF8_BYTES, strlen(NOT_UTF8_BYTES)));
        at += plain + (found ? strlen(NOT_UTF8_STAND_IN) : 0);
    }
    free(dumped);
    return failed;
}

/* Every string of `value` (keys aside) offered to `edit`. */
static void edit_strings(json_t *value, const char *key, fuzz_json_edit edit, void *context)
{
    const char *member_key;
    json_t *member;
    size_t i;
    if (json_is_object(value)) {
        json_object_foreach(value, member_key, member) edit_strings(member, member_key, edit, context);
    } else if (json_is_array(value)) {
        json_array_foreach(value, i, member) edit_strings(member, key, edit, context);
    } else if (json_is_string(value)) {
        size_t length;
        const char *replaced = edit(context, key, &length);
        if (replaced)
            json_string_setn_nocheck(value, replaced, length);
    }
}

int fuzz_edit_json_file(const char *path, fuzz_json_edit edit, void *context)
{
    json_t *root = json_load_file(path, 0, NULL);
    if (!root)
        return -1;
    edit_strings(root, "", edit, context);
    text out = {0};
    int failed = dump_json(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER, &out) || grow(&out, "\n", 1) ||
                 fuzz_write_file(path, out.data, out.size);
    json_decref(root);
    free(out.data);
    return failed ? -1 : 0;
}

int fuzz_edit_json_lines(const char *path, fuzz_json_edit edit, void *context)
{
    size_t size;
    char *lines = fuzz_read_file(path, &size);
    if (!lines)
        return -1;
    text out = {0};
    int failed = 0;
    for (size_t at = 0; at < size && !failed;) {
        const char *newline = memchr(lines + at, '\n', size - at);
        const size_t end = newline ? (size_t)(newline - lines) : size;
        json_t *line = json_loadb(lines + at, end - at, 0, NULL);
        if (line) {
            edit_strings(line, "", edit, context);
            failed = dump_json(line, JSON_COMPACT | JSON_PRESERVE_ORDER, &out);
        } else {
            failed = grow(&out, lines + at, end - at); /* not JSON: left as it is */
        }
        json_decref(line);
        failed = failed || (newline && grow(&out, "\n", 1));
        at = end + 1;
    }
    failed = failed || fuzz_write_file(path, out.data ? out.data : "", out.size);
    free(lines);
    free(out.data);
    return failed ? -1 : 0;
}

int fuzz_set_plan_command_line(const char *folder, const char *command_line)
{
    static hb_plan_file plan;
    if (hb_plan_file_read(folder, &plan) != HB_OK)
        return -1;
    snprintf(plan.command_line, sizeof plan.command_line, "%s", command_line);
    return hb_plan_file_write(folder, &plan) == HB_OK ? 0 : -1;
}
