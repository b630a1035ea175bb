#define _POSIX_C_SOURCE 200809L
#include "bench/sweep/sweep_files.h"

#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"
#include "bench/report/csv_writer.h"
#include "bench/sweep/candidate_rows.h"

static hb_status read_files(const char *folder, const hb_plan_file *plan, hb_sweep_files *f)
{
    if ((size_t)snprintf(f->journal_path, sizeof f->journal_path, "%s/" HB_JOURNAL_NAME, folder) >=
            sizeof f->journal_path ||
        (size_t)snprintf(f->csv_path, sizeof f->csv_path, "%s/summary.csv", folder) >= sizeof f->csv_path)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s: the path is too long", folder);
    HB_TRY(hb_input_inside_folder(f->journal_path, HB_ERR_BAD_RESULTS));
    HB_TRY(hb_input_inside_folder(f->csv_path, HB_ERR_BAD_RESULTS));
    HB_TRY(hb_journal_read(f->journal_path, &plan->plan, &plan->shard, &f->entries, &f->count, &f->journal_valid,
                           &f->journal_tail, &f->has_journal));
    HB_TRY(hb_input_read(f->csv_path, NULL, HB_SUMMARY_MAX_BYTES, HB_ERR_BAD_RESULTS, 1, &f->csv, &f->csv_size));
    f->has_csv = f->csv != NULL;
    return HB_OK;
}

/* summary.csv's first line: whole, and with a header flag this harness's
 * header, or (HB_SWEEP_FILES_EARLIER_HEADER) an earlier harness's. */
static hb_status check_header(hb_sweep_files *f, int flags)
{
    const char *newline = memchr(f->csv, '\n', f->csv_size);
    if (!newline)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:1: its header line is cut short (no newline): the file was cut or "
                       "replaced", f->csv_path);
    f->header_bytes = (size_t)(newline - f->csv) + 1;
    if (flags & HB_SWEEP_FILES_EARLIER_HEADER)
        return hb_summary_header_read(f->csv_path, f->csv, f->header_bytes, &f->header);
    if (!(flags & HB_SWEEP_FILES_OUR_HEADER))
        return HB_OK;
    HB_TRY(hb_summary_header_is_ours(f->csv, f->header_bytes, &f->header.ours));
    if (!f->header.ours)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:1:1: its header is not this harness's summary.csv header (an earlier "
                       "harness's, another tool's, or edited): this harness appends only to a summary.csv of its "
                       "own columns", f->csv_path);
    return HB_OK;
}

/* Every csv_end lies past the header, within the file, and at the end of a line. */
static hb_status check_csv_ends(const hb_sweep_files *f)
{
    for (size_t i = 0; i < f->count; i++) {
        const hb_journal_entry *e = &f->entries[i];
        if (e->csv_end <= (long long)f->header_bytes)
            return hb_fail(HB_ERR_BAD_RESULTS, "%s:%ld: csv_end %lld lies inside %s's header (%zu bytes): the "
                           "journal does not belong to this summary.csv, or was edited", f->journal_path, e->line,
                           e->csv_end, f->csv_path, f->header_bytes);
        if (e->csv_end > (long long)f->csv_size)
            return hb_fail(HB_ERR_BAD_RESULTS, "%s:%ld: the rows of item %zu end at byte %lld of %s, but it is %zu "
                           "bytes: summary.csv was cut short or replaced, and finished results are missing from it",
                           f->journal_path, e->line, e->item, e->csv_end, f->csv_path, f->csv_size);
        if (f->csv[e->csv_end - 1] != '\n')
            return hb_fail(HB_ERR_BAD_RESULTS, "%s:%ld: csv_end %lld is not at the end of a line of %s: the files "
                           "do not belong together, or one was edited", f->journal_path, e->line, e->csv_end,
                           f->csv_path);
    }
    return HB_OK;
}

/* --- the rows past the last csv_end ------------------------------------------------- */

enum { KEY_M, KEY_N, KEY_K, KEY_MODE, KEY_COUNT };
static const char *const key_names[KEY_COUNT] = {"m", "n", "k", "mode"};

/* What the parser's callbacks keep: the key columns' places from the
 * header, then each row's key, compared with the first row's. */
typedef struct tail_scan {
    int in_header;
    size_t field;                /* of the current record */
    long column[KEY_COUNT];      /* -1: the header lacks it */
    char key[KEY_COUNT][32], first[KEY_COUNT][32];
    size_t rows;
    int differs;
} tail_scan;

static void on_field(void *data, size_t length, void *context)
{
    tail_scan *t = context;
    const char *text = data ? data : "";
    for (int c = 0; c < KEY_COUNT; c++) {
        if (t->in_header && length == strlen(key_names[c]) && !memcmp(text, key_names[c], length))
            t->column[c] = (long)t->field;
        else if (!t->in_header && t->column[c] == (long)t->field)
            snprintf(t->key[c], sizeof t->key[c], "%.*s", (int)(length < 31 ? length : 31), text);
    }
    t->field++;
}

static void on_row(int terminator, void *context)
{
    tail_scan *t = context;
    (void)terminator;
    if (t->in_header)
        t->in_header = 0;
    else if (t->rows++ == 0)
        memcpy(t->first, t->key, sizeof t->first);
    else if (memcmp(t->first, t->key, sizeof t->first))
        t->differs = 1;
    memset(t->key, 0, sizeof t->key);
    t->field = 0;
}

/* The whole rows past `vouched` are one configuration's: its name into tail_config. */
static hb_status check_tail(hb_sweep_files *f)
{
    if (f->csv_size <= f->vouched)
        return HB_OK;
    struct csv_parser parser;
    if (csv_init(&parser, CSV_REPALL_NL) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot set up the CSV parser");
    tail_scan t = {.in_header = 1, .column = {-1, -1, -1, -1}};
    /* The header, then the tail: libcsv reads a stream in pieces.  No csv_fini: a
     * last row without its newline is the one being written, cut short. */
    csv_parse(&parser, f->csv, f->header_bytes, on_field, on_row, &t);
    csv_parse(&parser, f->csv + f->vouched, f->csv_size - f->vouched, on_field, on_row, &t);
    csv_free(&parser);
    snprintf(f->tail_config, sizeof f->tail_config, "%s_%s_%s %s", t.first[KEY_M], t.first[KEY_N], t.first[KEY_K],
             t.first[KEY_MODE]);
    if (!t.differs)
        return HB_OK;
    const hb_journal_entry *last = f->count ? &f->entries[f->count - 1] : NULL;
    return hb_fail(HB_ERR_BAD_RESULTS, "%s holds the rows of more than one configuration after byte %zu, the last "
                   "the journal vouches for (%s%s%ld): the sweep writes one item at a time, so %s lost lines and "
                   "cutting those rows would lose finished results. Put the journal back, or see docs/sweeps.md, "
                   "\"A damaged folder\"", f->csv_path, f->vouched, f->journal_path, last ? ":" : "",
                   last ? last->line : 0L, f->has_journal ? f->journal_path : "the folder's journal");
}

hb_status hb_sweep_files_read(const char *folder, const hb_plan_file *plan, int flags, hb_sweep_files *f)
{
    memset(f, 0, sizeof *f);
    HB_TRY(read_files(folder, plan, f));
    if (!f->has_csv) {
        if (f->count > 0)
            return hb_fail(HB_ERR_BAD_RESULTS, "%s is missing, yet %s records %zu finished items: their rows are "
                           "gone", f->csv_path, f->journal_path, f->count);
        return HB_OK;
    }
    HB_TRY(check_header(f, flags));
    f->vouched = f->count ? (size_t)f->entries[f->count - 1].csv_end : f->header_bytes;
    if (!f->has_journal && f->csv_size > f->header_bytes)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s holds %zu bytes of rows, but the folder has no %s to say which items "
                       "they are: the journal was deleted or moved. Put it back (nothing was changed)", f->csv_path,
                       f->csv_size - f->header_bytes, HB_JOURNAL_NAME);
    HB_TRY(check_csv_ends(f));
    HB_TRY(check_tail(f));
    return hb_candidate_rows_hold(f);
}

void hb_sweep_files_free(hb_sweep_files *f)
{
    hb_summary_header_free(&f->header);
    free(f->entries);
    free(f->csv);
    f->entries = NULL;
    f->csv = NULL;
}
