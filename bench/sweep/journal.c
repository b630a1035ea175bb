#include "bench/sweep/journal.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/fd_io.h"
#include "bench/core/whole_file.h"

hb_status hb_journal_format(const hb_journal_entry *e, char *out, size_t size)
{
    json_t *line = json_pack("{s:I, s:I, s:I, s:I, s:s, s:i, s:s, s:s, s:s, s:i, s:s, s:f, s:I, s:s}", "item",
                             (json_int_t)e->item, "m", (json_int_t)e->mnk.m, "n", (json_int_t)e->mnk.n, "k",
                             (json_int_t)e->mnk.k, "mode", hb_mode_name(e->mode), "status", (int)e->status, "verdict",
                             e->verdict, "check", e->check, "reason", e->reason, "device", e->device, "gpu_uuid",
                             e->gpu_uuid, "seconds", e->seconds, "csv_end", (json_int_t)e->csv_end, "finished_utc",
                             e->finished_utc);
    if (!line)
        return hb_fail(HB_ERR_INTERNAL, "cannot build the journal line of item %zu (text not UTF-8?)", e->item);
    /* compact, keys in insertion order: one line, the same bytes on every machine */
    size_t length = json_dumpb(line, out, size > 1 ? size - 2 : 0, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(line);
    if (length == 0 || length + 2 > size)
        return hb_fail(HB_ERR_INTERNAL, "the journal line of item %zu is longer than %zu bytes", e->item, size);
    out[length] = '\n';
    out[length + 1] = '\0';
    return HB_OK;
}

hb_status hb_journal_append(int fd, const char *path, const hb_journal_entry *entry)
{
    char line[2048];
    HB_TRY(hb_journal_format(entry, line, sizeof line));
    if (!hb_write_all(fd, line, strlen(line)))
        return hb_fail(HB_ERR_IO, "writing %s failed: %s", path, strerror(errno));
    if (fsync(fd) != 0)
        return hb_fail(HB_ERR_IO, "fsync of %s failed: %s", path, strerror(errno));
    return HB_OK;
}

/* --- reading ------------------------------------------------------------------------- */

typedef struct journal_reader {
    const char *path;
    const hb_sweep_plan *plan;
    unsigned char *seen; /* per plan item */
    long line;
} journal_reader;

static hb_status bad_line(const journal_reader *r, int column, const char *what)
{
    return hb_fail(HB_ERR_BAD_RESULTS, "%s:%ld:%d: %s", r->path, r->line, column, what);
}

static hb_status copy_text(const journal_reader *r, json_t *root, const char *key, char *out, size_t size)
{
    const char *text = json_string_value(json_object_get(root, key));
    if (!text)
        return bad_line(r, 1, "a journal line lacks a text field");
    snprintf(out, size, "%s", text);
    return HB_OK;
}

/* The line's entry, checked against the plan. */
static hb_status entry_of(const journal_reader *r, json_t *root, hb_journal_entry *e)
{
    json_int_t item, m, n, k, csv_end;
    int status, device;
    const char *mode;
    double seconds;
    if (json_unpack(root, "{s:I, s:I, s:I, s:I, s:s, s:i, s:i, s:F, s:I}", "item", &item, "m", &m, "n", &n, "k", &k,
                    "mode", &mode, "status", &status, "device", &device, "seconds", &seconds, "csv_end", &csv_end))
        return bad_line(r, 1, "not a journal line (item, m, n, k, mode, status, device, seconds, csv_end)");
    memset(e, 0, sizeof *e);
    *e = (hb_journal_entry){.item = (size_t)item, .mnk = {(long)m, (long)n, (long)k}, .status = (hb_status)status,
                            .device = device, .seconds = seconds, .csv_end = csv_end};
    if (item < 0 || (size_t)item >= hb_plan_item_count(r->plan))
        return bad_line(r, 1, "the item is not in the plan");
    hb_plan_item it = hb_plan_item_at(r->plan, (size_t)item);
    const hb_mnk *c = &r->plan->configs[it.config];
    if (!hb_mode_parse(mode, &e->mode) || e->mode != it.mode || c->m != e->mnk.m || c->n != e->mnk.n ||
        c->k != e->mnk.k)
        return bad_line(r, 1, "the line's configuration or mode is not the plan's for its item");
    if (r->seen[item]++)
        return bad_line(r, 1, "the item is finished twice");
    HB_TRY(copy_text(r, root, "verdict", e->verdict, sizeof e->verdict));
    HB_TRY(copy_text(r, root, "check", e->check, sizeof e->check));
    HB_TRY(copy_text(r, root, "reason", e->reason, sizeof e->reason));
    HB_TRY(copy_text(r, root, "gpu_uuid", e->gpu_uuid, sizeof e->gpu_uuid));
    return copy_text(r, root, "finished_utc", e->finished_utc, sizeof e->finished_utc);
}

static hb_status parse_line(journal_reader *r, const char *text, size_t length, hb_journal_entry *e)
{
    json_error_t error;
    json_t *root = json_loadb(text, length, 0, &error);
    if (!root)
        return bad_line(r, error.column, error.text);
    hb_status status = json_is_object(root) ? entry_of(r, root, e) : bad_line(r, 1, "not a JSON object");
    json_decref(root);
    return status;
}

static hb_status parse_lines(journal_reader *r, const char *text, size_t length, hb_journal_entry *entries,
                             size_t *count, long long *valid_bytes)
{
    size_t start = 0;
    while (start < length) {
        const char *newline = memchr(text + start, '\n', length - start);
        if (!newline)
            break; /* the tail: a line cut short */
        size_t end = (size_t)(newline - text);
        r->line++;
        if (end > start)
            HB_TRY(parse_line(r, text + start, end - start, &entries[(*count)++]));
        start = end + 1;
        *valid_bytes = (long long)start;
    }
    return HB_OK;
}

hb_status hb_journal_read(const char *path, const hb_sweep_plan *plan, hb_journal_entry **entries, size_t *count,
                          long long *valid_bytes, long long *cut_tail)
{
    char *text;
    size_t length;
    *entries = NULL;
    *count = 0;
    *valid_bytes = 0;
    *cut_tail = 0;
    HB_TRY(hb_read_whole_file(path, 1, HB_ERR_BAD_RESULTS, &text, &length));
    size_t lines = 1;
    for (size_t i = 0; i < length; i++)
        lines += text[i] == '\n';
    journal_reader r = {path, plan, calloc(hb_plan_item_count(plan), 1), 0};
    *entries = calloc(lines, sizeof **entries);
    hb_status status = (r.seen && *entries) ? HB_OK : hb_fail(HB_ERR_INTERNAL, "out of memory reading %s", path);
    if (status == HB_OK && text)
        status = parse_lines(&r, text, length, *entries, count, valid_bytes);
    *cut_tail = (long long)length - *valid_bytes;
    free(r.seen);
    free(text);
    if (status != HB_OK) {
        free(*entries);
        *entries = NULL;
        *count = 0;
    }
    return status;
}
