#define _GNU_SOURCE /* memmem */
#include "bench/analysis/ncu_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/csv_reader.h"
#include "bench/core/diag.h"

enum { COL_ID, COL_KERNEL, COL_GRID, COL_BLOCK, COL_RANGE, COL_FIXED };
#define N_WANTED (COL_FIXED + HB_N_PROFILE_METRICS)

typedef struct parse_state {
    hb_profile_record *out;
    const char *participant;
    int unusable[HB_N_PROFILE_METRICS]; /* no column, or another unit than the table's */
    double scale[HB_N_PROFILE_METRICS]; /* the unit row's unit in the table's: 1000 for a time in us */
    char unit_note[200];
} parse_state;

int hb_ncu_range_participant(const char *cell, char *out, size_t size)
{
    const char *quote = cell ? strchr(cell, '"') : NULL;
    const char *name = quote ? strchr(quote, ':') : NULL; /* after the domain */
    if (!name || strncmp(name + 1, HB_PROFILE_RANGE_PREFIX, strlen(HB_PROFILE_RANGE_PREFIX)))
        return 0;
    name += 1 + strlen(HB_PROFILE_RANGE_PREFIX);
    size_t length = strcspn(name, ":\"");
    if (length == 0 || length >= size)
        return 0;
    memcpy(out, name, length);
    out[length] = '\0';
    return 1;
}

/* "214,292" is 214292; "" or "n/a" is NaN. */
static double number(const char *text)
{
    char digits[64];
    size_t n = 0;
    for (const char *c = text; c && *c && n + 1 < sizeof digits; c++)
        if (*c != ',' && *c != ' ')
            digits[n++] = *c;
    digits[n] = '\0';
    char *end = NULL;
    double value = n ? strtod(digits, &end) : NAN;
    return n && end && *end == '\0' ? value : NAN;
}

static void copy_cell(char *out, size_t size, const char *text)
{
    snprintf(out, size, "%s", text ? text : "");
}

/* A time's unit in ns: ncu spells them "ns" or "nsecond" and scales them
 * ("usecond") on some pages and versions; 0 for anything else. */
static double time_scale(const char *unit)
{
    static const struct { const char *unit; double ns; } units[] = {
        {"ns", 1}, {"nsecond", 1}, {"us", 1e3}, {"usecond", 1e3}, {"ms", 1e6}, {"msecond", 1e6}, {"s", 1e9},
        {"second", 1e9}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(unit, units[i].unit))
            return units[i].ns;
    return 0;
}

/* The units row: a metric in another unit than the table's is not read (a
 * "Kbyte/block" read as bytes would be wrong by 1000), except a time, scaled. */
static void check_units(parse_state *s, const hb_csv_row *row)
{
    for (int m = 0; m < HB_N_PROFILE_METRICS; m++) {
        const char *unit = row->text[COL_FIXED + m];
        if (s->unusable[m] || !unit || !strcmp(unit, hb_profile_metrics[m].unit))
            continue;
        if (m == HB_PROFILE_DURATION_NS && time_scale(unit) > 0) {
            s->scale[m] = time_scale(unit);
            continue;
        }
        s->unusable[m] = 1;
        size_t used = strlen(s->unit_note);
        snprintf(s->unit_note + used, sizeof s->unit_note - used, "%s%s in \"%s\", not \"%s\"", used ? "; " : "",
                 hb_profile_metrics[m].key, unit, hb_profile_metrics[m].unit);
    }
}

static hb_status read_row(void *context, const hb_csv_row *row)
{
    parse_state *s = context;
    if (!row->text[COL_ID] || !row->text[COL_ID][0]) {
        check_units(s, row);
        return HB_OK;
    }
    char named[64];
    if (hb_ncu_range_participant(row->text[COL_RANGE], named, sizeof named) && strcmp(named, s->participant))
        return HB_OK; /* another participant's range: its own ncu process reports it */
    hb_profile_record *out = s->out;
    if (out->count == HB_PROFILE_MAX_KERNELS) {
        out->dropped++;
        return HB_OK;
    }
    hb_kernel_profile *k = &out->kernels[out->count++];
    memset(k, 0, sizeof *k);
    copy_cell(k->participant, sizeof k->participant, s->participant);
    copy_cell(k->kernel, sizeof k->kernel, row->text[COL_KERNEL]);
    copy_cell(k->grid, sizeof k->grid, row->text[COL_GRID]);
    copy_cell(k->block, sizeof k->block, row->text[COL_BLOCK]);
    for (int m = 0; m < HB_N_PROFILE_METRICS; m++)
        k->value[m] = s->unusable[m] ? NAN : number(row->text[COL_FIXED + m]) * s->scale[m];
    return HB_OK;
}

/* The header line's column that holds "Push/Pop_Range" (its name, without quotes), into `out`; "" when none. */
static void range_column(const char *header, size_t length, char *out, size_t size)
{
    out[0] = '\0';
    for (const char *field = header; field < header + length && (field = memchr(field, '"', header + length - field));) {
        const char *end = memchr(field + 1, '"', header + length - field - 1);
        if (!end)
            return;
        size_t n = (size_t)(end - field - 1);
        if (n < size && memmem(field + 1, n, "Push/Pop_Range", 14)) {
            memcpy(out, field + 1, n);
            out[n] = '\0';
            return;
        }
        field = end + 1;
    }
}

/* From the header on, the lines that start with a quote: the table without ncu's or the program's lines. */
static char *table_lines(const char *text, size_t length, size_t *table_length, const char **header,
                         size_t *header_length)
{
    char *table = malloc(length + 2);
    size_t used = 0;
    *header = NULL;
    for (size_t at = 0; table && at < length;) {
        const char *line = text + at;
        const char *newline = memchr(line, '\n', length - at);
        size_t n = newline ? (size_t)(newline - line) + 1 : length - at;
        if (!*header && n >= 4 && !strncmp(line, "\"ID\"", 4)) {
            *header = line;
            *header_length = n;
        }
        if (*header && line[0] == '"') {
            memcpy(table + used, line, n);
            used += n;
        }
        at += n;
    }
    *table_length = used;
    return table;
}

static void note_missing(const parse_state *s, hb_profile_record *out)
{
    size_t used = strlen(out->missing);
    for (int m = 0; m < HB_N_PROFILE_METRICS; m++) {
        if (!s->unusable[m] || strstr(out->missing, hb_profile_metrics[m].key))
            continue;
        int n = snprintf(out->missing + used, sizeof out->missing - used, "%s%s", used ? "," : "",
                         hb_profile_metrics[m].key);
        used += n > 0 && (size_t)n < sizeof out->missing - used ? (size_t)n : 0;
    }
    if (s->unit_note[0] && !strstr(out->note, s->unit_note)) {
        size_t at = strlen(out->note);
        snprintf(out->note + at, sizeof out->note - at, "%s%s", at ? "; " : "", s->unit_note);
    }
}

hb_status hb_ncu_csv_parse(const char *path, const char *text, size_t length, const char *participant,
                           hb_profile_record *out)
{
    size_t table_length = 0, header_length = 0;
    const char *header = NULL;
    char *table = table_lines(text, length, &table_length, &header, &header_length);
    if (!table)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", path);
    if (!header) {
        free(table);
        return hb_fail(HB_ERR_BAD_RESULTS, "%s holds no ncu CSV table (no line starts with \"ID\")", path);
    }
    char range[160];
    range_column(header, header_length, range, sizeof range);
    const char *wanted[N_WANTED] = {"ID", "Kernel Name", "Grid Size", "Block Size", range[0] ? range : "Push/Pop_Range"};
    unsigned char optional[N_WANTED] = {0, 0, 0, 0, 1};
    for (int m = 0; m < HB_N_PROFILE_METRICS; m++) {
        wanted[COL_FIXED + m] = hb_profile_metrics[m].ncu_name;
        optional[COL_FIXED + m] = 1;
    }
    parse_state s = {.out = out, .participant = participant};
    /* A metric ncu does not know is left out of the table without an error: its column is missing. */
    for (int m = 0; m < HB_N_PROFILE_METRICS; m++) {
        const char *name = hb_profile_metrics[m].ncu_name;
        char quoted[160];
        snprintf(quoted, sizeof quoted, "\"%s\"", name);
        s.unusable[m] = !memmem(header, header_length, quoted, strlen(quoted));
        s.scale[m] = 1;
    }
    hb_csv_spec spec = {.what = "Nsight Compute's CSV (--csv --page raw)", .wanted = wanted, .n_wanted = N_WANTED,
                        .optional = optional, .lenient_last_newline = 1, .row = read_row, .context = &s};
    hb_status status = hb_csv_read_text(path, table, table_length, &spec);
    free(table);
    note_missing(&s, out);
    return status;
}
