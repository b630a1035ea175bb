#define _POSIX_C_SOURCE 200809L /* access */
#include "bench/driver/accumulator_audit.h"

#include <unistd.h>

#include <stdio.h>
#include <string.h>

#include "baselines/autotune_cache.h"
#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/candidate/manifest.h"
#include "bench/import/sass_audit.h"

/* The harness's own cache folder (the autotune cache's, baselines/autotune_cache.h)
 * with mma-audit/ below it, made when missing; NULL when there is none. */
static const char *cache_folder(void)
{
    static char folder[4200];
    static int ready;
    if (!ready) {
        ready = 1;
        char file[4096];
        int quiet = hb_diag_is_quiet();
        hb_diag_set_quiet(1); /* no cache is no error: the audit runs each time */
        if (hb_autotune_cache_default_path(file, sizeof file) == HB_OK) {
            char *slash = strrchr(file, '/');
            if (slash)
                *slash = '\0';
            snprintf(folder, sizeof folder, "%s/mma-audit", file);
            if (hb_make_folders(folder, "accumulator audit cache") != HB_OK)
                folder[0] = '\0';
        }
        hb_diag_set_quiet(quiet);
    }
    return folder[0] ? folder : NULL;
}

/* The manifest's file for this GPU; its only file when the GPU is unknown. */
static const hb_arch_file *file_for(const hb_manifest *m, const hb_device_info *device)
{
    const hb_arch_file *file = device ? hb_manifest_file_for(m, device->sm) : NULL;
    return file ? file : m->n_files == 1 ? &m->files[0] : NULL;
}

void hb_accumulator_audit(const hb_run_options *options, const hb_device_info *device, hb_config_result *r)
{
    if (options->aa || !r->manifest_path[0])
        return;
    static hb_manifest manifest; /* 8 KiB of entry name and more: not on the stack */
    /* A manifest or file the evaluation could not use has its verdict and
     * message already: said again here, it would only repeat them. */
    int quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(1);
    hb_status loaded = hb_manifest_load(r->manifest_path, &manifest);
    hb_diag_set_quiet(quiet);
    const hb_arch_file *file = loaded == HB_OK ? file_for(&manifest, device) : NULL;
    if (!file || access(file->path, R_OK) != 0)
        return;
    hb_sass_audit_file(file->path, cache_folder(), &r->mma, NULL, 0);
    r->mma_audited = 1;
    hb_mma_findings(&r->mma, manifest.accumulator, &r->conduct);
}
