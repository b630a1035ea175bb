#include "bench/candidate/launch_plan.h"

#include <string.h>

#include "bench/candidate/cubin_kernel.h"
#include "bench/core/diag.h"

hb_status hb_launch_plan_make(const hb_manifest *manifest, hb_acc_class run_acc, long m, long n, long k,
                              hb_launch_plan *out)
{
    memset(out, 0, sizeof *out);
    if (manifest->accumulator != run_acc)
        return hb_fail(HB_ERR_UNSUPPORTED, "candidate %s claims the %s accumulator class; this run is %s", manifest->name,
                       hb_acc_class_name(manifest->accumulator), hb_acc_class_name(run_acc));
    HB_TRY(hb_manifest_padded_dims(manifest, m, n, k, out->padded));
    out->needs_padding = out->padded[0] != m || out->padded[1] != n || out->padded[2] != k;
    if (manifest->kind == HB_CANDIDATE_CUBIN)
        HB_TRY(hb_candidate_grid(manifest, out->padded, out->grid));
    uint64_t workspace = 0;
    HB_TRY(hb_dim_expr_eval(&manifest->workspace_bytes, out->padded[0], out->padded[1], out->padded[2],
                            HB_MAX_CANDIDATE_WORKSPACE_BYTES, &workspace));
    out->workspace_bytes = (size_t)workspace;
    return HB_OK;
}
