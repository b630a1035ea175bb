#include "verify/module_state_check.h"

#include "bench/candidate/cubin_elf.h"

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
