#define _POSIX_C_SOURCE 200809L
#include "bench/sweep/sweep_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/report/csv_writer.h"
#include "bench/sweep/sweep_files.h"

static hb_status init_store(hb_sweep_store *s, const char *folder, const hb_sweep_plan *plan)
{
    memset(s, 0, sizeof *s);
    s->journal_fd = -1;
    snprintf(s->folder, sizeof s->folder, "%s", folder);
    snprintf(s->csv_path, sizeof s->csv_path, "%s/summary.csv", folder);
    snprintf(s->journal_path, sizeof s->journal_path, "%s/" HB_JOURNAL_NAME, folder);
    s->plan_items = hb_plan_item_count(plan);
    s->done = calloc(s->plan_items, 1);
    s->capacity = s->plan_items;
    s->entries = calloc(s->capacity ? s->capacity : 1, sizeof *s->entries);
    if (!s->done || !s->entries)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for a sweep of %zu items", s->plan_items);
    return HB_OK;
}

static hb_status sync_file(FILE *file, const char *path)
{
    if (fflush(file) != 0 || ferror(file) || fsync(fileno(file)) != 0)
        return hb_fail(HB_ERR_IO, "writing %s failed: %s", path, strerror(errno));
    return HB_OK;
}

static hb_status open_journal(hb_sweep_store *s, int flags)
{
    s->journal_fd = open(s->journal_path, O_WRONLY | O_APPEND | O_CLOEXEC | flags, 0644);
    if (s->journal_fd < 0)
        return hb_fail(HB_ERR_IO, "cannot open %s: %s", s->journal_path, strerror(errno));
    return HB_OK;
}

hb_status hb_sweep_store_create(hb_sweep_store *s, const char *folder, const hb_sweep_plan *plan)
{
    HB_TRY(init_store(s, folder, plan));
    s->csv = fopen(s->csv_path, "w");
    if (!s->csv)
        return hb_fail(HB_ERR_IO, "cannot create %s: %s", s->csv_path, strerror(errno));
    hb_csv_write_header(s->csv);
    HB_TRY(sync_file(s->csv, s->csv_path));
    return open_journal(s, O_CREAT | O_TRUNC);
}

/* --- opening an existing folder ---------------------------------------------------- */

static hb_status cut_file(const char *path, long long to)
{
    if (truncate(path, (off_t)to) != 0)
        return hb_fail(HB_ERR_IO, "cannot cut %s to %lld bytes: %s", path, to, strerror(errno));
    return HB_OK;
}

/* What the checks found, applied: a journal line cut short and the rows of
 * the item that was in flight dropped (they run again).  Only called once
 * the folder was found to agree, so it never cuts a finished item's rows. */
static hb_status drop_in_flight(const hb_sweep_store *s, const hb_sweep_files *f)
{
    if (f->journal_tail > 0) {
        fprintf(stderr, "hgemm-bench: %s: dropping a last line cut short (%lld bytes): its item runs again\n",
                s->journal_path, f->journal_tail);
        HB_TRY(cut_file(s->journal_path, f->journal_valid));
    }
    if (f->csv_size > f->vouched) {
        fprintf(stderr, "hgemm-bench: %s: dropping %zu bytes of rows of %s, the item that was in flight (no journal "
                "line vouches for them): it runs again\n", s->csv_path, f->csv_size - f->vouched, f->tail_config);
        HB_TRY(cut_file(s->csv_path, (long long)f->vouched));
    }
    return HB_OK;
}

/* The journal's entries become the store's. */
static void adopt_entries(hb_sweep_store *s, hb_sweep_files *f)
{
    memcpy(s->entries, f->entries, f->count * sizeof *s->entries);
    s->count = f->count;
    for (size_t i = 0; i < s->count; i++)
        s->done[s->entries[i].item] = 1;
}

hb_status hb_sweep_store_open(hb_sweep_store *s, const char *folder, const hb_plan_file *plan)
{
    HB_TRY(init_store(s, folder, &plan->plan));
    static hb_sweep_files files;
    hb_status status = hb_sweep_files_read(folder, plan, HB_SWEEP_FILES_OUR_HEADER, &files);
    if (status == HB_OK && files.count > s->capacity) /* cannot happen: the reader refuses an item twice */
        status = hb_fail(HB_ERR_INTERNAL, "the journal holds more items than the plan");
    if (status == HB_OK) {
        adopt_entries(s, &files);
        status = drop_in_flight(s, &files);
    }
    const int has_csv = files.has_csv, has_journal = files.has_journal;
    hb_sweep_files_free(&files);
    HB_TRY(status);
    if (!has_csv) { /* a crash between plan.json and summary.csv: nothing was finished */
        hb_sweep_store_close(s);
        return hb_sweep_store_create(s, folder, &plan->plan);
    }
    s->csv = fopen(s->csv_path, "a");
    if (!s->csv)
        return hb_fail(HB_ERR_IO, "cannot append to %s: %s", s->csv_path, strerror(errno));
    return open_journal(s, has_journal ? 0 : O_CREAT); /* no journal, no rows: a crash before it was made */
}

/* --- appending ------------------------------------------------------------------------ */

static void fill_entry(const hb_config_result *r, hb_journal_entry *e)
{
    e->mnk = r->mnk;
    e->status = r->status;
    snprintf(e->verdict, sizeof e->verdict, "%s", hb_verdict_name(r->verdict));
    snprintf(e->check, sizeof e->check, "%s", r->check);
    snprintf(e->reason, sizeof e->reason, "%s", r->reason);
    e->seconds = r->seconds;
    hb_utc_now(e->finished_utc, sizeof e->finished_utc);
}

hb_status hb_sweep_store_append(hb_sweep_store *s, const char *run_id, const char *acc_class,
                                const hb_config_result *result, hb_journal_entry *entry)
{
    if (entry->item >= s->plan_items || s->done[entry->item] || s->count == s->capacity)
        return hb_fail(HB_ERR_INTERNAL, "item %zu finished twice or is not in the plan", entry->item);
    fill_entry(result, entry);
    HB_TRY(hb_csv_write_config(s->csv, run_id, acc_class, result));
    HB_TRY(sync_file(s->csv, s->csv_path));
    off_t end = ftello(s->csv);
    if (end < 0)
        return hb_fail(HB_ERR_IO, "cannot tell the length of %s: %s", s->csv_path, strerror(errno));
    entry->csv_end = (long long)end;
    HB_TRY(hb_journal_append(s->journal_fd, s->journal_path, entry));
    s->entries[s->count++] = *entry;
    s->done[entry->item] = 1;
    return HB_OK;
}

void hb_sweep_store_close(hb_sweep_store *s)
{
    if (s->csv)
        fclose(s->csv);
    if (s->journal_fd >= 0)
        close(s->journal_fd);
    free(s->entries);
    free(s->done);
    s->csv = NULL;
    s->journal_fd = -1;
    s->entries = NULL;
    s->done = NULL;
}
