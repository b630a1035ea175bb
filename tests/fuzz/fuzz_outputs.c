/* What a command wrote, held to what it must be: a published set whole and
 * of one run, no temporary left behind, the text escaped (markdown, CSV,
 * gnuplot), the figures finite, no canary made by a hostile string. */
#define _XOPEN_SOURCE 700
#include <csv.h>
#include <ctype.h>
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

static int ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n >= s && !strcmp(name + n - s, suffix);
}

static int is_figure_file(const char *name)
{
    /* .txt: a figure's caption (where a speedup comes from) */
    return ends_with(name, ".png") || ends_with(name, ".svg") || ends_with(name, ".dat") || ends_with(name, ".gp") ||
           ends_with(name, ".txt");
}

static int regular(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int fuzz_json_whole(const char *path)
{
    json_t *root = regular(path) ? json_load_file(path, JSON_ALLOW_NUL, NULL) : NULL;
    json_decref(root);
    return root != NULL;
}

/* --- the list of a published set -------------------------------------------------------------- */

#define MAX_NAMES 256

typedef struct name_list {
    char *text; /* the list's bytes, cut into names */
    const char *names[MAX_NAMES];
    size_t count;
} name_list;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names `folder`/.hgemm-OWNER.files gives (the last word of each line:
 * "sha256 bytes name"; '#' lines are its header), sorted, figures left out
 * unless `figures`.  0, or -1 where there is no list. */
static int read_list(const char *folder, const char *owner, int figures, name_list *list)
{
    char path[FUZZ_PATH], name[64];
    snprintf(name, sizeof name, ".hgemm-%s.files", owner);
    fuzz_join(path, folder, name);
    size_t size;
    list->count = 0;
    list->text = fuzz_read_file(path, &size);
    if (!list->text)
        return -1;
    for (char *save = NULL, *line = strtok_r(list->text, "\n", &save); line && list->count < MAX_NAMES;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *name = strrchr(line, ' ');
        name = name ? name + 1 : line;
        if (name[0] && (figures || !is_figure_file(name)))
            list->names[list->count++] = name;
    }
    qsort(list->names, list->count, sizeof list->names[0], by_name);
    return 0;
}

static int same_bytes(const char *a, const char *b)
{
    size_t size_a, size_b;
    char *x = fuzz_read_file(a, &size_a), *y = fuzz_read_file(b, &size_b);
    int same = x && y && size_a == size_b && !memcmp(x, y, size_a);
    free(x);
    free(y);
    return same;
}

int fuzz_published_is(const char *folder, const char *owner, const char *reference, char *why, size_t why_size)
{
    name_list ours, theirs;
    int have = read_list(folder, owner, 0, &ours), had = read_list(reference, owner, 0, &theirs);
    int same = have == 0 && had == 0 && ours.count == theirs.count;
    snprintf(why, why_size, "%s", have ? "no list of what was published" : "its list names other files");
    for (size_t i = 0; same && i < ours.count; i++)
        same = !strcmp(ours.names[i], theirs.names[i]);
    for (size_t i = 0; same && i < theirs.count; i++) {
        char mine[FUZZ_PATH], model[FUZZ_PATH];
        fuzz_join(mine, folder, theirs.names[i]);
        fuzz_join(model, reference, theirs.names[i]);
        same = same_bytes(mine, model);
        if (!same)
            snprintf(why, why_size, "%s is not the one of that set", theirs.names[i]);
    }
    free(ours.text);
    free(theirs.text);
    return same;
}

/* A PNG ends with its IEND chunk, an SVG with its closing tag, a script and
 * its data with a newline: a figure cut short does not. */
static const char *figure_fault(const char *path)
{
    static const unsigned char png_head[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const unsigned char png_tail[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    size_t size;
    char *data = fuzz_read_file(path, &size);
    const char *fault = NULL;
    if (!data || (size == 0 && !ends_with(path, ".dat")))
        fault = "empty";
    else if (size == 0)
        fault = NULL; /* a figure's data may be empty: no outlier to label */
    else if (ends_with(path, ".png") &&
             (size < 20 || memcmp(data, png_head, 8) || memcmp(data + size - 12, png_tail, 12)))
        fault = "not a whole PNG (no IEND chunk at its end)";
    else if (ends_with(path, ".svg")) {
        while (size > 0 && isspace((unsigned char)data[size - 1]))
            size--;
        if (size < 6 || memcmp(data + size - 6, "</svg>", 6))
            fault = "not a whole SVG (no </svg> at its end)";
    } else if ((ends_with(path, ".gp") || ends_with(path, ".dat") || ends_with(path, ".txt")) && data[size - 1] != '\n')
        fault = "cut short (no newline at its end)";
    free(data);
    return fault;
}

void fuzz_check_listed(const char *folder, const char *owner, fuzz_outcome *out)
{
    name_list list;
    if (read_list(folder, owner, 1, &list) != 0)
        return fuzz_broke(out, "exit 0, but %s has no .hgemm-%s.files", folder, owner);
    for (size_t i = 0; i < list.count && !out->failed; i++) {
        char path[FUZZ_PATH];
        fuzz_join(path, folder, list.names[i]);
        const char *fault = NULL;
        if (!regular(path))
            fault = "missing or not a regular file";
        else if (is_figure_file(list.names[i]))
            fault = figure_fault(path);
        if (fault)
            fuzz_broke(out, "exit 0, but the published %s/%s is %s", folder, list.names[i], fault);
    }
    free(list.text);
}

void fuzz_check_no_leftovers(const char *folder, fuzz_outcome *out)
{
    DIR *d = opendir(folder);
    struct dirent *e;
    while (d && (e = readdir(d)) && !out->failed) {
        const char *name = e->d_name;
        if (name[0] != '.' || !strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, ".hgemm-lock") ||
            !strcmp(name, ".hgemm-report.files") || !strcmp(name, ".hgemm-compare.files"))
            continue;
        fuzz_broke(out, "%s/%s was left behind (a staging folder or temporary)", folder, name);
    }
    if (d)
        closedir(d);
}

/* --- hostile text ------------------------------------------------------------------------------ */

/* The marker every hostile string carries (tests/fuzz/fuzz_hostile.c). */
#define MARK "HOSTILE"

/* The '|' of a markdown table line that separate cells (not one escaped as \|). */
static size_t cell_bars(const char *line, size_t length)
{
    size_t bars = 0;
    for (size_t i = 0; i < length; i++)
        if (line[i] == '\\')
            i++;
        else if (line[i] == '|')
            bars++;
    return bars;
}

/* A markdown file: no heading (outside a fenced block) holds hostile text
 * (the harness's own headings name no value read from a folder), no raw
 * <script>, and every line of a table has its header's cells. */
static const char *markdown_fault(const char *text, size_t size, long *line_number)
{
    int fenced = 0;
    size_t table_bars = 0;
    *line_number = 0;
    for (size_t at = 0; at < size;) {
        const char *line = text + at, *end = memchr(line, '\n', size - at);
        size_t length = end ? (size_t)(end - line) : size - at;
        at += length + 1;
        ++*line_number;
        size_t i = 0;
        while (i < length && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            i++;
        if (length - i >= 3 && !memcmp(line + i, "```", 3)) {
            fenced = !fenced;
            continue;
        }
        if (fenced)
            continue;
        if (i < length && line[i] == '#')
            for (size_t j = i; j + strlen(MARK) <= length; j++)
                if (!memcmp(line + j, MARK, strlen(MARK)))
                    return "a heading that holds hostile text (a line break got through)";
        if (i < length && line[i] == '|') {
            size_t bars = cell_bars(line + i, length - i);
            if (table_bars == 0)
                table_bars = bars;
            else if (bars != table_bars)
                return "a table row with more or fewer cells than its header (a '|' not escaped)";
        } else {
            table_bars = 0;
        }
    }
    for (size_t i = 0; i + 7 <= size; i++)
        if (!strncasecmp(text + i, "<script", 7))
            return "a raw <script> tag";
    return NULL;
}

/* A CSV cell a spreadsheet would take for a formula: it begins with = + - @
 * and is not a number. */
static int formula(const char *cell, size_t length)
{
    if (length == 0 || !strchr("=+-@", cell[0]))
        return 0;
    char copy[128];
    if (length >= sizeof copy)
        return 1;
    memcpy(copy, cell, length);
    copy[length] = '\0';
    char *end;
    strtod(copy, &end);
    return end == copy || *end != '\0';
}

/* The finite figures: a cell or word that reads as infinite or NaN. */
static int non_finite(const char *cell, size_t length)
{
    char copy[64];
    while (length > 0 && (*cell == ' ' || *cell == '+' || *cell == '-')) {
        cell++;
        length--;
    }
    while (length > 0 && strchr(" %x", cell[length - 1]))
        length--;
    if (length == 0 || length >= sizeof copy)
        return 0;
    memcpy(copy, cell, length);
    copy[length] = '\0';
    return !strcasecmp(copy, "inf") || !strcasecmp(copy, "infinity") || !strcasecmp(copy, "nan");
}

typedef struct cell_scan {
    int checks;
    long row;
    const char *fault;
    long fault_row;
} cell_scan;

static void on_cell(void *data, size_t length, void *context)
{
    cell_scan *scan = context;
    const char *cell = data ? data : "";
    if (scan->fault)
        return;
    if ((scan->checks & FUZZ_CHECK_HOSTILE) && formula(cell, length))
        scan->fault = "a cell a spreadsheet takes for a formula (it begins with = + - or @)";
    else if ((scan->checks & FUZZ_CHECK_FINITE) && non_finite(cell, length))
        scan->fault = "a cell that is inf or nan";
    if (scan->fault)
        scan->fault_row = scan->row;
}

static void on_record(int terminator, void *context)
{
    (void)terminator;
    ((cell_scan *)context)->row++;
}

static const char *csv_fault(const char *text, size_t size, int checks, long *row)
{
    struct csv_parser parser;
    cell_scan scan = {checks, 1, NULL, 0};
    if (csv_init(&parser, 0) != 0)
        return "cannot set up the CSV parser";
    csv_parse(&parser, text, size, on_cell, on_record, &scan);
    csv_fini(&parser, on_cell, on_record, &scan);
    csv_free(&parser);
    *row = scan.fault_row;
    return scan.fault;
}

/* A gnuplot script: hostile text only inside single-quoted strings, where
 * gnuplot substitutes nothing (no backquotes, no macros); never bare, in a
 * double-quoted string or a comment. */
static const char *gnuplot_fault(const char *text, size_t size, long *line_number)
{
    enum { BARE, SINGLE, DOUBLE, COMMENT } state = BARE;
    *line_number = 1;
    for (size_t i = 0; i < size; i++) {
        const char c = text[i];
        if (c == '\n') {
            ++*line_number;
            state = BARE; /* a string or comment never goes on past its line */
            continue;
        }
        if (state != SINGLE && size - i >= strlen(MARK) && !memcmp(text + i, MARK, strlen(MARK)))
            return state == DOUBLE ? "hostile text in a double-quoted string (gnuplot substitutes backquotes "
                                     "and macros there)"
                   : state == COMMENT ? "hostile text in a comment"
                                      : "hostile text outside any string (gnuplot would run it)";
        if (state == BARE && c == '\'')
            state = SINGLE;
        else if (state == BARE && c == '"')
            state = DOUBLE;
        else if (state == BARE && c == '#')
            state = COMMENT;
        else if (state == SINGLE && c == '\'') {
            if (i + 1 < size && text[i + 1] == '\'')
                i++; /* '' is a quote inside the string */
            else
                state = BARE;
        } else if (state == DOUBLE && c == '\\')
            i++;
        else if (state == DOUBLE && c == '"')
            state = BARE;
    }
    return NULL;
}

/* A string of a JSON output that reads as infinite or NaN (a real can be neither). */
static int json_non_finite(const json_t *value)
{
    const char *key;
    json_t *member;
    size_t i;
    if (json_is_string(value))
        return non_finite(json_string_value(value), json_string_length(value));
    if (json_is_object(value))
        json_object_foreach((json_t *)value, key, member) if (json_non_finite(member)) return 1;
    if (json_is_array(value))
        json_array_foreach(value, i, member) if (json_non_finite(member)) return 1;
    return 0;
}

/* Words of a markdown table's cells that read as infinite or NaN. */
static const char *markdown_figures_fault(const char *text, size_t size, long *line_number)
{
    *line_number = 0;
    for (size_t at = 0; at < size;) {
        const char *line = text + at, *end = memchr(line, '\n', size - at);
        size_t length = end ? (size_t)(end - line) : size - at;
        at += length + 1;
        ++*line_number;
        if (length == 0 || line[0] != '|')
            continue;
        for (size_t i = 0; i < length;) {
            size_t word = strcspn(line + i, " |()\n");
            if (word > length - i)
                word = length - i;
            if (non_finite(line + i, word))
                return "a table figure that is inf or nan";
            i += word + 1;
        }
    }
    return NULL;
}

static void check_file(const char *path, int checks, fuzz_outcome *out)
{
    size_t size;
    char *text = fuzz_read_file(path, &size);
    long line = 0;
    const char *fault = NULL;
    if (!text)
        return;
    if (ends_with(path, ".md")) {
        if (checks & FUZZ_CHECK_HOSTILE)
            fault = markdown_fault(text, size, &line);
        if (!fault && (checks & FUZZ_CHECK_FINITE))
            fault = markdown_figures_fault(text, size, &line);
    } else if (ends_with(path, ".csv")) {
        fault = csv_fault(text, size, checks, &line);
    } else if (ends_with(path, ".gp") && (checks & FUZZ_CHECK_HOSTILE)) {
        fault = gnuplot_fault(text, size, &line);
    } else if (ends_with(path, ".json") && (checks & FUZZ_CHECK_FINITE)) {
        json_t *root = json_loadb(text, size, JSON_ALLOW_NUL, NULL);
        fault = !root ? "not valid JSON" : json_non_finite(root) ? "a figure that is inf or nan" : NULL;
        json_decref(root);
    }
    if (fault)
        fuzz_broke(out, "%s, line %ld: %s", path, line, fault);
    free(text);
}

void fuzz_check_text(const char *folder, int checks, fuzz_outcome *out)
{
    DIR *d = opendir(folder);
    struct dirent *e;
    while (d && (e = readdir(d)) && !out->failed) {
        char path[FUZZ_PATH];
        if (e->d_name[0] == '.')
            continue;
        fuzz_join(path, folder, e->d_name);
        if (regular(path))
            check_file(path, checks, out);
    }
    if (d)
        closedir(d);
}

void fuzz_check_canaries(const char *dir, fuzz_outcome *out)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) && !out->failed)
        if (!strncmp(e->d_name, FUZZ_CANARY, strlen(FUZZ_CANARY)))
            fuzz_broke(out, "%s/%s exists: a hostile string ran a command", dir, e->d_name);
    if (d)
        closedir(d);
}
