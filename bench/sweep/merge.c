#define _GNU_SOURCE /* renameat2, RENAME_NOREPLACE */
#include "bench/sweep/merge.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/folder_lock.h"
#include "bench/core/folders.h"
#include "bench/core/json_file.h"
#include "bench/core/out_file.h"
#include "bench/core/input_file.h"
#include "bench/report/csv_writer.h"
#include "bench/sweep/guarded_rows.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/sweep_files.h"
#include "bench/sweep/sweep_store.h"
#include "bench/sweep/sweep_verdict.h"

typedef struct shard_source {
    const char *folder;
    hb_plan_file plan;
    hb_sweep_files files;    /* its journal and summary.csv, checked against each other */
    char *env;               /* its env.json, whole and valid (NULL: none) */
    size_t env_size;
    char gpu[256], driver[64];
} shard_source;

typedef struct merge_state {
    shard_source *sources;
    size_t count;
    const hb_plan_file *plan;  /* the first folder's */
    size_t items;
    int *owner;                /* per item: the source that finished it, -1: none */
    size_t duplicates;
    FILE *report;
} merge_state;

/* env.json is a few KiB (one GPU's facts, the flags); 16 MiB is no env.json. */
#define ENV_MAX_BYTES ((size_t)16 << 20)

/* The shard's env.json, if it has one: a JSON object, or the merge stops
 * before writing anything (a copy of garbage would only fail `report` later).
 * Its GPU model and driver ("?" when it does not say). */
static hb_status read_environment(shard_source *src)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/env.json", src->folder);
    snprintf(src->gpu, sizeof src->gpu, "?");
    snprintf(src->driver, sizeof src->driver, "?");
    HB_TRY(hb_input_inside_folder(path, HB_ERR_BAD_RESULTS));
    HB_TRY(hb_input_read(path, NULL, ENV_MAX_BYTES, HB_ERR_BAD_RESULTS, 1, &src->env, &src->env_size));
    if (!src->env)
        return HB_OK;
    size_t nul_line, nul_column;
    if (hb_text_nul_at(src->env, src->env_size, &nul_line, &nul_column))
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:%zu:%zu: a NUL byte: not an env.json (damaged); nothing was merged",
                       path, nul_line, nul_column);
    json_error_t error;
    json_t *root = json_loadb(src->env, src->env_size, 0, &error);
    if (!json_is_object(root)) {
        json_decref(root);
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:%d:%d: not an env.json (%s): repair or remove it; nothing was merged",
                       path, root ? 1 : error.line, root ? 1 : error.column, root ? "not a JSON object" : error.text);
    }
    const char *gpu = json_string_value(json_object_get(json_object_get(root, "gpu"), "name"));
    const char *driver = json_string_value(json_object_get(json_object_get(root, "software"), "nvidia_driver"));
    if (gpu)
        snprintf(src->gpu, sizeof src->gpu, "%s", gpu);
    if (driver)
        snprintf(src->driver, sizeof src->driver, "%s", driver);
    json_decref(root);
    return HB_OK;
}

/* One shard folder: its plan, journal and summary.csv, checked against each other. */
static hb_status read_source(shard_source *src)
{
    HB_TRY(hb_plan_file_read(src->folder, &src->plan));
    const hb_sweep_files *f = &src->files;
    HB_TRY(hb_sweep_files_read(src->folder, &src->plan, HB_SWEEP_FILES_EARLIER_HEADER, &src->files));
    if (f->journal_tail)
        fprintf(stderr, "%s: merge: %s ends in a line cut short (%lld bytes): its item counts as not run\n",
                hb_diag_program(), f->journal_path, f->journal_tail);
    if (f->csv_size > f->vouched)
        fprintf(stderr, "%s: merge: %s: the rows of %s after the journal's last line (%zu bytes, an item "
                "in flight) are left out\n", hb_diag_program(), f->csv_path, f->tail_config, f->csv_size - f->vouched);
    return read_environment(src);
}

static hb_status check_same_sweep(const merge_state *m)
{
    const shard_source *first = &m->sources[0];
    for (size_t i = 1; i < m->count; i++) {
        const shard_source *src = &m->sources[i];
        if (strcmp(src->plan.sweep_id, first->plan.sweep_id))
            return hb_fail(HB_ERR_BAD_RESULTS, "%s is sweep %s (harness %s) but %s is sweep %s (harness %s): not "
                           "shards of one sweep (the plan, the settings or the harness commit differ)",
                           src->folder, src->plan.sweep_id, src->plan.harness_commit, first->folder,
                           first->plan.sweep_id, first->plan.harness_commit);
        for (size_t j = 0; j < i; j++)
            if (src->plan.shard.count > 1 && src->plan.shard.count == m->sources[j].plan.shard.count &&
                src->plan.shard.index == m->sources[j].plan.shard.index)
                fprintf(m->report, "note: %s and %s are both shard %zu/%zu\n", m->sources[j].folder, src->folder,
                        src->plan.shard.index, src->plan.shard.count);
    }
    return HB_OK;
}

/* A folder of an earlier harness: what the merged folder makes of it. */
static void report_format(const merge_state *m, const shard_source *src)
{
    if (src->plan.version != HB_PLAN_VERSION)
        fprintf(m->report, "note: %s has a plan of version %d (harness %s, no " HB_PLAN_DIGEST_KEY "): the merged "
                "plan.json is of version %d, with one, which that harness does not read: no build resumes the merged "
                "folder\n", src->folder, src->plan.version, src->plan.harness_commit, HB_PLAN_VERSION);
    const hb_summary_header *h = &src->files.header;
    if (src->files.has_csv && !h->ours)
        fprintf(m->report, "note: %s/summary.csv has an earlier harness's %zu columns: its rows take this "
                "harness's %zu, the %zu it lacks empty\n", src->folder, h->columns, h->our_columns,
                h->our_columns - h->columns);
}

static void report_environments(const merge_state *m)
{
    int mixed = 0;
    for (size_t i = 0; i < m->count; i++) {
        const shard_source *src = &m->sources[i];
        report_format(m, src);
        if (src->plan.shard.count > 1)
            fprintf(m->report, "shard %zu/%zu", src->plan.shard.index, src->plan.shard.count);
        else
            fprintf(m->report, "unsharded");
        fprintf(m->report, " %s: %zu items done, GPU %s, driver %s\n", src->folder, src->files.count, src->gpu,
                src->driver);
        mixed |= strcmp(src->gpu, m->sources[0].gpu) || strcmp(src->driver, m->sources[0].driver);
    }
    if (mixed)
        fprintf(m->report, "warning: the folders ran on different GPU models or drivers (above); every row records "
                "its GPU (columns device, gpu_uuid, gpu_name)\n");
}

/* Which folder's rows each item takes: the first that finished it. */
static hb_status assign_owners(merge_state *m)
{
    m->owner = malloc((m->items ? m->items : 1) * sizeof *m->owner);
    if (!m->owner)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory");
    for (size_t i = 0; i < m->items; i++)
        m->owner[i] = -1;
    for (size_t s = 0; s < m->count; s++) {
        const hb_sweep_files *f = &m->sources[s].files;
        for (size_t e = 0; e < f->count; e++) {
            size_t item = f->entries[e].item;
            if (m->owner[item] < 0) {
                m->owner[item] = (int)s;
                continue;
            }
            m->duplicates++;
            fprintf(m->report, "duplicate: item %zu (%ld_%ld_%ld %s) finished in %s and %s; kept from %s\n", item,
                    f->entries[e].mnk.m, f->entries[e].mnk.n, f->entries[e].mnk.k, hb_mode_name(f->entries[e].mode),
                    m->sources[m->owner[item]].folder, m->sources[s].folder, m->sources[m->owner[item]].folder);
        }
    }
    return HB_OK;
}

/* The bytes of summary.csv holding entry e's rows: between the previous
 * line's csv_end (or the header) and its own, both checked to lie in the
 * file and to grow (bench/sweep/sweep_files.h). */
static void rows_of(const hb_sweep_files *f, size_t e, const char **start, size_t *length)
{
    size_t from = e ? (size_t)f->entries[e - 1].csv_end : f->header_bytes;
    *start = f->csv + from;
    *length = (size_t)f->entries[e].csv_end - from;
}

static hb_status write_merged(merge_state *m, const char *folder)
{
    hb_sweep_store store;
    HB_TRY(hb_sweep_store_create(&store, folder, &m->plan->plan));
    hb_status status = HB_OK;
    for (size_t s = 0; status == HB_OK && s < m->count; s++) {
        const hb_sweep_files *f = &m->sources[s].files;
        for (size_t e = 0; status == HB_OK && e < f->count; e++) {
            hb_journal_entry entry = f->entries[e];
            if (m->owner[entry.item] != (int)s || store.done[entry.item])
                continue;
            const char *rows;
            size_t length;
            rows_of(f, e, &rows, &length);
            errno = 0;
            status = hb_copy_rows_guarded(rows, length, &f->header, store.csv, f->csv_path);
            if (status == HB_OK && fflush(store.csv) != 0)
                status = hb_fail(HB_ERR_IO, "writing %s failed: %s", store.csv_path,
                                 errno ? strerror(errno) : "a short write");
            entry.csv_end = (long long)ftello(store.csv);
            if (status == HB_OK && entry.csv_end < 0)
                status = hb_fail(HB_ERR_IO, "cannot tell the length of %s: %s", store.csv_path, strerror(errno));
            if (status == HB_OK)
                status = hb_journal_append(store.journal_fd, store.journal_path, &entry);
            store.entries[store.count++] = entry;
            store.done[entry.item] = 1;
        }
    }
    if (status == HB_OK)
        status = hb_plan_file_write(folder, m->plan);
    char path[4400];
    snprintf(path, sizeof path, "%s/verdict.json", folder);
    if (status == HB_OK)
        status = hb_sweep_verdict_write(path, m->plan, &store, hb_sweep_worst_status(&store), 0);
    fprintf(m->report, "merged: %zu of %zu items, %zu duplicate%s dropped, %zu missing\n", store.count, m->items,
            m->duplicates, m->duplicates == 1 ? "" : "s", m->items - store.count);
    for (size_t i = 0; i < m->items; i++)
        if (!store.done[i]) {
            hb_plan_item it = hb_plan_item_at(&m->plan->plan, i);
            const hb_mnk *c = &m->plan->plan.configs[it.config];
            fprintf(m->report, "missing: item %zu (%ld_%ld_%ld %s)\n", i, c->m, c->n, c->k, hb_mode_name(it.mode));
        }
    hb_sweep_store_close(&store);
    return status;
}

/* env.json of the merge: which folders, on which GPUs. */
static hb_status write_sources(const merge_state *m, const char *folder)
{
    json_t *list = json_array();
    for (size_t i = 0; i < m->count; i++) {
        const shard_source *src = &m->sources[i];
        json_array_append_new(list, json_pack("{s:s, s:I, s:I, s:I, s:s, s:s}", "folder", src->folder, "shard_index",
                                              (json_int_t)src->plan.shard.index, "shard_count",
                                              (json_int_t)src->plan.shard.count, "items_done", (json_int_t)src->files.count,
                                              "gpu", src->gpu, "driver", src->driver));
    }
    json_t *root = json_pack("{s:s, s:s, s:o}", "format", "hgemm-bench-merge/1", "sweep_id", m->sources[0].plan.sweep_id,
                             "sources", list);
    char path[4400];
    snprintf(path, sizeof path, "%s/merge.json", folder);
    hb_status status = root ? hb_json_write_file(path, root) : hb_fail(HB_ERR_INTERNAL, "out of memory");
    json_decref(root);
    /* the first shard's environment stands for the sweep's (read and checked
     * before anything was written); merge.json lists every one */
    const shard_source *first = &m->sources[0];
    char to[4400];
    snprintf(to, sizeof to, "%s/env.json", folder);
    if (status == HB_OK && first->env)
        status = hb_out_file_write(to, first->env, first->env_size);
    return status;
}

/* OUT.partial found in place: a link or a file is nothing a merge made; a
 * folder is another merge's, writing it now (its lock names it) or failed. */
static hb_status partial_taken(const char *partial, hb_folder_lock *lock)
{
    struct stat info;
    if (lstat(partial, &info) != 0 || !S_ISDIR(info.st_mode))
        return hb_fail(HB_ERR_USAGE, "merge: %s exists and is not a folder a merge made (a link or a file): remove it "
                       "first", partial);
    hb_status busy = hb_folder_lock_take(lock, partial, "merge");
    hb_folder_lock_release(lock);
    if (busy != HB_OK)
        return busy; /* another merge is writing it: the message named it */
    return hb_fail(HB_ERR_USAGE, "merge: %s exists (an earlier merge that failed?): remove it first", partial);
}

/* Removes a folder this merge made that holds its lock file alone. */
static void remove_claim(const char *folder)
{
    char lock_path[4400];
    snprintf(lock_path, sizeof lock_path, "%s/" HB_FOLDER_LOCK_NAME, folder);
    unlink(lock_path);
    rmdir(folder);
}

/* OUT.partial appears already locked: made under a fresh name, locked, then
 * renamed to OUT.partial, never over anything (RENAME_NOREPLACE), so a
 * second merge that finds OUT.partial finds its lock held while the first
 * writes it. */
static hb_status claim_partial(const char *partial, hb_folder_lock *lock)
{
    char parent[4200], fresh[4300];
    hb_folder_of(partial, parent, sizeof parent);
    HB_TRY(hb_make_folders(parent, "merge's output folder"));
    snprintf(fresh, sizeof fresh, "%s-XXXXXX", partial);
    if (!mkdtemp(fresh))
        return hb_fail(HB_ERR_IO, "merge: cannot create a folder beside %s: %s", partial, strerror(errno));
    mode_t mask = umask(0);
    umask(mask);
    if (chmod(fresh, 0777 & ~mask) != 0) /* mkdtemp's 0700 is not what a merged folder had */
        hb_warn("cannot open %s to others as a folder made by mkdir would be: %s", fresh, strerror(errno));
    hb_status status = hb_folder_lock_take(lock, fresh, "merge");
    int moved = status == HB_OK && renameat2(AT_FDCWD, fresh, AT_FDCWD, partial, RENAME_NOREPLACE) == 0;
    if (status == HB_OK && !moved && errno == EINVAL) { /* a file system without RENAME_NOREPLACE: look first */
        struct stat info;
        errno = EEXIST;
        moved = lstat(partial, &info) != 0 && rename(fresh, partial) == 0;
    }
    if (moved)
        return HB_OK;
    int error = errno;
    hb_folder_lock_release(lock);
    remove_claim(fresh);
    if (status != HB_OK)
        return status;
    if (error != EEXIST && error != ENOTEMPTY)
        return hb_fail(HB_ERR_IO, "merge: cannot make %s: %s", partial, strerror(error));
    return partial_taken(partial, lock);
}

/* OUT appears whole: the finished OUT.partial renamed to it, never over a
 * folder another process made meanwhile (RENAME_NOREPLACE). */
static hb_status publish(const char *partial, const char *out)
{
    int moved = renameat2(AT_FDCWD, partial, AT_FDCWD, out, RENAME_NOREPLACE) == 0;
    if (!moved && errno == EINVAL) { /* a file system without RENAME_NOREPLACE: look first */
        struct stat info;
        errno = EEXIST;
        moved = lstat(out, &info) != 0 && rename(partial, out) == 0;
    }
    if (!moved)
        return hb_fail(HB_ERR_IO, "cannot rename %s to %s: %s", partial, out,
                       errno == EEXIST || errno == ENOTEMPTY ? "something else made it meanwhile" : strerror(errno));
    return HB_OK;
}

static hb_status merge_into(merge_state *m, const char *out)
{
    struct stat info;
    if (lstat(out, &info) == 0)
        return hb_fail(HB_ERR_USAGE, "merge: %s exists: the merged sweep goes to a new folder", out);
    char partial[4200];
    if ((size_t)snprintf(partial, sizeof partial, "%s.partial", out) >= sizeof partial)
        return hb_fail(HB_ERR_USAGE, "merge: the path %s is too long", out);
    hb_folder_lock lock = {.fd = -1};
    HB_TRY(claim_partial(partial, &lock));
    if (lstat(out, &info) == 0) { /* another merge finished OUT while this one looked */
        hb_folder_lock_release(&lock);
        remove_claim(partial);
        return hb_fail(HB_ERR_USAGE, "merge: %s exists: the merged sweep goes to a new folder", out);
    }
    hb_status status = write_sources(m, partial); /* each source as it was, its shard included */
    /* then the first folder's plan stands for the whole plan: the shards were checked and recorded */
    m->sources[0].plan.shard = (hb_shard){0, 1};
    m->plan = &m->sources[0].plan;
    if (status == HB_OK)
        status = write_merged(m, partial);
    if (status == HB_OK)
        status = hb_sync_folder(partial);
    if (status == HB_OK)
        status = publish(partial, out);
    hb_folder_lock_release(&lock);
    if (status != HB_OK)
        fprintf(stderr, "%s: merge failed; the unfinished folder %s is left for inspection\n", hb_diag_program(), partial);
    return status;
}

hb_status hb_sweep_merge(const char *out, const char *const *folders, size_t count, FILE *report)
{
    merge_state m = {calloc(count, sizeof(shard_source)), count, NULL, 0, NULL, 0, report};
    if (!m.sources)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory");
    hb_status status = HB_OK;
    for (size_t i = 0; status == HB_OK && i < count; i++) {
        m.sources[i].folder = folders[i];
        status = read_source(&m.sources[i]);
    }
    if (status == HB_OK)
        status = check_same_sweep(&m);
    if (status == HB_OK) {
        m.items = hb_plan_item_count(&m.sources[0].plan.plan);
        report_environments(&m);
        status = assign_owners(&m);
    }
    if (status == HB_OK)
        status = merge_into(&m, out);
    for (size_t i = 0; i < count; i++) {
        hb_sweep_files_free(&m.sources[i].files);
        free(m.sources[i].env);
    }
    free(m.sources);
    free(m.owner);
    return status;
}
