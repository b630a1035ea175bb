#define _GNU_SOURCE /* tdestroy */
#include "bench/analysis/result_set.h"

#include <math.h>
#include <search.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/bad_results.h"
#include "bench/core/diag.h"
#include "bench/result/verdict.h"

/* A node of the index: a key and where its entry is (entries move when the
 * array grows; their positions do not). */
typedef struct index_node {
    hb_config_key key;
    size_t position;
} index_node;

static int compare_keys(const hb_config_key *a, const hb_config_key *b)
{
    if (a->mode != b->mode)
        return a->mode < b->mode ? -1 : 1;
    if (a->m != b->m)
        return a->m < b->m ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    if (a->k != b->k)
        return a->k < b->k ? -1 : 1;
    return 0;
}

static int compare_nodes(const void *a, const void *b)
{
    return compare_keys(&((const index_node *)a)->key, &((const index_node *)b)->key);
}

int hb_timer_parse(const char *text, hb_timer *out)
{
    static const char *const names[HB_TIMER_COUNT] = {
        [HB_TIMER_EVENT] = "event", [HB_TIMER_WALL] = "wall", [HB_TIMER_KERNEL] = "kernel"};
    for (int t = 0; t < HB_TIMER_COUNT; t++)
        if (!strcmp(text, names[t])) {
            *out = (hb_timer)t;
            return 1;
        }
    return 0;
}

void hb_result_set_init(hb_result_set *set) { memset(set, 0, sizeof *set); }

void hb_result_set_free(hb_result_set *set)
{
    for (size_t i = 0; i < set->count; i++) {
        free(set->entries[i].reason);
    }
    free(set->entries);
    tdestroy(set->index, free);
    for (size_t i = 0; i < set->n_texts; i++)
        free(set->texts[i]);
    free(set->texts);
    free(set->notes);
    free(set->gpus);
    free(set->candidates);
    free(set->missing);
    memset(set, 0, sizeof *set);
}

/* Makes room for one more element of `*items` (each `size` bytes). */
static hb_status grow(void **items, size_t *capacity, size_t count, size_t size)
{
    if (count < *capacity)
        return HB_OK;
    size_t more = *capacity ? 2 * *capacity : 64;
    void *grown = realloc(*items, more * size);
    if (!grown)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory holding %zu results", count);
    *items = grown;
    *capacity = more;
    return HB_OK;
}

const char *hb_result_set_keep(hb_result_set *set, const char *text)
{
    if (grow((void **)&set->texts, &set->cap_texts, set->n_texts, sizeof *set->texts) != HB_OK)
        return NULL;
    char *copy = strdup(text);
    if (!copy) {
        hb_fail(HB_ERR_INTERNAL, "out of host memory");
        return NULL;
    }
    set->texts[set->n_texts++] = copy;
    return copy;
}

hb_config_entry *hb_result_set_find(const hb_result_set *set, const hb_config_key *key)
{
    index_node probe = {*key, 0};
    index_node *const *found = tfind(&probe, &set->index, compare_nodes);
    return found ? &set->entries[(*found)->position] : NULL;
}

static hb_status refuse_twice(const hb_config_entry *first, const hb_config_key *key, const char *source, size_t line)
{
    char mnk[64];
    hb_config_key_mnk(key, mnk, sizeof mnk);
    return hb_bad_results(source, line, 0, NULL,
                          "configuration %s (%s) is also in %s:%zu: result folders must be disjoint (shards of one "
                          "sweep each hold their own configurations; merge them, or leave one out)",
                          mnk, hb_mode_name(key->mode), first->source, first->line);
}

static hb_status add_entry(hb_result_set *set, const hb_config_key *key, const char *source, size_t line)
{
    HB_TRY(grow((void **)&set->entries, &set->capacity, set->count, sizeof *set->entries));
    hb_config_entry *e = &set->entries[set->count];
    memset(e, 0, sizeof *e);
    e->key = *key;
    e->source = source;
    e->line = line;
    for (int t = 0; t < HB_TIMER_COUNT; t++)
        for (int s = 0; s < HB_EST_COUNT; s++)
            for (size_t c = 0; c < HB_MAX_SPEEDUP_COLUMNS; c++)
                e->ratio[t][s][c] = NAN;
    hb_config_timers *x = &e->timers;
    for (size_t c = 0; c < HB_MAX_SPEEDUP_COLUMNS; c++)
        x->paper_event[c] = x->kernel[c] = x->wall_mean_us[c] = x->wall_rel_stdev[c] = x->ci_rel_half[c] = NAN;
    x->candidate_wall_mean_us = x->candidate_wall_rel_stdev = NAN;
    index_node *node = malloc(sizeof *node);
    if (!node)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory holding %zu results", set->count);
    *node = (index_node){*key, set->count};
    if (!tsearch(node, &set->index, compare_nodes)) {
        free(node);
        return hb_fail(HB_ERR_INTERNAL, "out of host memory holding %zu results", set->count);
    }
    set->count++;
    return HB_OK;
}

hb_status hb_result_set_entry(hb_result_set *set, const hb_config_key *key, const char *source, size_t line,
                              hb_config_entry **out)
{
    hb_config_entry *e = hb_result_set_find(set, key);
    if (e && e->source != source)
        return refuse_twice(e, key, source, line);
    if (!e) {
        HB_TRY(add_entry(set, key, source, line));
        e = &set->entries[set->count - 1];
    }
    *out = e;
    return HB_OK;
}

hb_status hb_result_set_note(hb_result_set *set, const char *fmt, ...)
{
    char text[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    const char *kept = hb_result_set_keep(set, text);
    if (!kept)
        return HB_ERR_INTERNAL;
    HB_TRY(grow((void **)&set->notes, &set->cap_notes, set->n_notes, sizeof *set->notes));
    set->notes[set->n_notes++] = kept;
    return HB_OK;
}

hb_status hb_result_set_add_gpu(hb_result_set *set, const char *name)
{
    for (size_t i = 0; i < set->n_gpus; i++)
        if (!strcmp(set->gpus[i], name))
            return HB_OK;
    const char *kept = hb_result_set_keep(set, name);
    if (!kept)
        return HB_ERR_INTERNAL;
    HB_TRY(grow((void **)&set->gpus, &set->cap_gpus, set->n_gpus, sizeof *set->gpus));
    set->gpus[set->n_gpus++] = kept;
    return HB_OK;
}

const char *hb_result_set_add_candidate(hb_result_set *set, const char *path)
{
    for (size_t i = 0; i < set->n_candidates; i++)
        if (!strcmp(set->candidates[i], path))
            return set->candidates[i];
    const char *kept = hb_result_set_keep(set, path);
    if (!kept || grow((void **)&set->candidates, &set->cap_candidates, set->n_candidates, sizeof *set->candidates))
        return NULL;
    set->candidates[set->n_candidates++] = kept;
    return kept;
}

hb_status hb_result_set_add_missing(hb_result_set *set, const hb_config_key *key, const char *plan)
{
    HB_TRY(grow((void **)&set->missing, &set->cap_missing, set->n_missing, sizeof *set->missing));
    set->missing[set->n_missing++] = (hb_missing_config){*key, plan};
    return HB_OK;
}

int hb_config_counts(const hb_config_entry *entry)
{
    return !strcmp(entry->verdict, hb_verdict_name(HB_VERDICT_PASS)) ||
           !strcmp(entry->verdict, hb_verdict_name(HB_VERDICT_TOO_SLOW)) ||
           !strcmp(entry->verdict, hb_verdict_name(HB_VERDICT_UNDECIDED));
}

void hb_config_key_mnk(const hb_config_key *key, char *out, size_t size)
{
    snprintf(out, size, "%ld_%ld_%ld", key->m, key->n, key->k);
}

static int compare_entries(const void *a, const void *b)
{
    return compare_keys(&((const hb_config_entry *)a)->key, &((const hb_config_entry *)b)->key);
}

static hb_status reindex(hb_result_set *set)
{
    tdestroy(set->index, free);
    set->index = NULL;
    for (size_t i = 0; i < set->count; i++) {
        index_node *node = malloc(sizeof *node);
        if (!node)
            return hb_fail(HB_ERR_INTERNAL, "out of host memory indexing %zu results", set->count);
        *node = (index_node){set->entries[i].key, i};
        if (!tsearch(node, &set->index, compare_nodes)) {
            free(node);
            return hb_fail(HB_ERR_INTERNAL, "out of host memory indexing %zu results", set->count);
        }
    }
    return HB_OK;
}

hb_status hb_result_set_sort(hb_result_set *set)
{
    if (set->count > 1) /* qsort's array may not be NULL, even with nothing to sort (a plan and no rows yet) */
        qsort(set->entries, set->count, sizeof *set->entries, compare_entries);
    return reindex(set);
}
