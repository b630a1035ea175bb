#include "bench/analysis/speedup_source.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/analysis/paper_tables.h"
#include "bench/analysis/speedup_columns.h"

hb_timer hb_source_timer(hb_timer timer)
{
    return timer == HB_TIMER_KERNEL ? HB_TIMER_EVENT : timer;
}

hb_source_class hb_source_class_of(double headline, double kernel)
{
    if (!(kernel > 0))
        return HB_SOURCE_NO_KERNEL;
    if (headline > 1)
        return kernel > 1 ? HB_SOURCE_BOTH : HB_SOURCE_HEADLINE_ONLY;
    return kernel > 1 ? HB_SOURCE_KERNEL_ONLY : HB_SOURCE_NEITHER;
}

int hb_source_ratios(const hb_config_entry *e, const hb_source_select *s, size_t column, double *headline,
                     double *kernel)
{
    if (e->key.mode != s->mode || !hb_config_counts(e) || (s->filter && !s->filter(e, s->context)))
        return 0;
    double h = hb_config_ratio(e, s->timer, HB_EST_PAPER, column);
    double k = hb_config_ratio(e, HB_TIMER_KERNEL, HB_EST_PAPER, column);
    *headline = h > 0 ? h : NAN;
    *kernel = k > 0 ? k : NAN;
    return 1;
}

/* Configurations `s` takes with a headline figure over `column`. */
static size_t with_headline(const hb_result_set *set, const hb_source_select *s, size_t column)
{
    size_t n = 0;
    for (size_t i = 0; i < set->count; i++) {
        double h, k;
        n += hb_source_ratios(&set->entries[i], s, column, &h, &k) && h > 0;
    }
    return n;
}

size_t hb_source_column(const hb_result_set *set, const hb_source_select *s)
{
    /* torch.matmul: the baseline the paper's claim and our headline lead with,
     * so the caption's counts read beside the summary page's first table. */
    int torch = hb_speedup_column_find("torch");
    size_t fallback = torch >= 0 ? (size_t)torch : 0;
    if (torch >= 0 && with_headline(set, s, (size_t)torch) > 0)
        return (size_t)torch;
    size_t best = fallback, most = 0;
    for (size_t c = 0; c < hb_speedup_column_count(); c++) {
        size_t n = with_headline(set, s, c);
        if (n > most) {
            best = c;
            most = n;
        }
    }
    return best;
}

void hb_source_count(const hb_result_set *set, const hb_source_select *s, size_t column, hb_speedup_source *out)
{
    *out = (hb_speedup_source){.column = column};
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        double h, k;
        if (!hb_source_ratios(e, s, column, &h, &k) || !(h > 0))
            continue;
        out->configs++;
        out->win_headline += h > 1;
        out->win_kernel += k > 1;
        out->with_kernel += k > 0;
        out->wall_headline += s->timer == HB_TIMER_EVENT && !strcmp(e->timers.headline_timer, "wall");
        out->by_class[hb_source_class_of(h, k)]++;
    }
}

/* "the headline timer (CUDA events; the wall clock for 3)", or "the wall clock". */
static void headline_words(const hb_speedup_source *c, const hb_source_select *s, char *out, size_t size)
{
    if (s->timer == HB_TIMER_WALL)
        snprintf(out, size, "the wall clock");
    else if (c->wall_headline)
        snprintf(out, size, "the headline timer (CUDA events; the wall clock for %zu, whose work left the events)",
                 c->wall_headline);
    else
        snprintf(out, size, "the headline timer (CUDA events)");
}

void hb_source_caption(const hb_speedup_source *c, const hb_source_select *s, char *out, size_t size)
{
    char headline[160], kernel[160];
    headline_words(c, s, headline, sizeof headline);
    if (c->configs && c->with_kernel == 0)
        snprintf(kernel, sizeof kernel, "none has a kernel time (run without the call monitor)");
    else if (c->with_kernel < c->configs)
        snprintf(kernel, sizeof kernel, "%zu on kernel time (of the %zu with one)", c->win_kernel, c->with_kernel);
    else
        snprintf(kernel, sizeof kernel, "%zu on kernel time", c->win_kernel);
    snprintf(out, size, "%zu of %zu %s win on %s, %s; against %s, %s mode (a win: t_base / t_cand > 1)",
             c->win_headline, c->configs, s->which, headline, kernel, hb_speedup_column_at(c->column)->name,
             hb_mode_name(s->mode));
}

const char *hb_source_class_words(hb_source_class c)
{
    static const char *const words[HB_SOURCE_CLASS_COUNT] = {
        [HB_SOURCE_BOTH] = "wins on both",
        [HB_SOURCE_HEADLINE_ONLY] = "wins on the headline only: host path",
        [HB_SOURCE_KERNEL_ONLY] = "wins on kernel time only",
        [HB_SOURCE_NEITHER] = "wins on neither",
        [HB_SOURCE_NO_KERNEL] = "no kernel time"};
    return c < HB_SOURCE_CLASS_COUNT ? words[c] : "?";
}
