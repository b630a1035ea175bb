#include "bench/sweep/sweep_plan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/rng.h"

size_t hb_plan_item_count(const hb_sweep_plan *plan)
{
    return plan->n_configs * plan->n_modes;
}

hb_plan_item hb_plan_item_at(const hb_sweep_plan *plan, size_t item)
{
    hb_plan_item it = {item / plan->n_modes, plan->modes[item % plan->n_modes]};
    return it;
}

static const long paper_dims[] = {64, 128, 256, 512, 1024, 2048, 4096, 8192, 12288, 16384};
#define PAPER_DIM_COUNT (sizeof paper_dims / sizeof paper_dims[0])

void hb_plan_grid_paper(hb_sweep_plan *plan)
{
    plan->n_configs = 0;
    for (size_t m = 0; m < PAPER_DIM_COUNT; m++)
        for (size_t n = 0; n < PAPER_DIM_COUNT; n++)
            for (size_t k = 0; k < PAPER_DIM_COUNT; k++)
                plan->configs[plan->n_configs++] = (hb_mnk){paper_dims[m], paper_dims[n], paper_dims[k]};
}

hb_status hb_plan_add(hb_sweep_plan *plan, hb_mnk mnk, const char *where)
{
    if (plan->n_configs == HB_MAX_CONFIGS)
        return hb_fail(HB_ERR_USAGE, "%s: the plan has more than %d configurations (the limit of one sweep: split it "
                       "into several sweeps)", where, HB_MAX_CONFIGS);
    plan->configs[plan->n_configs++] = mnk;
    return HB_OK;
}

/* One comma-separated list of dimensions, each 1..HB_MAX_DIM. */
static hb_status parse_dims(const char *flag, const char *list, long *dims, size_t *count, size_t capacity)
{
    *count = 0;
    const char *cursor = list;
    for (;;) {
        char *end = NULL;
        errno = 0;
        long value = (*cursor >= '0' && *cursor <= '9') ? strtol(cursor, &end, 10) : 0;
        if (!end || end == cursor || errno || value < 1 || value > HB_MAX_DIM || (*end != ',' && *end != '\0'))
            return hb_fail(HB_ERR_USAGE, "--%s expects dimensions 1..%ld separated by commas, got '%s'", flag,
                           HB_MAX_DIM, list);
        if (*count == capacity)
            return hb_fail(HB_ERR_USAGE, "--%s: more than %zu dimensions in '%s'", flag, capacity, list);
        dims[(*count)++] = value;
        if (*end == '\0')
            return HB_OK;
        cursor = end + 1;
    }
}

hb_status hb_plan_axes(hb_sweep_plan *plan, const char *m_list, const char *n_list, const char *k_list)
{
    static long m[HB_MAX_CONFIGS], n[HB_MAX_CONFIGS], k[HB_MAX_CONFIGS];
    size_t nm, nn, nk;
    HB_TRY(parse_dims("m", m_list, m, &nm, HB_MAX_CONFIGS));
    HB_TRY(parse_dims("n", n_list, n, &nn, HB_MAX_CONFIGS));
    HB_TRY(parse_dims("k", k_list, k, &nk, HB_MAX_CONFIGS));
    if ((double)nm * (double)nn * (double)nk > HB_MAX_CONFIGS)
        return hb_fail(HB_ERR_USAGE, "--m, --n, --k: %zu x %zu x %zu configurations exceed the limit of %d of one "
                       "sweep", nm, nn, nk, HB_MAX_CONFIGS);
    plan->n_configs = 0;
    for (size_t a = 0; a < nm; a++)
        for (size_t b = 0; b < nn; b++)
            for (size_t c = 0; c < nk; c++)
                plan->configs[plan->n_configs++] = (hb_mnk){m[a], n[b], k[c]};
    return HB_OK;
}

static int same_mnk(const hb_mnk *a, const hb_mnk *b)
{
    return a->m == b->m && a->n == b->n && a->k == b->k;
}

/* Quadratic, but over at most HB_MAX_CONFIGS entries once per plan: a
 * fraction of a second at worst, and it keeps the order without a sort. */
size_t hb_plan_dedupe(hb_sweep_plan *plan)
{
    size_t kept = 0;
    for (size_t i = 0; i < plan->n_configs; i++) {
        int seen = 0;
        for (size_t j = 0; j < kept && !seen; j++)
            seen = same_mnk(&plan->configs[j], &plan->configs[i]);
        if (!seen)
            plan->configs[kept++] = plan->configs[i];
    }
    size_t dropped = plan->n_configs - kept;
    plan->n_configs = kept;
    return dropped;
}

hb_status hb_plan_set_modes(hb_sweep_plan *plan, const char *list)
{
    static const struct {
        const char *text;
        hb_mode modes[HB_PLAN_MAX_MODES];
        size_t count;
    } accepted[] = {
        {"offline", {HB_MODE_OFFLINE}, 1},
        {"server", {HB_MODE_SERVER}, 1},
        {"offline,server", {HB_MODE_OFFLINE, HB_MODE_SERVER}, 2},
        {"server,offline", {HB_MODE_SERVER, HB_MODE_OFFLINE}, 2},
    };
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        if (strcmp(accepted[i].text, list))
            continue;
        memcpy(plan->modes, accepted[i].modes, sizeof plan->modes);
        plan->n_modes = accepted[i].count;
        return HB_OK;
    }
    return hb_fail(HB_ERR_USAGE, "--modes expects offline, server or offline,server, got '%s'", list);
}

/* --- the stratified sample ----------------------------------------------------- */

typedef struct sized {
    double log2_size; /* log2(M*N*K) */
    size_t index;     /* in the plan */
} sized;

static int by_size_then_index(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    if (x->log2_size != y->log2_size)
        return x->log2_size < y->log2_size ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int by_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

void hb_plan_sample(hb_sweep_plan *plan, size_t count, uint64_t seed)
{
    const size_t total = plan->n_configs;
    if (count == 0 || count >= total)
        return;
    static sized order[HB_MAX_CONFIGS];
    static size_t chosen[HB_MAX_CONFIGS];
    for (size_t i = 0; i < total; i++) {
        const hb_mnk *c = &plan->configs[i];
        order[i] = (sized){log2((double)c->m) + log2((double)c->n) + log2((double)c->k), i};
    }
    qsort(order, total, sizeof order[0], by_size_then_index);
    hb_rng rng;
    hb_rng_seed(&rng, seed ^ 0x5a3b1e0f2c4d6e8aULL); /* not the inputs' stream: a plan and its data stay apart */
    for (size_t g = 0; g < count; g++) {
        /* group g holds the sorted positions [g*total/count, (g+1)*total/count) */
        size_t first = g * total / count, end = (g + 1) * total / count;
        chosen[g] = order[first + hb_rng_below(&rng, end - first)].index;
    }
    qsort(chosen, count, sizeof chosen[0], by_index);
    for (size_t g = 0; g < count; g++)
        plan->configs[g] = plan->configs[chosen[g]];
    plan->n_configs = count;
}

uint64_t hb_fnv1a(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; i++) {
        hash ^= bytes[i];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}
