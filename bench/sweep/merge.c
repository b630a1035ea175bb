#define _POSIX_C_SOURCE 200809L
#include "bench/sweep/merge.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/json_file.h"
#include "bench/core/whole_file.h"
#include "bench/report/csv_writer.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/sweep_store.h"
#include "bench/sweep/sweep_verdict.h"

typedef struct shard_source {
    const char *folder;
    hb_plan_file plan;
    hb_journal_entry *entries;
    size_t count;
    char *csv;               /* its summary.csv, whole */
    size_t csv_size;
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

/* The GPU model and driver the shard's env.json records ("?" when it has none). */
static void read_environment(shard_source *src)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/env.json", src->folder);
    snprintf(src->gpu, sizeof src->gpu, "?");
    snprintf(src->driver, sizeof src->driver, "?");
    json_t *root = json_load_file(path, 0, NULL);
    const char *gpu = json_string_value(json_object_get(json_object_get(root, "gpu"), "name"));
    const char *driver = json_string_value(json_object_get(json_object_get(root, "software"), "nvidia_driver"));
    if (gpu)
        snprintf(src->gpu, sizeof src->gpu, "%s", gpu);
    if (driver)
        snprintf(src->driver, sizeof src->driver, "%s", driver);
    json_decref(root);
}

/* One shard folder: its plan, journal and summary.csv, checked against each other. */
static hb_status read_source(shard_source *src)
{
    HB_TRY(hb_plan_file_read(src->folder, &src->plan));
    char path[4400];
    long long valid, tail;
    snprintf(path, sizeof path, "%s/" HB_JOURNAL_NAME, src->folder);
    HB_TRY(hb_journal_read(path, &src->plan.plan, &src->entries, &src->count, &valid, &tail));
    if (tail)
        fprintf(stderr, "hgemm-bench: merge: %s ends in a line cut short (%lld bytes): its item counts as not run\n",
                path, tail);
    snprintf(path, sizeof path, "%s/summary.csv", src->folder);
    HB_TRY(hb_read_whole_file(path, 0, HB_ERR_BAD_RESULTS, &src->csv, &src->csv_size));
    long long last = src->count ? src->entries[src->count - 1].csv_end : 0;
    if ((long long)src->csv_size < last)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s is %zu bytes but its journal records %lld: cut short", path,
                       src->csv_size, last);
    read_environment(src);
    return HB_OK;
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

static void report_environments(const merge_state *m)
{
    int mixed = 0;
    for (size_t i = 0; i < m->count; i++) {
        const shard_source *src = &m->sources[i];
        if (src->plan.shard.count > 1)
            fprintf(m->report, "shard %zu/%zu", src->plan.shard.index, src->plan.shard.count);
        else
            fprintf(m->report, "unsharded");
        fprintf(m->report, " %s: %zu items done, GPU %s, driver %s\n", src->folder, src->count, src->gpu, src->driver);
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
        for (size_t e = 0; e < m->sources[s].count; e++) {
            size_t item = m->sources[s].entries[e].item;
            if (m->owner[item] < 0) {
                m->owner[item] = (int)s;
                continue;
            }
            m->duplicates++;
            fprintf(m->report, "duplicate: item %zu (%ld_%ld_%ld %s) finished in %s and %s; kept from %s\n", item,
                    m->sources[s].entries[e].mnk.m, m->sources[s].entries[e].mnk.n, m->sources[s].entries[e].mnk.k,
                    hb_mode_name(m->sources[s].entries[e].mode), m->sources[m->owner[item]].folder,
                    m->sources[s].folder, m->sources[m->owner[item]].folder);
        }
    }
    return HB_OK;
}

/* The bytes of summary.csv holding entry e's rows. */
static void rows_of(const shard_source *src, size_t e, const char **start, size_t *length)
{
    size_t from = e ? (size_t)src->entries[e - 1].csv_end : strcspn(src->csv, "\n") + 1;
    *start = src->csv + from;
    *length = (size_t)src->entries[e].csv_end - from;
}

static hb_status write_merged(merge_state *m, const char *folder)
{
    hb_sweep_store store;
    HB_TRY(hb_sweep_store_create(&store, folder, &m->plan->plan));
    hb_status status = HB_OK;
    for (size_t s = 0; status == HB_OK && s < m->count; s++) {
        const shard_source *src = &m->sources[s];
        for (size_t e = 0; status == HB_OK && e < src->count; e++) {
            hb_journal_entry entry = src->entries[e];
            if (m->owner[entry.item] != (int)s || store.done[entry.item])
                continue;
            const char *rows;
            size_t length;
            rows_of(src, e, &rows, &length);
            if (fwrite(rows, 1, length, store.csv) != length || fflush(store.csv) != 0)
                status = hb_fail(HB_ERR_IO, "writing %s failed: %s", store.csv_path, strerror(errno));
            entry.csv_end = (long long)ftello(store.csv);
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
                                              (json_int_t)src->plan.shard.count, "items_done", (json_int_t)src->count,
                                              "gpu", src->gpu, "driver", src->driver));
    }
    json_t *root = json_pack("{s:s, s:s, s:o}", "format", "hgemm-bench-merge/1", "sweep_id", m->sources[0].plan.sweep_id,
                             "sources", list);
    char path[4400];
    snprintf(path, sizeof path, "%s/merge.json", folder);
    hb_status status = root ? hb_json_write_file(path, root) : hb_fail(HB_ERR_INTERNAL, "out of memory");
    json_decref(root);
    /* the first shard's environment stands for the sweep's; merge.json lists every one */
    char from[4400], to[4400], *text = NULL;
    size_t size = 0;
    snprintf(from, sizeof from, "%s/env.json", m->sources[0].folder);
    snprintf(to, sizeof to, "%s/env.json", folder);
    if (status == HB_OK && access(from, R_OK) == 0 && hb_read_whole_file(from, 0, HB_ERR_IO, &text, &size) == HB_OK) {
        FILE *out = fopen(to, "wb");
        if (!out || fwrite(text, 1, size, out) != size)
            status = hb_fail(HB_ERR_IO, "cannot write %s: %s", to, strerror(errno));
        if (out && fclose(out) != 0 && status == HB_OK)
            status = hb_fail(HB_ERR_IO, "cannot write %s: %s", to, strerror(errno));
    }
    free(text);
    return status;
}

static hb_status merge_into(merge_state *m, const char *out)
{
    struct stat info;
    if (stat(out, &info) == 0)
        return hb_fail(HB_ERR_USAGE, "merge: %s exists: the merged sweep goes to a new folder", out);
    char partial[4200];
    snprintf(partial, sizeof partial, "%s.partial", out);
    if (stat(partial, &info) == 0)
        return hb_fail(HB_ERR_USAGE, "merge: %s exists (an earlier merge that failed?): remove it first", partial);
    HB_TRY(hb_make_folders(partial, "merge folder"));
    hb_status status = write_sources(m, partial); /* each source as it was, its shard included */
    /* then the first folder's plan stands for the whole plan: the shards were checked and recorded */
    m->sources[0].plan.shard = (hb_shard){0, 1};
    m->plan = &m->sources[0].plan;
    if (status == HB_OK)
        status = write_merged(m, partial);
    if (status == HB_OK && rename(partial, out) != 0)
        status = hb_fail(HB_ERR_IO, "cannot rename %s to %s: %s", partial, out, strerror(errno));
    if (status != HB_OK)
        fprintf(stderr, "hgemm-bench: merge failed; the unfinished folder %s is left for inspection\n", partial);
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
        free(m.sources[i].entries);
        free(m.sources[i].csv);
    }
    free(m.sources);
    free(m.owner);
    return status;
}
