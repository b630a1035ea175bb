#include "bench/driver/reproduce_forms.h"

#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"

const char *hb_repro_form_name(hb_form_choice form)
{
    return form == HB_FORM_CHOICE_LAUNCHER ? "launcher" : "replay";
}

static int form_of_word(const char *word, size_t length, hb_form_choice *out)
{
    static const hb_form_choice all[] = {HB_FORM_CHOICE_REPLAY, HB_FORM_CHOICE_LAUNCHER};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const char *name = hb_repro_form_name(all[i]);
        if (strlen(name) == length && !strncmp(word, name, length)) {
            *out = all[i];
            return 1;
        }
    }
    return 0;
}

hb_status hb_repro_forms_parse(const char *list, hb_form_choice forms[HB_REPRO_MAX_FORMS], size_t *n)
{
    *n = 0;
    if (!list) {
        forms[(*n)++] = HB_FORM_CHOICE_REPLAY;
        return HB_OK;
    }
    for (const char *word = list;; word++) {
        size_t length = strcspn(word, ",");
        hb_form_choice form;
        if (!form_of_word(word, length, &form))
            return hb_fail(HB_ERR_USAGE, "--forms %s: '%.*s' is not a form: the forms are replay (the launcher's "
                           "kernels, launched by the harness) and launcher (its own host code), e.g. --forms "
                           "replay,launcher", list, (int)length, word);
        for (size_t i = 0; i < *n; i++)
            if (forms[i] == form)
                return hb_fail(HB_ERR_USAGE, "--forms %s: %s is given twice", list, hb_repro_form_name(form));
        forms[(*n)++] = form;
        word += length;
        if (!*word)
            return HB_OK;
    }
}

void hb_repro_form_sweep(hb_form_choice form, const char *shard_suffix, char *out, size_t size)
{
    snprintf(out, size, "sweep%s%s", form == HB_FORM_CHOICE_LAUNCHER ? "-launcher" : "", shard_suffix);
}

const char *hb_repro_form_report(hb_form_choice form)
{
    return form == HB_FORM_CHOICE_LAUNCHER ? "report-launcher" : "report";
}

const char *hb_repro_form_compare_prefix(hb_form_choice form)
{
    return form == HB_FORM_CHOICE_LAUNCHER ? "compare-launcher-" : "compare-";
}
