#define _POSIX_C_SOURCE 200809L /* strdup */
#include "bench/analysis/result_forms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const forms[HB_N_RESULT_FORMS] = {"cubin", "replay", "launcher", HB_FORM_UNKNOWN};

const char *hb_result_form_at(size_t i)
{
    return i < HB_N_RESULT_FORMS ? forms[i] : NULL;
}

int hb_result_form_known(const char *form)
{
    for (size_t i = 0; i + 1 < HB_N_RESULT_FORMS; i++)
        if (!strcmp(form, forms[i]))
            return 1;
    return 0;
}

/* An entry whose form was never read (no candidate row) is "unknown". */
static size_t form_index(const hb_config_entry *e)
{
    for (size_t i = 0; i < HB_N_RESULT_FORMS; i++)
        if (!strcmp(e->form, forms[i]))
            return i;
    return HB_N_RESULT_FORMS - 1;
}

size_t hb_result_form_counts(const hb_result_set *set, size_t counts[HB_N_RESULT_FORMS])
{
    memset(counts, 0, HB_N_RESULT_FORMS * sizeof *counts);
    for (size_t i = 0; i < set->count; i++)
        counts[form_index(&set->entries[i])]++;
    size_t held = 0;
    for (size_t i = 0; i < HB_N_RESULT_FORMS; i++)
        held += counts[i] > 0;
    return held;
}

void hb_result_form_words(const size_t counts[HB_N_RESULT_FORMS], char *out, size_t size)
{
    size_t held = 0;
    for (size_t i = 0; i < HB_N_RESULT_FORMS; i++)
        held += counts[i] > 0;
    snprintf(out, size, "%s", held > 1 ? "forms: " : "form: ");
    for (size_t i = 0, said = 0; i < HB_N_RESULT_FORMS; i++) {
        if (!counts[i])
            continue;
        size_t used = strlen(out);
        if (held > 1)
            snprintf(out + used, size - used, "%s%s %zu", said++ ? ", " : "", forms[i], counts[i]);
        else
            snprintf(out + used, size - used, "%s", forms[i]);
    }
}

static hb_status copy_entry(hb_result_set *out, const hb_config_entry *from)
{
    hb_config_entry *e;
    HB_TRY(hb_result_set_entry(out, &from->key, from->source, from->line, &e));
    *e = *from;
    e->reason = from->reason ? strdup(from->reason) : NULL;
    if (from->reason && !e->reason)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory splitting the configurations by form");
    return HB_OK;
}

hb_status hb_result_set_of_form(const hb_result_set *set, const char *form, hb_result_set *out)
{
    hb_result_set_init(out);
    for (size_t i = 0; i < set->n_gpus; i++)
        HB_TRY(hb_result_set_add_gpu(out, set->gpus[i]));
    for (size_t i = 0; i < set->count; i++)
        if (!strcmp(forms[form_index(&set->entries[i])], form))
            HB_TRY(copy_entry(out, &set->entries[i]));
    return HB_OK;
}

static hb_status mark_table(hb_doc_table *t, const char *form, int split)
{
    if (split) {
        char name[sizeof t->name], title[sizeof t->title];
        /* the names and titles are the harness's own, well inside their fields */
        if (snprintf(name, sizeof name, "%s_%s", t->name, form) >= (int)sizeof name ||
            snprintf(title, sizeof title, "%s (form: %s)", t->title, form) >= (int)sizeof title)
            return hb_fail(HB_ERR_INTERNAL, "table %s: its name or title with the form is too long", t->name);
        memcpy(t->name, name, sizeof name);
        memcpy(t->title, title, sizeof title);
    }
    if (!t->caption)
        return hb_doc_caption(t, "Form: %s.", form);
    char *caption = t->caption;
    t->caption = NULL;
    hb_status status = hb_doc_caption(t, "%s Form: %s.", caption, form);
    if (status != HB_OK)
        t->caption = caption;
    else
        free(caption);
    return status;
}

hb_status hb_doc_mark_form(hb_doc *doc, size_t first, const char *form, int split)
{
    for (size_t i = first; i < doc->n_tables; i++)
        HB_TRY(mark_table(doc->tables[i], form, split));
    return HB_OK;
}
