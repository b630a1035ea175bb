#define _POSIX_C_SOURCE 200809L
#include "bench/analysis/candidate_title.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/analysis/result_forms.h"
#include "bench/core/folders.h"
#include "bench/core/input_file.h"

#define PATH_ROOM 4400
/* Import records looked for, one per configuration of the candidate read:
 * a set whose first few have none (their files failed to build) is still
 * found, and a large sweep costs a few opens. */
#define RECORDS_TRIED 16
#define IMPORT_RECORD_FORMAT "hgemm-bench-import-record/" /* bench/import/candidate_files.c */

/* The JSON object at `path` when it is a readable regular file of at most
 * HB_CANDIDATE_TITLE_MAX_BYTES; NULL otherwise, without a word: a title
 * that cannot be read falls back to the path. */
static json_t *quiet_json(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > HB_CANDIDATE_TITLE_MAX_BYTES ||
        access(path, R_OK) != 0)
        return NULL;
    char *text = NULL;
    size_t size = 0;
    if (hb_input_read(path, NULL, HB_CANDIDATE_TITLE_MAX_BYTES, HB_ERR_BAD_RESULTS, 1, &text, &size) != HB_OK || !text)
        return NULL;
    json_t *root = json_loadb(text, size, 0, NULL);
    free(text);
    if (root && !json_is_object(root)) {
        json_decref(root);
        return NULL;
    }
    return root;
}

static const char *last_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* "CUDA-L2 SET" from the import record of one of `candidate`'s
 * configurations in `folder`; 0 when none is there. */
static int imported_set(const hb_result_set *set, const char *candidate, const char *folder, char *out, size_t size)
{
    size_t tried = 0;
    for (size_t i = 0; i < set->count && tried < RECORDS_TRIED; i++) {
        const hb_config_entry *e = &set->entries[i];
        if (e->candidate != candidate)
            continue;
        tried++;
        char path[PATH_ROOM];
        snprintf(path, sizeof path, "%.4000s/%ld_%ld_%ld/record.json", folder, e->key.m, e->key.n, e->key.k);
        json_t *record = quiet_json(path);
        const char *format = json_string_value(json_object_get(record, "format"));
        /* the importer writes the set under "source" (bench/import/candidate_files.c) */
        const char *name = json_string_value(json_object_get(json_object_get(record, "source"), "set"));
        int found = format && name && name[0] && !strncmp(format, IMPORT_RECORD_FORMAT, strlen(IMPORT_RECORD_FORMAT));
        if (found)
            snprintf(out, size, "CUDA-L2 %s", name);
        json_decref(record);
        if (found)
            return 1;
    }
    return 0;
}

/* Where `candidate` would be beside the result folder it was read from:
 * the folder holding that result folder, and the candidate path's last
 * part (OUT/sweep's candidate OUT/set).  0 when the set has no such entry. */
static int beside_results(const hb_result_set *set, const char *candidate, char *out, size_t size)
{
    for (size_t i = 0; i < set->count; i++) {
        const hb_config_entry *e = &set->entries[i];
        if (e->candidate != candidate || !e->source)
            continue;
        char folder[PATH_ROOM];
        snprintf(folder, sizeof folder, "%.4000s", e->source); /* FOLDER/summary.csv */
        for (int up = 0; up < 2; up++) {
            char *slash = strrchr(folder, '/');
            if (!slash) {
                snprintf(folder, sizeof folder, "%s", up ? "." : "..");
                break;
            }
            *slash = '\0';
        }
        snprintf(out, size, "%.4000s/%.300s", folder[0] ? folder : "/", last_part(candidate));
        return 1;
    }
    return 0;
}

void hb_candidate_title(const hb_result_set *set, const char *candidate, char *out, size_t size)
{
    struct stat st;
    if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode)) {
        json_t *manifest = quiet_json(candidate);
        const char *name = json_string_value(json_object_get(manifest, "name"));
        int named = name && name[0];
        if (named)
            snprintf(out, size, "%s", name);
        json_decref(manifest);
        if (named)
            return;
    }
    char beside[PATH_ROOM];
    if (hb_is_folder(candidate) && imported_set(set, candidate, candidate, out, size))
        return;
    if (beside_results(set, candidate, beside, sizeof beside) && strcmp(beside, candidate) && hb_is_folder(beside) &&
        imported_set(set, candidate, beside, out, size))
        return;
    snprintf(out, size, "%s", last_part(candidate));
}

/* " (replay)", or " (replay 70, launcher 10)" for a candidate timed in
 * several forms: what its figures are of (bench/analysis/result_forms.h);
 * "" where no configuration of it says. */
static void form_suffix(const hb_result_set *set, const char *candidate, char *out, size_t size)
{
    size_t counts[HB_N_RESULT_FORMS] = {0}, known = 0;
    for (size_t i = 0; i < set->count; i++)
        for (size_t f = 0; f + 1 < HB_N_RESULT_FORMS; f++) /* the last, "unknown", says nothing */
            if (set->entries[i].candidate == candidate && !strcmp(set->entries[i].form, hb_result_form_at(f)))
                counts[f]++;
    for (size_t f = 0; f < HB_N_RESULT_FORMS; f++)
        known += counts[f] > 0;
    out[0] = '\0';
    for (size_t f = 0, said = 0; f < HB_N_RESULT_FORMS; f++) {
        if (!counts[f])
            continue;
        size_t used = strlen(out);
        if (known > 1)
            snprintf(out + used, size - used, "%s%s %zu", said++ ? ", " : " (", hb_result_form_at(f), counts[f]);
        else
            snprintf(out + used, size - used, " (%s", hb_result_form_at(f));
    }
    if (known)
        snprintf(out + strlen(out), size - strlen(out), ")");
}

void hb_candidate_titles(const hb_result_set *set, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < set->n_candidates; i++) {
        char title[512], forms[128];
        size_t used = strlen(out);
        hb_candidate_title(set, set->candidates[i], title, sizeof title);
        form_suffix(set, set->candidates[i], forms, sizeof forms);
        snprintf(out + used, size - used, "%s%s%s", i ? "; " : "", title, forms);
    }
}
