#define _POSIX_C_SOURCE 200809L /* strdup */
#include "bench/analysis/build_reasons.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/analysis/csv_reader.h"
#include "bench/analysis/number_ranges.h"
#include "bench/core/diag.h"

enum { I_M, I_N, I_K, I_STATE, I_REASON, I_COUNT };
static const char *const wanted[I_COUNT] = {"m", "n", "k", "state", "reason"};

/* The states of an item the importer built (bench/import/import_report.c). */
static int built(const char *state) { return !strcmp(state, "built") || !strcmp(state, "cached"); }

typedef struct applying {
    hb_result_set *set;
    const char *candidate;
} applying;

static hb_status on_row(void *context, const hb_csv_row *row)
{
    const applying *a = context;
    if (built(row->text[I_STATE]))
        return HB_OK;
    long m, n, k;
    HB_TRY(hb_csv_dimension(row, I_M, &m));
    HB_TRY(hb_csv_dimension(row, I_N, &n));
    HB_TRY(hb_csv_dimension(row, I_K, &k));
    for (size_t i = 0; i < a->set->count; i++) {
        hb_config_entry *e = &a->set->entries[i];
        if (e->candidate != a->candidate || e->key.m != m || e->key.n != n || e->key.k != k ||
            hb_config_counts(e))
            continue;
        size_t size = strlen(row->text[I_STATE]) + strlen(row->text[I_REASON]) + 64;
        char *reason = malloc(size);
        if (!reason)
            return hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", row->path);
        snprintf(reason, size, "not built (import.csv: %s): %s", row->text[I_STATE],
                 row->text[I_REASON][0] ? row->text[I_REASON] : "no reason given");
        free(e->reason);
        e->reason = reason;
    }
    return HB_OK;
}

/* `candidate`/import.csv, where the candidate is a folder that holds one. */
static hb_status apply_one(hb_result_set *set, const char *candidate)
{
    char path[4200];
    struct stat st;
    if ((size_t)snprintf(path, sizeof path, "%s/import.csv", candidate) >= sizeof path || stat(path, &st) != 0 ||
        !S_ISREG(st.st_mode))
        return HB_OK; /* not an imported set, or not on this machine */
    applying a = {set, candidate};
    hb_csv_spec spec = {.what = "an import.csv of hgemm-bench import", .wanted = wanted, .n_wanted = I_COUNT,
                        .row = on_row, .context = &a};
    int was_quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(1);
    hb_status status = hb_csv_read(path, &spec);
    hb_diag_set_quiet(was_quiet);
    if (status == HB_ERR_INTERNAL)
        return status;
    if (status != HB_OK)
        return hb_result_set_note(set, "%s not used for the build reasons: %s", path, hb_last_error());
    return HB_OK;
}

hb_status hb_apply_build_reasons(hb_result_set *set)
{
    for (size_t c = 0; c < set->n_candidates; c++)
        HB_TRY(apply_one(set, set->candidates[c]));
    return HB_OK;
}
