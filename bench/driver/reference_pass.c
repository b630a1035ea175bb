#include "bench/driver/reference_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines/autotune_cache.h"
#include "bench/core/diag.h"
#include "bench/core/version.h"
#include "bench/driver/isolate.h"
#include "bench/driver/reference_eval.h"
#include "bench/report/reference_cache.h"
#include "bench/trace/call_monitor.h"

/* --- where the cache is ------------------------------------------------------------------ */

/* --baseline-reference FILE; without it, baseline-reference.json in the
 * autotune cache's default folder; NULL with `fresh`, or where there is no
 * such folder (no HOME: every configuration is measured, as with fresh). */
static const char *cache_path(const hb_run_options *o)
{
    static char path[4200];
    if (o->baseline_reference)
        return strcmp(o->baseline_reference, "fresh") ? o->baseline_reference : NULL;
    char file[4096];
    int quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(1);
    hb_status found = hb_autotune_cache_default_path(file, sizeof file);
    hb_diag_set_quiet(quiet);
    if (found != HB_OK)
        return NULL;
    char *slash = strrchr(file, '/');
    if (slash)
        *slash = '\0';
    snprintf(path, sizeof path, "%s/" HB_REFERENCE_CACHE_FILE, file);
    return path;
}

/* --- the key ------------------------------------------------------------------------------ */

static void key_of(const hb_run_options *o, const hb_device_info *device, size_t index, hb_reference_key *key)
{
    const hb_mnk *c = &o->configs[index];
    memset(key, 0, sizeof *key);
    snprintf(key->gpu_uuid, sizeof key->gpu_uuid, "%s", device->uuid[0] ? device->uuid : device->pci_bus_id);
    snprintf(key->driver, sizeof key->driver, "%s", device->driver);
    snprintf(key->harness, sizeof key->harness, "%s", hb_harness_commit());
    key->m = c->m;
    key->n = c->n;
    key->k = c->k;
    snprintf(key->acc, sizeof key->acc, "%s", hb_acc_class_name(o->acc));
    snprintf(key->mode, sizeof key->mode, "%s", hb_mode_name(o->mode));
    snprintf(key->gap, sizeof key->gap, "%s", hb_gap_name(o->mode, o->gap));
    key->mean_gap_ms = o->mode == HB_MODE_SERVER ? o->mean_gap_ms : 0;
    snprintf(key->l2, sizeof key->l2, "%s", hb_l2_policy_name(o->l2));
    snprintf(key->stream, sizeof key->stream, "%s", hb_stream_policy_name(o->stream));
    key->workspace_bytes = o->workspace_bytes;
    key->warmup_s = o->reference_warmup_s;
    key->time_s = o->reference_time_s;
    const char *parts = getenv(HB_MONITOR_PARTS_ENV); /* a cost measurement runs fewer parts: another cost */
    snprintf(key->monitor, sizeof key->monitor, "%s", !o->trace ? "off" : parts ? parts : "all");
    snprintf(key->sandbox, sizeof key->sandbox, "%s", o->isolate && o->sandbox ? "on" : "off");
}

/* --- a cached reference, if it still applies --------------------------------------------- */

/* The autotune cache's entry for registry row `i` now: 1 and its text, 0
 * where it has none; -1 where the cache cannot be read. */
static int autotune_entry(const hb_run_options *o, const hb_device_info *device, size_t index, int i, char *text,
                          size_t size)
{
    const hb_mnk *c = &o->configs[index];
    hb_autotune_key key;
    hb_autotune_key_make(device, o->acc, hb_baselines[i].b_layout, o->workspace_bytes, c->m, c->n, c->k, &key);
    hb_autotune_entry entry;
    int found = 0;
    if (hb_autotune_cache_lookup(o->autotune_cache, &key, &entry, &found) != HB_OK)
        return -1;
    if (found)
        snprintf(text, size, "%s", entry.algo_text);
    return found;
}

/* Each autotune baseline's entry in the autotune cache is the one the
 * reference was measured with (or, with no search, there is still none and
 * the heuristic picks): else the candidate's process would run another
 * algorithm than the one the reference measured. */
static int choices_current(const hb_run_options *o, const hb_device_info *device, size_t index,
                           const hb_baseline_reference *ref)
{
    if (!o->autotune_cache)
        return 1; /* no shared choice: an autotune baseline that chose another is not held (the judgement says so) */
    for (int i = 0; i < HB_N_BASELINES; i++) {
        if (hb_baselines[i].kind != HB_KIND_LT_AUTOTUNE)
            continue;
        const hb_baseline_figures *f = hb_reference_find(ref, hb_baselines[i].name);
        char text[sizeof f->choice];
        const int found = f ? autotune_entry(o, device, index, i, text, sizeof text) : -1;
        if (found < 0 || !hb_reference_choice_current(f, found ? text : NULL, o->autotune_search))
            return 0;
    }
    return 1;
}

/* The autotune cache's entries the measured reference ran (the clean process stored them). */
static void record_choices(const hb_run_options *o, const hb_device_info *device, size_t index,
                           hb_baseline_reference *ref)
{
    if (!o->autotune_cache)
        return;
    for (size_t j = 0; j < ref->count; j++) {
        hb_baseline_figures *f = &ref->baseline[j];
        const hb_baseline_entry *row = hb_baseline_find(f->name);
        if (row && row->kind == HB_KIND_LT_AUTOTUNE &&
            autotune_entry(o, device, index, (int)(row - hb_baselines), f->choice, sizeof f->choice) != 1)
            f->choice[0] = '\0';
    }
}

static int from_cache(const hb_run_options *o, const hb_device_info *device, size_t index, const char *path,
                      const hb_reference_key *key, hb_baseline_reference *out)
{
    int found = 0;
    char why[200];
    if (hb_reference_cache_lookup(path, key, out, &found) != HB_OK) {
        hb_warn("%s; the baselines' reference is measured again", hb_last_error());
        return 0;
    }
    if (found && !hb_reference_complete(out, why, sizeof why)) {
        hb_warn("%s: the reference of M=%ld N=%ld K=%ld is not whole (%s); it is measured again", path, key->m, key->n,
                key->k, why);
        return 0;
    }
    return found && choices_current(o, device, index, out);
}

/* --- the clean process --------------------------------------------------------------------- */

typedef struct clean_job {
    const hb_run_options *options;
    size_t index;
} clean_job;

/* What the clean child sends back: the reference, or why it has none. */
typedef struct clean_result {
    hb_baseline_reference reference;
    char error[512];
} clean_result;

static hb_status measure_in_child(void *context, void *result, size_t size)
{
    (void)size;
    const clean_job *job = context;
    clean_result *out = result;
    hb_status status = hb_measure_baseline_reference(job->options, job->index, &out->reference);
    if (status != HB_OK)
        snprintf(out->error, sizeof out->error, "%s", hb_last_error());
    return status;
}

/* The configuration's error: no candidate code ran in the clean process, so its end is the harness's. */
static hb_status clean_failed(hb_config_result *r, const hb_mnk *mnk, hb_status status, const char *what)
{
    hb_config_result_init(r, mnk);
    r->status = status;
    r->verdict = hb_verdict_of_status(status);
    snprintf(r->reason, sizeof r->reason, "the baselines' clean process (no candidate code) %.440s", what);
    return hb_fail(status, "%s", r->reason);
}

static hb_status measure(const hb_run_options *o, size_t index, hb_baseline_reference *out, hb_config_result *r,
                         int *cut)
{
    static clean_result result;
    memset(&result, 0, sizeof result);
    clean_job job = {o, index};
    hb_child_outcome outcome;
    const hb_mnk *mnk = &o->configs[index];
    hb_status status = hb_run_isolated(measure_in_child, &job, &result, sizeof result, o->timeout_s, &outcome);
    if (status != HB_OK)
        return clean_failed(r, mnk, status, hb_last_error());
    if (outcome.end == HB_CHILD_INTERRUPTED) {
        *cut = 1;
        return HB_OK;
    }
    char what[700];
    if (outcome.end != HB_CHILD_RETURNED) {
        snprintf(what, sizeof what, "%s: the harness's fault, not the candidate's", outcome.message);
        return clean_failed(r, mnk, HB_ERR_CUDA, what);
    }
    if (outcome.status != HB_OK) {
        snprintf(what, sizeof what, "failed: %s", result.error);
        return clean_failed(r, mnk, outcome.status, what);
    }
    *out = result.reference;
    return HB_OK;
}

/* --- what the evaluation is handed ------------------------------------------------------- */

/* Why this configuration gets no reference (its record's reason), or NULL. */
static const char *no_reference(const hb_run_options *o, const hb_device_info *device)
{
    if (o->check_only)
        return "check: nothing is timed";
    if (!o->isolate)
        return "--no-isolate: no clean process beside the evaluating one";
    if (!device)
        return "the GPU was not read";
    return NULL;
}

/* pass cleared; 1 when the configuration gets no reference, pass->record saying so: off, one of the reasons every
 * configuration has (no_reference, first), or `why` (NULL: none of its own). */
static int without_reference(const hb_run_options *o, const hb_device_info *device, const char *why,
                             hb_reference_pass *pass)
{
    memset(pass, 0, sizeof *pass);
    if (o->baseline_reference && !strcmp(o->baseline_reference, "off")) {
        pass->record.source = HB_REF_OFF;
        return 1;
    }
    const char *first = no_reference(o, device);
    if (!first && !why)
        return 0;
    pass->record.source = HB_REF_NONE;
    snprintf(pass->record.why, sizeof pass->record.why, "%s", first ? first : why);
    return 1;
}

hb_status hb_reference_prepare(const hb_run_options *o, const hb_device_info *device, size_t index,
                               const hb_gpu_claim *claim, hb_reference_pass *pass, hb_config_result *r, int *cut)
{
    *cut = 0;
    if (without_reference(o, device, NULL, pass))
        return HB_OK;
    pass->held.tolerance = o->baseline_tolerance;
    pass->held.shared_choices = o->autotune_cache != NULL || !o->autotune_search;
    hb_reference_key key;
    key_of(o, device, index, &key);
    const char *path = cache_path(o);
    if (path && !o->retune && from_cache(o, device, index, path, &key, &pass->held.reference)) {
        pass->record.source = HB_REF_CACHED;
        pass->have = 1;
        return HB_OK;
    }
    snprintf(pass->record.why, sizeof pass->record.why, "its clean process failed: see the reason");
    hb_gpu_claim_take(claim);
    HB_TRY(measure(o, index, &pass->held.reference, r, cut));
    if (*cut)
        return HB_OK;
    pass->record.why[0] = '\0';
    record_choices(o, device, index, &pass->held.reference);
    pass->record.source = HB_REF_MEASURED;
    pass->record.seconds = pass->held.reference.seconds;
    pass->have = 1;
    if (path && hb_reference_cache_store(path, &key, &pass->held.reference) != HB_OK)
        hb_warn("%s; the next run measures the baselines' reference of M=%ld N=%ld K=%ld again", hb_last_error(),
                key.m, key.n, key.k);
    return HB_OK;
}

void hb_reference_not_needed(const hb_run_options *o, const hb_device_info *device, hb_reference_pass *pass,
                             const char *why)
{
    without_reference(o, device, why, pass);
}

const hb_run_options *hb_reference_evaluation_options(const hb_run_options *options, const hb_reference_pass *pass)
{
    static hb_run_options settled; /* 100 KB of configurations: not on the stack */
    if (!pass->have || !options->retune || !options->autotune_cache)
        return options;
    settled = *options;
    settled.retune = 0;
    return &settled;
}

void hb_reference_settle(const hb_reference_pass *pass, hb_config_result *r)
{
    hb_reference_record *record = &r->baseline_reference;
    record->source = pass->record.source;
    snprintf(record->why, sizeof record->why, "%s", pass->record.why);
    record->seconds = pass->record.seconds;
}
