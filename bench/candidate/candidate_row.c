#include "bench/candidate/candidate_row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

hb_status hb_candidate_participant_init(hb_participant *out, const hb_participant_ops *ops, size_t impl_size)
{
    memset(out, 0, sizeof *out);
    out->impl = calloc(1, impl_size);
    if (!out->impl)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory creating the candidate");
    snprintf(out->name, sizeof out->name, "candidate");
    out->is_candidate = 1;
    out->ops = ops;
    return HB_OK;
}

void hb_candidate_describe(const hb_manifest *manifest, const hb_candidate_buffers *buffers, hb_participant_desc *d)
{
    snprintf(d->compute_type, sizeof d->compute_type, "claimed-%s", hb_acc_class_name(manifest->accumulator));
    snprintf(d->scale_type, sizeof d->scale_type, "n/a");
    if (manifest->kind == HB_CANDIDATE_LAUNCHER)
        snprintf(d->algorithm, sizeof d->algorithm, "launcher:%.54s", manifest->entry);
    else
        snprintf(d->algorithm, sizeof d->algorithm, "%.63s", manifest->entry);
    d->workspace_bytes = buffers->workspace_bytes;
    d->b_layout = manifest->b_layout;
    memcpy(d->padded, buffers->padded, sizeof d->padded);
}
