#define _POSIX_C_SOURCE 200809L /* fileno */
#include "bench/import/import_report.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/csv_text.h"
#include "bench/core/diag.h"
#include "bench/core/out_file.h"

static const char *const state_names[] = {"selected", "skipped", "cached", "built", "failed", "pending", "unfinished"};

const char *hb_item_state_name(hb_item_state state)
{
    return state_names[state];
}

/* The report's columns, in order: a header and a way to write the cell. */
typedef void (*cell_fn)(const hb_import_item *item, char *out, size_t size);

static void cell_m(const hb_import_item *i, char *o, size_t s) { snprintf(o, s, "%ld", i->mnk.m); }
static void cell_n(const hb_import_item *i, char *o, size_t s) { snprintf(o, s, "%ld", i->mnk.n); }
static void cell_k(const hb_import_item *i, char *o, size_t s) { snprintf(o, s, "%ld", i->mnk.k); }
static void cell_file(const hb_import_item *i, char *o, size_t s) { snprintf(o, s, "%s", i->source); }
static void cell_kind(const hb_import_item *i, char *o, size_t s)
{
    snprintf(o, s, "%s", i->scan.entry[0] ? i->scan.kind : "");
}
static void cell_hopper(const hb_import_item *i, char *o, size_t s) { snprintf(o, s, "%s", i->scan.features); }
static void cell_state(const hb_import_item *i, char *o, size_t s) { snprintf(o, s, "%s", hb_item_state_name(i->state)); }
static void cell_forms(const hb_import_item *i, char *o, size_t s)
{
    int built = i->state == HB_ITEM_BUILT || i->state == HB_ITEM_CACHED;
    snprintf(o, s, "%s", !built ? "" : i->outcome.cubin ? "launcher,cubin" : "launcher");
}
static void cell_launches(const hb_import_item *i, char *o, size_t s)
{
    snprintf(o, s, "%s", "");
    if (i->outcome.built)
        snprintf(o, s, "%ld", i->launches.launches_per_call);
}
static void cell_no_cubin(const hb_import_item *i, char *o, size_t s)
{
    snprintf(o, s, "%s", i->outcome.built && !i->outcome.cubin ? i->cubin.reason : "");
}
static void cell_reason(const hb_import_item *i, char *o, size_t s) { snprintf(o, s, "%s", i->reason); }
static void cell_seconds(const hb_import_item *i, char *o, size_t s)
{
    snprintf(o, s, "%.1f", i->outcome.seconds);
}
static void cell_key(const hb_import_item *i, char *o, size_t s) { snprintf(o, s, "%s", i->key); }
static void cell_failure(const hb_import_item *i, char *o, size_t s)
{
    snprintf(o, s, "%s", i->state == HB_ITEM_FAILED && i->failure.name ? i->failure.name : "");
}
static void cell_api(const hb_import_item *i, char *o, size_t s)
{
    snprintf(o, s, "%s", i->state == HB_ITEM_FAILED ? i->failure.api : "");
}
static void cell_toolkit(const hb_import_item *i, char *o, size_t s) { snprintf(o, s, "%s", i->toolkit); }
static void cell_mma(const hb_import_item *i, char *o, size_t s)
{
    snprintf(o, s, "%s", "");
    if (i->mma_audited)
        hb_mma_audit_format(&i->mma, o, s);
}

/* A column of numbers is written as it is; a column of text is guarded
 * against formulas (bench/core/csv_text.h): a file's name, a build's error
 * line or a path may start with anything. */
enum { NUMBER, TEXT };

static const struct {
    const char *name;
    cell_fn cell;
    int kind;
} columns[] = {
    {"m", cell_m, NUMBER},         {"n", cell_n, NUMBER},
    {"k", cell_k, NUMBER},         {"file", cell_file, TEXT},
    {"kind", cell_kind, TEXT},     {"hopper_features", cell_hopper, TEXT},
    {"state", cell_state, TEXT},   {"forms", cell_forms, TEXT},
    {"launches_per_call", cell_launches, NUMBER}, {"no_cubin_because", cell_no_cubin, TEXT},
    {"reason", cell_reason, TEXT}, {"build_seconds", cell_seconds, NUMBER},
    {"cache_key", cell_key, TEXT},
    /* added for issue 23: new columns go at the end, so the earlier ones keep their positions */
    {"failure_class", cell_failure, TEXT}, {"toolkit_api", cell_api, TEXT},
    {"nvcc", cell_toolkit, TEXT},
    {"mma_accumulators", cell_mma, TEXT},
};
#define N_COLUMNS (sizeof columns / sizeof columns[0])

#define CELL_SIZE 1024 /* a cell's text, cut there */

/* csv_fwrite quotes every field: the guard's quote goes inside it. */
static int write_cell(FILE *f, const char *text, int kind, int last)
{
    char guarded[CELL_SIZE + 1];
    if (kind == TEXT && hb_csv_text_guarded(text)) {
        snprintf(guarded, sizeof guarded, "'%s", text);
        text = guarded;
    }
    if (csv_fwrite(f, text, strlen(text)) != 0)
        return -1;
    return fputc(last ? '\n' : ',', f) == EOF ? -1 : 0;
}

hb_status hb_import_report_write(const char *out_dir, const char *name, const hb_import_item *items, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%.4000s/%.150s", out_dir, name);
    hb_out_file out;
    HB_TRY(hb_out_file_begin(&out, path));
    FILE *f = out.stream;
    int failed = 0;
    for (size_t c = 0; c < N_COLUMNS; c++)
        failed |= write_cell(f, columns[c].name, TEXT, c + 1 == N_COLUMNS);
    char cell[CELL_SIZE];
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < N_COLUMNS; c++) {
            columns[c].cell(&items[i], cell, sizeof cell);
            failed |= write_cell(f, cell, columns[c].kind, c + 1 == N_COLUMNS);
        }
    if (failed) {
        int error = errno;
        hb_out_file_abandon(&out);
        return hb_fail(HB_ERR_IO, "cannot write %s: %s", path, strerror(error));
    }
    return hb_out_file_commit(&out);
}

size_t hb_import_count(const hb_import_item *items, size_t n, hb_item_state state)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += items[i].state == state;
    return count;
}

void hb_import_report_print(FILE *stream, const hb_import_item *items, size_t n)
{
    size_t cubins = 0;
    for (size_t i = 0; i < n; i++)
        cubins += items[i].outcome.built && items[i].outcome.cubin;
    size_t built = hb_import_count(items, n, HB_ITEM_BUILT), cached = hb_import_count(items, n, HB_ITEM_CACHED);
    size_t unfinished = hb_import_count(items, n, HB_ITEM_UNFINISHED);
    fprintf(stream, "import: %zu files: %zu built (%zu from the cache), %zu of them with a cubin form; %zu failed; "
                    "%zu skipped",
            n, built + cached, cached, cubins, hb_import_count(items, n, HB_ITEM_FAILED),
            hb_import_count(items, n, HB_ITEM_SKIPPED));
    if (unfinished)
        fprintf(stream, "; %zu unfinished (interrupted)", unfinished);
    fputc('\n', stream);
    for (size_t i = 0; i < n; i++)
        if (items[i].state == HB_ITEM_FAILED || items[i].state == HB_ITEM_SKIPPED || items[i].state == HB_ITEM_UNFINISHED)
            fprintf(stream, "  %s %s%s%s%s: %s\n", hb_item_state_name(items[i].state), items[i].name,
                    items[i].failure.name && items[i].failure.name[0] ? " [" : "",
                    items[i].failure.name ? items[i].failure.name : "",
                    items[i].failure.name && items[i].failure.name[0] ? "]" : "", items[i].reason);
}
