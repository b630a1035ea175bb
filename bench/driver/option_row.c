#include "bench/driver/option_row.h"

#include <string.h>

const hb_option_row *hb_option_at(const hb_option_group *const *groups, size_t i)
{
    for (; *groups; groups++) {
        if (i < (*groups)->count)
            return &(*groups)->rows[i];
        i -= (*groups)->count;
    }
    return NULL;
}

const hb_option_row *hb_option_find(const hb_option_group *const *groups, const char *flag)
{
    const hb_option_row *o;
    for (size_t i = 0; (o = hb_option_at(groups, i)); i++)
        if (!strcmp(o->flag, flag))
            return o;
    return NULL;
}

int hb_option_has_row(const hb_option_group *const *groups, const hb_option_row *row)
{
    const hb_option_row *o;
    for (size_t i = 0; (o = hb_option_at(groups, i)); i++)
        if (o == row)
            return 1;
    return 0;
}

int hb_option_given(const hb_option_parse *p, const char *flag)
{
    for (size_t i = 0; i < p->n_seen; i++)
        if (!strcmp(p->seen[i]->flag, flag))
            return 1;
    return 0;
}

int hb_option_takes(const hb_option_parse *p, const char *flag) { return hb_option_find(p->groups, flag) != NULL; }
