#define _POSIX_C_SOURCE 200809L
#include "bench/sweep/sweep_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/report/csv_writer.h"

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

/* summary.csv's first line must be this harness's header. */
static hb_status check_header(hb_sweep_store *s, long long *header_bytes)
{
    char *expected = NULL, *found = NULL;
    size_t expected_size = 0, found_size = 0;
    FILE *memory = open_memstream(&expected, &expected_size);
    if (!memory)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    hb_csv_write_header(memory);
    fclose(memory);
    FILE *csv = fopen(s->csv_path, "r");
    hb_status status = HB_OK;
    if (!csv)
        status = hb_fail(HB_ERR_BAD_RESULTS, "cannot read %s: %s", s->csv_path, strerror(errno));
    else if (getline(&found, &found_size, csv) < 0 || strcmp(found, expected))
        status = hb_fail(HB_ERR_BAD_RESULTS, "%s:1:1: its header is not this harness's summary.csv header (written by "
                         "another version or tool, or cut short)", s->csv_path);
    *header_bytes = (long long)expected_size;
    if (csv)
        fclose(csv);
    free(expected);
    free(found);
    return status;
}

/* Cuts summary.csv to what the journal vouches for. */
static hb_status reconcile_csv(hb_sweep_store *s, long long vouched)
{
    struct stat info;
    if (stat(s->csv_path, &info) != 0)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s is missing, yet the journal %s records finished items", s->csv_path,
                       s->journal_path);
    if ((long long)info.st_size < vouched)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s is %lld bytes, but the journal %s records %lld: the CSV was cut short "
                       "or replaced", s->csv_path, (long long)info.st_size, s->journal_path, vouched);
    if ((long long)info.st_size > vouched) {
        fprintf(stderr, "hgemm-bench: %s: dropping %lld bytes of rows of the item that was in flight\n", s->csv_path,
                (long long)info.st_size - vouched);
        if (truncate(s->csv_path, (off_t)vouched) != 0)
            return hb_fail(HB_ERR_IO, "cannot cut %s: %s", s->csv_path, strerror(errno));
    }
    return HB_OK;
}

static hb_status cut_journal_tail(hb_sweep_store *s, long long valid, long long tail)
{
    if (tail == 0)
        return HB_OK;
    fprintf(stderr, "hgemm-bench: %s: dropping a last line cut short (%lld bytes): its item runs again\n",
            s->journal_path, tail);
    if (truncate(s->journal_path, (off_t)valid) != 0)
        return hb_fail(HB_ERR_IO, "cannot cut %s: %s", s->journal_path, strerror(errno));
    return HB_OK;
}

hb_status hb_sweep_store_open(hb_sweep_store *s, const char *folder, const hb_sweep_plan *plan)
{
    HB_TRY(init_store(s, folder, plan));
    hb_journal_entry *entries;
    size_t count;
    long long valid, tail, header_bytes = 0;
    HB_TRY(hb_journal_read(s->journal_path, plan, &entries, &count, &valid, &tail));
    free(s->entries);
    s->entries = entries;
    s->count = count;
    if (s->capacity < count) /* cannot happen: the reader refuses an item twice */
        return hb_fail(HB_ERR_INTERNAL, "the journal holds more items than the plan");
    if (count < s->capacity) {
        hb_journal_entry *grown = realloc(s->entries, s->capacity * sizeof *grown);
        if (!grown)
            return hb_fail(HB_ERR_INTERNAL, "out of host memory");
        s->entries = grown;
    }
    for (size_t i = 0; i < count; i++)
        s->done[s->entries[i].item] = 1;
    HB_TRY(cut_journal_tail(s, valid, tail));
    struct stat info;
    if (count == 0 && stat(s->csv_path, &info) != 0) { /* a crash between plan.json and summary.csv */
        hb_sweep_store_close(s);
        return hb_sweep_store_create(s, folder, plan);
    }
    HB_TRY(check_header(s, &header_bytes));
    HB_TRY(reconcile_csv(s, count ? s->entries[count - 1].csv_end : header_bytes));
    s->csv = fopen(s->csv_path, "a");
    if (!s->csv)
        return hb_fail(HB_ERR_IO, "cannot append to %s: %s", s->csv_path, strerror(errno));
    return open_journal(s, 0);
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
