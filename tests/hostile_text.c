#include "tests/hostile_text.h"

#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/result_set.h"
#include "bench/analysis/summary_reader.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

const char *const hb_hostile_texts[HB_HOSTILE_COUNT] = {
    "\n# Heading", "<script>alert(1)</script>", "| a | b |", "`code`", "=HYPERLINK(\"http://x\")",
    "+1",          "-2+3",                      "@SUM(A1)"};

const char *const hb_hostile_all = "=HYPERLINK(\"http://x\")\n# Heading <script>alert(1)</script> | a | b | `code` "
                                   "+1 -2+3 @SUM(A1) *bold* [link](http://x) _x_";

/* Whether text[at] follows an odd run of backslashes: escaped. */
static int escaped(const char *line, size_t at)
{
    size_t run = 0;
    while (run < at && line[at - 1 - run] == '\\')
        run++;
    return run % 2 == 1;
}

static size_t cell_boundaries(const char *line, size_t length)
{
    size_t count = 0;
    for (size_t i = 0; i < length; i++)
        count += line[i] == '|' && !escaped(line, i);
    return count;
}

void hb_test_assert_markdown_inert(const char *path, int own_code_spans)
{
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    if (strstr(text, "<script"))
        fail_msg("%s holds '<script' raw", path);
    size_t header = 0, line_number = 0;
    for (const char *line = text; *line; line_number++) {
        size_t length = strcspn(line, "\n");
        if (line[0] == '#') {
            size_t hashes = strspn(line, "#");
            if (!strncmp(line + hashes + strspn(line + hashes, " "), "Heading", 7))
                fail_msg("%s:%zu: a heading of the data's: %.*s", path, line_number + 1, (int)length, line);
        }
        if (line[0] == '|') {
            size_t count = cell_boundaries(line, length);
            if (!header)
                header = count;
            else if (count != header)
                fail_msg("%s:%zu: %zu cell boundaries where the table's header has %zu: %.*s", path,
                         line_number + 1, count, header, (int)length, line);
        } else {
            header = 0;
        }
        for (size_t i = 0; !own_code_spans && i < length; i++)
            if (line[i] == '`' && !escaped(line, i))
                fail_msg("%s:%zu: a backtick that opens a code span: %.*s", path, line_number + 1, (int)length,
                         line);
        line += length + (line[length] == '\n');
    }
    free(text);
}

typedef struct fields {
    const char *path;
    size_t guarded;
    const char *wanted; /* hb_test_csv_has_field's */
    int found;
    size_t line;
} fields;

static int is_number(const char *text)
{
    char *end = NULL;
    strtod(text, &end);
    return end != text && *end == '\0';
}

static void on_field(void *data, size_t length, void *context)
{
    fields *f = context;
    char *text = malloc(length + 1);
    assert_non_null(text);
    memcpy(text, data ? data : "", length);
    text[length] = '\0';
    if (f->wanted) {
        f->found |= !strcmp(text, f->wanted);
    } else {
        f->guarded += text[0] == '\'';
        if (text[0] && strchr("=+-@\t\r", text[0]) && !is_number(text))
            fail_msg("%s:%zu: a text cell a spreadsheet reads as a formula: %s", f->path, f->line, text);
        for (size_t i = 0; i < HB_HOSTILE_COUNT; i++)
            if (strchr("=+-@", hb_hostile_texts[i][0]) && !strcmp(text, hb_hostile_texts[i]))
                fail_msg("%s:%zu: the hostile text %s unguarded", f->path, f->line, text);
    }
    free(text);
}

static void on_row(int terminator, void *context)
{
    (void)terminator;
    ((fields *)context)->line++;
}

static void parse(const char *path, fields *f)
{
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    struct csv_parser parser;
    assert_int_equal(csv_init(&parser, CSV_STRICT | CSV_REPALL_NL), 0);
    f->line = 1;
    size_t length = strlen(text);
    if (csv_parse(&parser, text, length, on_field, on_row, f) != length)
        fail_msg("%s: not a CSV: %s", path, csv_strerror(csv_error(&parser)));
    csv_fini(&parser, on_field, on_row, f);
    csv_free(&parser);
    free(text);
}

size_t hb_test_assert_csv_inert(const char *path)
{
    fields f = {.path = path};
    parse(path, &f);
    return f.guarded;
}

int hb_test_csv_has_field(const char *path, const char *field)
{
    fields f = {.path = path, .wanted = field};
    parse(path, &f);
    return f.found;
}

void hb_test_read_back_texts(const char *path, const hb_mnk *mnk, hb_mode mode, char *reason, size_t reason_size,
                             char *trace_note, size_t note_size)
{
    static hb_result_set set;
    hb_result_set_init(&set);
    assert_int_equal(hb_read_summary(path, &set), HB_OK);
    hb_config_key key = {mnk->m, mnk->n, mnk->k, mode};
    const hb_config_entry *e = hb_result_set_find(&set, &key);
    if (!e)
        fail_msg("%s has no %ld_%ld_%ld", path, mnk->m, mnk->n, mnk->k);
    snprintf(reason, reason_size, "%s", e->reason ? e->reason : "");
    snprintf(trace_note, note_size, "%s", e->timers.trace_note);
    hb_result_set_free(&set);
}
