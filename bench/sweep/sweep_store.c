#define _POSIX_C_SOURCE 200809L /* fdopen, ftruncate */
#include "bench/sweep/sweep_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/report/csv_writer.h"
#include "bench/sweep/sweep_files.h"

static hb_status init_store(hb_sweep_store *s, const char *folder, const hb_sweep_plan *plan)
{
    memset(s, 0, sizeof *s);
    s->journal_fd = -1;
    s->cut_journal_to = s->cut_csv_to = -1;
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

/* summary.csv as a stream on an open descriptor (closed on failure). */
static hb_status csv_stream(hb_sweep_store *s, int fd)
{
    s->csv = fdopen(fd, "a");
    if (!s->csv) {
        int error = errno;
        close(fd);
        return hb_fail(HB_ERR_IO, "cannot write %s: %s", s->csv_path, strerror(error));
    }
    return HB_OK;
}

/* A new folder's files are new: nothing of that name is opened (a link or
 * FIFO planted there is refused, not written through). */
hb_status hb_sweep_store_create(hb_sweep_store *s, const char *folder, const hb_sweep_plan *plan)
{
    HB_TRY(init_store(s, folder, plan));
    int fd;
    HB_TRY(hb_create_new_file(s->csv_path, NULL, &fd));
    HB_TRY(csv_stream(s, fd));
    hb_csv_write_header(s->csv);
    HB_TRY(sync_file(s->csv, s->csv_path));
    return hb_create_new_file(s->journal_path, NULL, &s->journal_fd);
}

/* --- opening an existing folder ---------------------------------------------------- */

/* The folder's own files, opened to append: a regular file each, never a
 * link (its target may lie outside the folder) and never waited on. */
static hb_status open_existing(hb_sweep_store *s, int has_journal)
{
    int fd;
    HB_TRY(hb_open_for_append(s->csv_path, NULL, HB_ERR_BAD_RESULTS, &fd));
    HB_TRY(csv_stream(s, fd));
    if (has_journal)
        return hb_open_for_append(s->journal_path, NULL, HB_ERR_BAD_RESULTS, &s->journal_fd);
    return hb_create_new_file(s->journal_path, NULL, &s->journal_fd); /* no journal, no rows: a crash before it */
}

static hb_status cut_file(int fd, const char *path, long long to)
{
    if (ftruncate(fd, (off_t)to) != 0 || fsync(fd) != 0)
        return hb_fail(HB_ERR_IO, "cannot cut %s to %lld bytes: %s", path, to, strerror(errno));
    return HB_OK;
}

/* The folder was found to agree, so this never cuts a finished item's rows. */
hb_status hb_sweep_store_drop_in_flight(hb_sweep_store *s)
{
    if (s->cut_journal_to >= 0) {
        fprintf(stderr, "hgemm-bench: %s: dropping a last line cut short: its item runs again\n", s->journal_path);
        HB_TRY(cut_file(s->journal_fd, s->journal_path, s->cut_journal_to));
    }
    if (s->cut_csv_to >= 0) {
        fprintf(stderr, "hgemm-bench: %s: dropping the rows of %s, the item that was in flight (no journal line "
                "vouches for them): it runs again\n", s->csv_path, s->in_flight);
        HB_TRY(cut_file(fileno(s->csv), s->csv_path, s->cut_csv_to));
    }
    s->cut_journal_to = s->cut_csv_to = -1;
    return HB_OK;
}

/* The journal's entries become the store's; what must be cut is noted. */
static void adopt_entries(hb_sweep_store *s, hb_sweep_files *f)
{
    memcpy(s->entries, f->entries, f->count * sizeof *s->entries);
    s->count = f->count;
    for (size_t i = 0; i < s->count; i++)
        s->done[s->entries[i].item] = 1;
    s->cut_journal_to = f->journal_tail > 0 ? f->journal_valid : -1;
    s->cut_csv_to = f->csv_size > f->vouched ? (long long)f->vouched : -1;
    s->csv_read = (long long)f->csv_size;
    s->journal_read = f->journal_valid + f->journal_tail;
    snprintf(s->in_flight, sizeof s->in_flight, "%s", f->tail_config);
}

hb_status hb_sweep_store_open(hb_sweep_store *s, const char *folder, const hb_plan_file *plan)
{
    HB_TRY(init_store(s, folder, &plan->plan));
    static hb_sweep_files files;
    hb_status status = hb_sweep_files_read(folder, plan, HB_SWEEP_FILES_OUR_HEADER, &files);
    if (status == HB_OK && files.count > s->capacity) /* cannot happen: the reader refuses an item twice */
        status = hb_fail(HB_ERR_INTERNAL, "the journal holds more items than the plan");
    if (status == HB_OK)
        adopt_entries(s, &files);
    const int has_csv = files.has_csv, has_journal = files.has_journal;
    hb_sweep_files_free(&files);
    HB_TRY(status);
    if (!has_csv) { /* a crash between plan.json and summary.csv: nothing was finished */
        hb_sweep_store_close(s);
        return hb_sweep_store_create(s, folder, &plan->plan);
    }
    return open_existing(s, has_journal);
}

static long long length_of(int fd)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 ? (long long)st.st_size : -1;
}

int hb_sweep_store_unchanged(const hb_sweep_store *s)
{
    return s->csv && length_of(fileno(s->csv)) == s->csv_read && length_of(s->journal_fd) == s->journal_read;
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
    e->has_cost = r->cost.wall_s > 0; /* a result the worker timed (a merge's entries carry their own) */
    if (e->has_cost)
        e->cost = r->cost;
    hb_utc_now(e->finished_utc, sizeof e->finished_utc);
}

hb_status hb_sweep_store_append(hb_sweep_store *s, const char *run_id, const char *acc_class,
                                const hb_config_result *result, hb_journal_entry *entry)
{
    if (entry->item >= s->plan_items || s->done[entry->item] || s->count == s->capacity)
        return hb_fail(HB_ERR_INTERNAL, "item %zu finished twice or is not in the plan", entry->item);
    HB_TRY(hb_sweep_store_drop_in_flight(s));
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
