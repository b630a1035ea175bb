#define _POSIX_C_SOURCE 200809L
#include "bench/driver/preflight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/candidate_set.h"
#include "bench/candidate/kernel_image.h"
#include "bench/candidate/launch_plan.h"
#include "bench/candidate/manifest.h"
#include "bench/core/diag.h"
#include "bench/core/writable.h"

/* The messages printed so far: each distinct one once.  The checks run with
 * diagnostics silenced and print through here. */
typedef struct reporter {
    char **messages;
    size_t count, capacity;
    int was_quiet; /* the caller's setting, restored to print */
    int out_of_memory;
} reporter;

static void report_once(reporter *p, hb_status status, const char *message)
{
    for (size_t i = 0; i < p->count; i++)
        if (!strcmp(p->messages[i], message))
            return;
    if (p->count == p->capacity) {
        size_t capacity = p->capacity ? 2 * p->capacity : 16;
        char **grown = realloc(p->messages, capacity * sizeof *grown);
        if (!grown) {
            p->out_of_memory = 1;
            return;
        }
        p->messages = grown;
        p->capacity = capacity;
    }
    if (!(p->messages[p->count] = strdup(message))) {
        p->out_of_memory = 1;
        return;
    }
    p->count++;
    hb_diag_set_quiet(p->was_quiet);
    hb_fail(status, "%s", message);
    hb_diag_set_quiet(1);
}

static void reporter_free(reporter *p)
{
    for (size_t i = 0; i < p->count; i++)
        free(p->messages[i]);
    free(p->messages);
}

/* The configuration fails with the last error's message, as its child would have. */
static void fail_config(hb_config_result *r, hb_status status, const char *reason, reporter *p)
{
    r->status = status;
    r->verdict = hb_verdict_of_status(status);
    snprintf(r->reason, sizeof r->reason, "%s", reason);
    report_once(p, status, r->reason);
}

static hb_status check_outputs(const hb_run_options *o)
{
    hb_status out = hb_check_folder_creatable(o->out_dir, "results folder (--out)");
    hb_status verdict = o->verdict_path ? hb_check_file_writable(o->verdict_path, "verdict file (--verdict)") : HB_OK;
    return out != HB_OK ? out : verdict;
}

/* Which manifest serves each configuration (into its manifest_path). */
static void resolve_manifests(const hb_run_options *o, hb_config_result *results, reporter *p)
{
    for (size_t i = 0; i < o->n_configs; i++) {
        hb_config_result *r = &results[i];
        hb_status status = hb_candidate_manifest_path(o->candidate_path, r->mnk.m, r->mnk.n, r->mnk.k,
                                                      r->manifest_path);
        if (status != HB_OK) {
            r->manifest_path[0] = '\0';
            fail_config(r, status, hb_last_error(), p);
        }
    }
}

/* The manifest at `path`, loaded and its kernel images checked; its failure
 * message into `why`. */
static hb_status load_checked(const char *path, hb_manifest *manifest, char *why, size_t why_size)
{
    hb_status status = hb_manifest_load(path, manifest);
    if (status == HB_OK)
        status = hb_manifest_check_images(manifest);
    snprintf(why, why_size, "%s", status == HB_OK ? "" : hb_last_error());
    return status;
}

/* Every configuration served by the manifest of configuration `first`: the
 * manifest's own verdict, or what it asks for at that configuration's size. */
static void check_group(const hb_run_options *o, hb_config_result *results, size_t first, unsigned char *handled,
                        reporter *p)
{
    static hb_manifest manifest;
    char why[sizeof results->reason];
    const char *path = results[first].manifest_path;
    hb_status loaded = load_checked(path, &manifest, why, sizeof why);
    for (size_t j = first; j < o->n_configs; j++) {
        hb_config_result *r = &results[j];
        if (handled[j] || r->status != HB_OK || strcmp(r->manifest_path, path))
            continue;
        handled[j] = 1;
        hb_launch_plan plan;
        hb_status status = loaded;
        if (status == HB_OK)
            status = hb_launch_plan_make(&manifest, o->acc, r->mnk.m, r->mnk.n, r->mnk.k, &plan);
        if (status != HB_OK)
            fail_config(r, status, loaded != HB_OK ? why : hb_last_error(), p);
    }
}

static hb_status check_candidate(const hb_run_options *o, hb_config_result *results, reporter *p)
{
    unsigned char *handled = calloc(o->n_configs, 1);
    if (!handled)
        return HB_ERR_INTERNAL;
    resolve_manifests(o, results, p);
    for (size_t i = 0; i < o->n_configs; i++)
        if (!handled[i] && results[i].status == HB_OK)
            check_group(o, results, i, handled, p);
    free(handled);
    return HB_OK;
}

hb_status hb_preflight(const hb_run_options *options, hb_config_result *results, size_t *pending)
{
    for (size_t i = 0; i < options->n_configs; i++)
        hb_config_result_init(&results[i], &options->configs[i]);
    hb_status status = check_outputs(options);
    reporter p = {.was_quiet = hb_diag_is_quiet()};
    hb_diag_set_quiet(1);
    hb_status checked = options->candidate_path ? check_candidate(options, results, &p) : HB_OK;
    hb_diag_set_quiet(p.was_quiet);
    reporter_free(&p);
    if (checked != HB_OK || p.out_of_memory)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory checking the candidate's manifests");
    *pending = 0;
    for (size_t i = 0; i < options->n_configs; i++)
        *pending += results[i].status == HB_OK;
    return status;
}
