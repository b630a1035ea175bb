#include "bench/sweep/journal.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/fd_io.h"
#include "bench/core/input_file.h"
#include "bench/result/verdict.h"

/* {"wall": s, "<part>": s, ...} of the parts with time; NULL when out of memory. */
static json_t *cost_object(const hb_item_cost *cost, const double *parts, int with_wall)
{
    json_t *object = json_object();
    if (!object || (with_wall && json_object_set_new(object, "wall", json_real(cost->wall_s)) != 0)) {
        json_decref(object);
        return NULL;
    }
    for (int i = 0; i < HB_COST_PART_COUNT; i++)
        if (parts[i] > 0 && json_object_set_new(object, hb_cost_part_name((hb_cost_part)i), json_real(parts[i])) != 0) {
            json_decref(object);
            return NULL;
        }
    return object;
}

/* "cost" and, where a readied child did parts before the item, "ahead". */
static int add_cost(json_t *line, const hb_item_cost *cost)
{
    int has_ahead = 0;
    for (int i = 0; i < HB_COST_PART_COUNT; i++)
        has_ahead |= cost->ahead_s[i] > 0;
    if (json_object_set_new(line, "cost", cost_object(cost, cost->part_s, 1)) != 0)
        return 0;
    return !has_ahead || json_object_set_new(line, "ahead", cost_object(cost, cost->ahead_s, 0)) == 0;
}

hb_status hb_journal_format(const hb_journal_entry *e, char *out, size_t size)
{
    hb_verdict verdict;
    if (!hb_verdict_parse(e->verdict, &verdict) || !hb_verdict_admits(verdict, e->status))
        return hb_fail(HB_ERR_INTERNAL, "item %zu ended with verdict \"%s\" and status %d (%s), which do not go "
                       "together: a journal line that every reader of the folder would refuse", e->item, e->verdict,
                       (int)e->status, hb_status_name(e->status));
    json_t *line = json_pack("{s:I, s:I, s:I, s:I, s:s, s:i, s:s, s:s, s:s, s:i, s:s, s:f, s:I, s:s}", "item",
                             (json_int_t)e->item, "m", (json_int_t)e->mnk.m, "n", (json_int_t)e->mnk.n, "k",
                             (json_int_t)e->mnk.k, "mode", hb_mode_name(e->mode), "status", (int)e->status, "verdict",
                             e->verdict, "check", e->check, "reason", e->reason, "device", e->device, "gpu_uuid",
                             e->gpu_uuid, "seconds", e->seconds, "csv_end", (json_int_t)e->csv_end, "finished_utc",
                             e->finished_utc);
    if (!line)
        return hb_fail(HB_ERR_INTERNAL, "cannot build the journal line of item %zu (text not UTF-8?)", e->item);
    if (e->has_cost && !add_cost(line, &e->cost)) {
        json_decref(line);
        return hb_fail(HB_ERR_INTERNAL, "out of memory building the journal line of item %zu", e->item);
    }
    /* compact, keys in insertion order: one line, the same bytes on every machine; 10 significant digits
     * keep a second's reading to 0.1 ns and print 0.25 as 0.25 */
    size_t length = json_dumpb(line, out, size > 1 ? size - 2 : 0,
                               JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(line);
    if (length == 0 || length + 2 > size)
        return hb_fail(HB_ERR_INTERNAL, "the journal line of item %zu is longer than %zu bytes", e->item, size);
    out[length] = '\n';
    out[length + 1] = '\0';
    return HB_OK;
}

hb_status hb_journal_append(int fd, const char *path, const hb_journal_entry *entry)
{
    char line[4096];
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
    const hb_shard *shard;
    unsigned char *seen;   /* per plan item */
    long line;
    const char *text;      /* the line being read, for the column of a field */
    size_t length;
    long long last_csv_end; /* the previous line's */
    long last_line;         /* which line that was */
} journal_reader;

static hb_status bad_line(const journal_reader *r, int column, const char *what)
{
    return hb_fail(HB_ERR_BAD_RESULTS, "%s:%ld:%d: %s", r->path, r->line, column, what);
}

/* The column where `"key"` starts in the line (1 when it is not there). */
static int column_of(const journal_reader *r, const char *key)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    size_t n = strlen(quoted);
    for (size_t i = 0; i + n <= r->length; i++)
        if (!memcmp(r->text + i, quoted, n))
            return (int)i + 1;
    return 1;
}

static hb_status bad_field(const journal_reader *r, const char *key, const char *fmt, long long value)
{
    char what[256];
    snprintf(what, sizeof what, fmt, value);
    return bad_line(r, column_of(r, key), what);
}

static hb_status copy_text(const journal_reader *r, json_t *root, const char *key, char *out, size_t size)
{
    const char *text = json_string_value(json_object_get(root, key));
    if (!text)
        return bad_field(r, key, "a journal line lacks a text field", 0);
    snprintf(out, size, "%s", text);
    return HB_OK;
}

/* The item is the plan's, of this folder's shard, with the plan's configuration and mode, and not seen before. */
static hb_status check_item(const journal_reader *r, json_int_t item, const char *mode, hb_journal_entry *e)
{
    if (item < 0 || (unsigned long long)item >= hb_plan_item_count(r->plan))
        return bad_field(r, "item", "item %lld is not in the plan", (long long)item);
    if (r->shard && !hb_shard_holds(r->shard, (size_t)item))
        return bad_field(r, "item", "item %lld is not in this folder's shard (plan.json's \"shard\")", (long long)item);
    hb_plan_item it = hb_plan_item_at(r->plan, (size_t)item);
    const hb_mnk *c = &r->plan->configs[it.config];
    if (!hb_mode_parse(mode, &e->mode) || e->mode != it.mode || c->m != e->mnk.m || c->n != e->mnk.n ||
        c->k != e->mnk.k)
        return bad_line(r, 1, "the line's configuration or mode is not the plan's for its item");
    if (r->seen[item]++)
        return bad_field(r, "item", "item %lld is finished twice", (long long)item);
    return HB_OK;
}

/* The figures that tie the line to the rest: its exit code, its GPU, its time, where its rows end. */
static hb_status check_figures(const journal_reader *r, json_int_t status, json_int_t device, double seconds,
                               json_int_t csv_end)
{
    if (status < 0 || status > 255 || !strcmp(hb_status_name((hb_status)status), "unknown"))
        return bad_field(r, "status", "status %lld is not an exit code a configuration can have (docs/cli.md)",
                         (long long)status);
    if (device < -1 || device > 1024)
        return bad_field(r, "device", "device %lld is not a CUDA ordinal (or -1)", (long long)device);
    if (!(seconds >= 0) || seconds > 1e9)
        return bad_field(r, "seconds", "its seconds are not a time (0 to 1e9)", 0);
    if (csv_end <= r->last_csv_end) {
        char what[320];
        snprintf(what, sizeof what, "csv_end %lld is not past line %ld's (%lld): each item's rows follow the last "
                 "one's, so one of the two lines was moved or edited", (long long)csv_end, r->last_line,
                 r->last_csv_end);
        return bad_line(r, column_of(r, "csv_end"), what);
    }
    return HB_OK;
}

/* The verdict is one, and the status is one a configuration with it ends with
 * (bench/result/verdict.h): the status is the verdict's, so the two cannot
 * tell different stories. */
static hb_status check_verdict(const journal_reader *r, const hb_journal_entry *e)
{
    char what[256];
    hb_verdict verdict;
    if (!hb_verdict_parse(e->verdict, &verdict)) {
        snprintf(what, sizeof what, "verdict \"%.24s\" is not a verdict (pass, incorrect, crashed, ...: docs/gate.md)",
                 e->verdict);
        return bad_line(r, column_of(r, "verdict"), what);
    }
    if (hb_verdict_admits(verdict, e->status))
        return HB_OK;
    snprintf(what, sizeof what, "status %d (%s) is not one a configuration with verdict %s ends with (docs/cli.md, "
             "\"Exit codes\"): the line was edited", (int)e->status, hb_status_name(e->status), e->verdict);
    return bad_line(r, column_of(r, "status"), what);
}

/* One "cost" or "ahead" object: parts by name, each a time (0 to 1e9 s); a name no part has is skipped (a newer
 * harness's part), a value that is not a time is a bad line. */
static hb_status read_parts(const journal_reader *r, json_t *object, const char *key, double *parts, double *wall)
{
    const char *name;
    json_t *value;
    json_object_foreach(object, name, value) {
        double seconds = json_number_value(value);
        if (!json_is_number(value) || !(seconds >= 0) || seconds > 1e9)
            return bad_field(r, key, "a part of its cost is not a time (0 to 1e9 s)", 0);
        hb_cost_part part;
        if (wall && !strcmp(name, "wall"))
            *wall = seconds;
        else if (hb_cost_part_parse(name, &part))
            parts[part] = seconds;
    }
    return HB_OK;
}

/* The optional "cost" and "ahead" of a line (docs/sweeps.md). */
static hb_status read_cost(const journal_reader *r, json_t *root, hb_journal_entry *e)
{
    json_t *cost = json_object_get(root, "cost"), *ahead = json_object_get(root, "ahead");
    if ((cost && !json_is_object(cost)) || (ahead && !json_is_object(ahead)))
        return bad_field(r, cost && !json_is_object(cost) ? "cost" : "ahead", "its cost is not an object", 0);
    if (!cost)
        return HB_OK;
    e->has_cost = 1;
    HB_TRY(read_parts(r, cost, "cost", e->cost.part_s, &e->cost.wall_s));
    return ahead ? read_parts(r, ahead, "ahead", e->cost.ahead_s, NULL) : HB_OK;
}

/* The line's entry, checked against the plan and the lines before it. */
static hb_status entry_of(journal_reader *r, json_t *root, hb_journal_entry *e)
{
    json_int_t item, m, n, k, csv_end, status, device;
    const char *mode;
    double seconds;
    if (json_unpack(root, "{s:I, s:I, s:I, s:I, s:s, s:I, s:I, s:F, s:I}", "item", &item, "m", &m, "n", &n, "k", &k,
                    "mode", &mode, "status", &status, "device", &device, "seconds", &seconds, "csv_end", &csv_end))
        return bad_line(r, 1, "not a journal line (item, m, n, k, mode, status, device, seconds, csv_end)");
    memset(e, 0, sizeof *e);
    HB_TRY(check_figures(r, status, device, seconds, csv_end));
    *e = (hb_journal_entry){.item = (size_t)item, .mnk = {(long)m, (long)n, (long)k}, .status = (hb_status)status,
                            .device = (int)device, .seconds = seconds, .csv_end = csv_end, .line = r->line};
    HB_TRY(check_item(r, item, mode, e));
    r->last_csv_end = csv_end;
    r->last_line = r->line;
    HB_TRY(copy_text(r, root, "verdict", e->verdict, sizeof e->verdict));
    HB_TRY(check_verdict(r, e));
    HB_TRY(copy_text(r, root, "check", e->check, sizeof e->check));
    HB_TRY(copy_text(r, root, "reason", e->reason, sizeof e->reason));
    HB_TRY(copy_text(r, root, "gpu_uuid", e->gpu_uuid, sizeof e->gpu_uuid));
    HB_TRY(copy_text(r, root, "finished_utc", e->finished_utc, sizeof e->finished_utc));
    return read_cost(r, root, e);
}

static hb_status parse_line(journal_reader *r, const char *text, size_t length, hb_journal_entry *e)
{
    json_error_t error;
    r->text = text;
    r->length = length;
    size_t nul_line, nul_column;
    if (hb_text_nul_at(text, length, &nul_line, &nul_column)) /* jansson skips one after a number */
        return bad_line(r, (int)nul_column, "a NUL byte: the journal is not text (damaged)");
    json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES, &error);
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

hb_status hb_journal_read(const char *path, const hb_sweep_plan *plan, const hb_shard *shard,
                          hb_journal_entry **entries, size_t *count, long long *valid_bytes, long long *cut_tail,
                          int *exists)
{
    char *text;
    size_t length;
    *entries = NULL;
    *count = 0;
    *valid_bytes = 0;
    *cut_tail = 0;
    *exists = 0;
    HB_TRY(hb_input_read(path, NULL, HB_JOURNAL_MAX_BYTES, HB_ERR_BAD_RESULTS, 1, &text, &length));
    *exists = text != NULL;
    size_t lines = 1;
    for (size_t i = 0; i < length; i++)
        lines += text[i] == '\n';
    journal_reader r = {.path = path, .plan = plan, .shard = shard, .seen = calloc(hb_plan_item_count(plan) + 1, 1)};
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
