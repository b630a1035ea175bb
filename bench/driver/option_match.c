#include "bench/driver/option_match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/edit_distance.h"

/* git's costs for a mistyped command (help.c): a swap is free, a letter
 * missing from the typed word cheap, one too many dear. */
static const hb_edit_costs typo_costs = {.swap = 0, .substitute = 2, .insert = 1, .remove = 3};
/* git's SIMILARITY_FLOOR, "an empirically derived magic number": a name whose
 * distance + 1 reaches it is too far to suggest. */
#define SIMILARITY_FLOOR 7u

static size_t row_count(const hb_option_group *const *groups)
{
    size_t count = 0;
    while (hb_option_at(groups, count))
        count++;
    return count;
}

/* The i-th name a command takes: its flags, then "help" (*row NULL); NULL past them. */
static const char *name_at(const hb_option_group *const *groups, size_t i, const hb_option_row **row)
{
    *row = hb_option_at(groups, i);
    if (*row)
        return (*row)->flag;
    return i == row_count(groups) ? "help" : NULL;
}

static int begins(const char *flag, const char *name) { return !strncmp(flag, name, strlen(name)); }

hb_option_match_kind hb_option_match(const hb_option_group *const *groups, const char *name, const hb_option_row **row)
{
    const hb_option_row *o, *found = NULL;
    const char *flag;
    size_t prefixed = 0;
    for (size_t i = 0; (flag = name_at(groups, i, &o)); i++) {
        if (!strcmp(flag, name)) {
            *row = o;
            return o ? HB_MATCH_FLAG : HB_MATCH_HELP;
        }
        if (*name && begins(flag, name)) {
            prefixed++;
            found = o;
        }
    }
    *row = prefixed == 1 ? found : NULL;
    if (prefixed > 1)
        return HB_MATCH_AMBIGUOUS;
    return prefixed == 0 ? HB_MATCH_NONE : found ? HB_MATCH_FLAG : HB_MATCH_HELP;
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The names that `pick` keeps, in alphabetical order, as a message lists
 * them: "--a, --b or --c". */
static void list_names(const hb_option_group *const *groups, const char *name, char *out, size_t size,
                       int (*pick)(const char *flag, const char *name, unsigned best), unsigned best)
{
    const char *kept[HB_OPTION_ROWS_MAX + 1];
    const hb_option_row *o;
    const char *flag;
    size_t count = 0;
    for (size_t i = 0; (flag = name_at(groups, i, &o)) && count < sizeof kept / sizeof kept[0]; i++)
        if (pick(flag, name, best))
            kept[count++] = flag;
    qsort(kept, count, sizeof kept[0], by_name);
    out[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s--%s", i == 0 ? "" : i + 1 == count ? " or " : ", ", kept[i]);
    }
}

static int pick_prefixed(const char *flag, const char *name, unsigned best)
{
    (void)best;
    return begins(flag, name);
}

static unsigned distance(const char *flag, const char *name) { return hb_edit_distance(name, flag, &typo_costs); }

static int pick_nearest(const char *flag, const char *name, unsigned best) { return distance(flag, name) == best; }

void hb_option_prefixed(const hb_option_group *const *groups, const char *name, char *out, size_t size)
{
    list_names(groups, name, out, size, pick_prefixed, 0);
}

void hb_option_nearest(const hb_option_group *const *groups, const char *name, char *out, size_t size)
{
    const hb_option_row *o;
    const char *flag;
    unsigned best = HB_EDIT_FAR;
    for (size_t i = 0; (flag = name_at(groups, i, &o)); i++)
        if (distance(flag, name) < best)
            best = distance(flag, name);
    out[0] = '\0';
    if (best < SIMILARITY_FLOOR - 1) /* git: distance + 1 < SIMILARITY_FLOOR */
        list_names(groups, name, out, size, pick_nearest, best);
}
