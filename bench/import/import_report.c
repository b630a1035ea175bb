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

static void cell_predicted(const hb_import_item *i, char *o, size_t s)
{
    snprintf(o, s, "%s", "");
    if (i->predicted_s > 0)
        snprintf(o, s, "%.1f", i->predicted_s);
}
static void cell_peak(const hb_import_item *i, char *o, size_t s)
{
    snprintf(o, s, "%s", "");
    if (i->outcome.peak_rss_mib > 0)
        snprintf(o, s, "%.0f", i->outcome.peak_rss_mib);
}
/* A stage's seconds; empty where the entry does not know them (built before they were kept). */
static void stage_cell(const hb_import_item *i, hb_build_stage stage, char *o, size_t s)
{
    snprintf(o, s, "%s", "");
    if (i->outcome.stages.known)
        snprintf(o, s, "%.1f", i->outcome.stages.seconds[stage]);
}
static void cell_front_end(const hb_import_item *i, char *o, size_t s) { stage_cell(i, HB_STAGE_FRONT_END, o, s); }
static void cell_cicc(const hb_import_item *i, char *o, size_t s) { stage_cell(i, HB_STAGE_CICC, o, s); }
static void cell_ptxas(const hb_import_item *i, char *o, size_t s) { stage_cell(i, HB_STAGE_PTXAS, o, s); }
static void cell_host(const hb_import_item *i, char *o, size_t s) { stage_cell(i, HB_STAGE_HOST, o, s); }
static void cell_other(const hb_import_item *i, char *o, size_t s) { stage_cell(i, HB_STAGE_OTHER, o, s); }
static void cell_link(const hb_import_item *i, char *o, size_t s) { stage_cell(i, HB_STAGE_LINK, o, s); }
static void cell_record(const hb_import_item *i, char *o, size_t s) { stage_cell(i, HB_STAGE_RECORD, o, s); }
static void cell_dominant(const hb_import_item *i, char *o, size_t s)
{
    hb_build_stage stage = hb_build_stages_dominant(&i->outcome.stages);
    snprintf(o, s, "%s", i->outcome.stages.known && stage < HB_STAGE_COUNT ? hb_build_stage_name(stage) : "");
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
    /* where a build's time went, and what the plan predicted of it (docs/importer.md) */
    {"predicted_seconds", cell_predicted, NUMBER}, {"peak_rss_mib", cell_peak, NUMBER},
    {"front_end_seconds", cell_front_end, NUMBER}, {"cicc_seconds", cell_cicc, NUMBER},
    {"ptxas_seconds", cell_ptxas, NUMBER},         {"host_compile_seconds", cell_host, NUMBER},
    {"other_seconds", cell_other, NUMBER},         {"link_seconds", cell_link, NUMBER},
    {"record_seconds", cell_record, NUMBER},       {"dominant_stage", cell_dominant, TEXT},
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

/* "import: build time by stage: cicc 71 %, host compile 16 %, ...; slowest 2048_64_4096, 308 s (cicc)", over the
 * files this import built; nothing when it built none with known stages. */
static void print_stages(FILE *stream, const hb_import_item *items, size_t n)
{
    static const char *const shown[HB_STAGE_COUNT] = {"front end", "cicc", "ptxas", "host compile", "other", "link",
                                                      "record"};
    double sum[HB_STAGE_COUNT] = {0}, total = 0;
    const hb_import_item *slowest = NULL;
    for (size_t i = 0; i < n; i++) {
        int built_here = items[i].predicted_s > 0; /* the plan predicts only the files this import builds */
        if (!built_here || (items[i].state != HB_ITEM_BUILT && items[i].state != HB_ITEM_FAILED) ||
            !items[i].outcome.stages.known)
            continue;
        for (int s = 0; s < HB_STAGE_COUNT; s++)
            sum[s] += items[i].outcome.stages.seconds[s], total += items[i].outcome.stages.seconds[s];
        if (!slowest || items[i].outcome.seconds > slowest->outcome.seconds)
            slowest = &items[i];
    }
    if (!slowest || !(total > 0))
        return;
    fprintf(stream, "import: build time by stage:");
    for (int s = 0; s < HB_STAGE_COUNT; s++)
        fprintf(stream, "%s %s %.0f %%", s ? "," : "", shown[s], 100.0 * sum[s] / total);
    hb_build_stage dominant = hb_build_stages_dominant(&slowest->outcome.stages);
    fprintf(stream, "; slowest %s, %.0f s (%s)\n", slowest->name, slowest->outcome.seconds,
            dominant < HB_STAGE_COUNT ? shown[dominant] : "no stage");
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
    print_stages(stream, items, n);
    for (size_t i = 0; i < n; i++)
        if (items[i].state == HB_ITEM_FAILED || items[i].state == HB_ITEM_SKIPPED || items[i].state == HB_ITEM_UNFINISHED)
            fprintf(stream, "  %s %s%s%s%s: %s\n", hb_item_state_name(items[i].state), items[i].name,
                    items[i].failure.name && items[i].failure.name[0] ? " [" : "",
                    items[i].failure.name ? items[i].failure.name : "",
                    items[i].failure.name && items[i].failure.name[0] ? "]" : "", items[i].reason);
}
