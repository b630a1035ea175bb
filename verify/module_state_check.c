#include "verify/module_state_check.h"

#include <stdio.h>
#include <string.h>

#include "bench/candidate/cubin_elf.h"
#include "bench/candidate/replay_file.h"
#include "bench/core/diag.h"

hb_status hb_check_module_state(const hb_manifest *manifest, int sm, hb_module_state *record,
                                hb_check_failure *failure)
{
    /* The same choice as the loader's (bench/candidate/cubin_kernel.c), so the
     * file judged is the file loaded. */
    const hb_arch_file *cubin = hb_manifest_file_for(manifest, sm);
    if (!cubin)
        return hb_fail(HB_ERR_INTERNAL, "candidate %s was loaded, yet its manifest has no cubin for sm_%d: a harness "
                       "bug, please report it", manifest->name, sm);
    HB_TRY(hb_cubin_module_state(cubin->path, record));
    char reason[sizeof failure->reason];
    if (!hb_module_state_refused(record, reason, sizeof reason))
        return HB_OK;
    return hb_check_failed(failure, HB_ERR_INCORRECT, HB_CHECK_MODULE_STATE, "%s", reason);
}

/* One module's figures added to the replay's. */
static void add_module(hb_module_state *total, const hb_module_state *one)
{
    total->global_bytes += one->global_bytes;
    if (one->largest_bytes > total->largest_bytes) {
        total->largest_bytes = one->largest_bytes;
        snprintf(total->largest_symbol, sizeof total->largest_symbol, "%s", one->largest_symbol);
    }
    if (one->device_malloc && !total->device_malloc) {
        total->device_malloc = 1;
        snprintf(total->malloc_symbol, sizeof total->malloc_symbol, "%s", one->malloc_symbol);
    }
}

static hb_status scan_modules(const char *folder, const hb_replay_plan *plan, hb_module_state *record)
{
    memset(record, 0, sizeof *record);
    for (uint32_t i = 0; i < plan->n_modules; i++) {
        char path[4096 + 80];
        hb_replay_module_path(folder, &plan->modules[i], path, sizeof path);
        hb_module_state one;
        HB_TRY(hb_cubin_module_state(path, &one));
        add_module(record, &one);
    }
    record->scanned = 1;
    return HB_OK;
}

hb_status hb_check_replay_module_state(const char *folder, hb_module_state *record, hb_check_failure *failure)
{
    hb_replay_plan *plan = hb_replay_plan_new();
    if (!plan)
        return HB_ERR_INTERNAL;
    hb_status status = hb_replay_read(folder, plan);
    if (status == HB_OK)
        status = scan_modules(folder, plan, record);
    hb_replay_plan_free(plan);
    HB_TRY(status);
    char reason[sizeof failure->reason];
    if (!hb_module_state_refused(record, reason, sizeof reason))
        return HB_OK;
    return hb_check_failed(failure, HB_ERR_INCORRECT, HB_CHECK_MODULE_STATE, "the replay's modules together: %s",
                           reason);
}
