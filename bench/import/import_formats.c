#include "bench/import/import_formats.h"

#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/edit_distance.h"
#include "bench/import/cuda_l2/cuda_l2_format.h"

const hb_import_format *const hb_import_formats[] = {
    &hb_cuda_l2_format,
    NULL,
};

const hb_import_format *hb_import_format_find(const char *name)
{
    for (size_t i = 0; name && hb_import_formats[i]; i++)
        if (!strcmp(name, hb_import_formats[i]->name))
            return hb_import_formats[i];
    return NULL;
}

/* git's costs and floor for "did you mean" (help.c), as the flags' hints use them. */
static const hb_edit_costs typo_costs = {.swap = 0, .substitute = 2, .insert = 1, .remove = 3};
#define SIMILARITY_FLOOR 7u

/* " (did you mean cuda-l2?)" for the nearest name, "" when none is near. */
static void nearest(const char *name, char *out, size_t size)
{
    out[0] = '\0';
    unsigned best = HB_EDIT_FAR;
    const char *found = NULL;
    for (size_t i = 0; hb_import_formats[i]; i++) {
        unsigned d = hb_edit_distance(name, hb_import_formats[i]->name, &typo_costs);
        if (d < best)
            best = d, found = hb_import_formats[i]->name;
    }
    if (found && best + 1 < SIMILARITY_FLOOR)
        snprintf(out, size, " (did you mean %s?)", found);
}

hb_status hb_import_format_lookup(const char *command, const char *name, const hb_import_format **out)
{
    *out = hb_import_format_find(name);
    if (*out)
        return HB_OK;
    char near[96] = "", known[1024] = "";
    if (name)
        nearest(name, near, sizeof near);
    for (size_t i = 0; hb_import_formats[i]; i++) {
        size_t used = strlen(known);
        snprintf(known + used, sizeof known - used, "%s%s (%s)", i ? ", " : "", hb_import_formats[i]->name,
                 hb_import_formats[i]->description);
    }
    if (!name)
        return hb_fail(HB_ERR_USAGE, "%s: name one format (%s FORMAT ...): the formats are %s", command,
                       command, known);
    return hb_fail(HB_ERR_USAGE, "%s: no import format '%s'%s: the formats are %s", command, name, near, known);
}
