#include "bench/analysis/speedup_columns.h"

#include <stdio.h>
#include <string.h>

#include "bench/result/baseline_registry.h"

static hb_speedup_column columns[HB_MAX_SPEEDUP_COLUMNS];
static size_t column_count;

static void add(const char *name, const char *published, const char *style, int is_max)
{
    if (column_count == HB_MAX_SPEEDUP_COLUMNS)
        return; /* the registry outgrew the bound: the last columns are left out, and the tests say so */
    hb_speedup_column *c = &columns[column_count++];
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->published, sizeof c->published, "%s", published);
    /* a -max curve: its NN row's colour, dash and points, drawn thicker */
    snprintf(c->plot_style, sizeof c->plot_style, "%s%s", style, is_max ? " lw 3" : "");
    c->is_max = is_max;
}

/* The -max pair whose NN row is `e`, or -1. */
static int pair_headed_by(const hb_baseline_entry *e)
{
    for (size_t i = 0; i < hb_max_pair_count(); i++)
        if (!strcmp(hb_max_pair_at(i).nn, e->name))
            return (int)i;
    return -1;
}

/* Registry order, except that a pair is written TN, NN, max where its NN
 * row stands: the published files' order. */
static void build(void)
{
    if (column_count)
        return;
    for (size_t i = 0; i < HB_N_BASELINES; i++) {
        const hb_baseline_entry *e = &hb_baselines[i];
        int pair = pair_headed_by(e);
        if (pair < 0) {
            if (!e->max_row) /* a TN row is added with its pair */
                add(e->name, e->published, e->plot_style, 0);
            continue;
        }
        hb_max_pair p = hb_max_pair_at((size_t)pair);
        const hb_baseline_entry *tn = hb_baseline_find(p.tn);
        add(tn->name, tn->published, tn->plot_style, 0);
        add(e->name, e->published, e->plot_style, 0);
        add(p.name, p.published, e->plot_style, 1);
    }
}

size_t hb_speedup_column_count(void)
{
    build();
    return column_count;
}

const hb_speedup_column *hb_speedup_column_at(size_t index)
{
    build();
    return index < column_count ? &columns[index] : NULL;
}

int hb_speedup_column_find(const char *name)
{
    build();
    for (size_t i = 0; i < column_count; i++)
        if (!strcmp(columns[i].name, name))
            return (int)i;
    return -1;
}

int hb_speedup_column_find_published(const char *published)
{
    build();
    for (size_t i = 0; i < column_count; i++)
        if (!strcmp(columns[i].published, published))
            return (int)i;
    return -1;
}

int hb_speedup_column_autotune_max(void)
{
    for (size_t i = 0; i < hb_max_pair_count(); i++) {
        hb_max_pair p = hb_max_pair_at(i);
        const hb_baseline_entry *nn = hb_baseline_find(p.nn);
        if (nn && nn->kind == HB_KIND_LT_AUTOTUNE)
            return hb_speedup_column_find(p.name);
    }
    return -1;
}
