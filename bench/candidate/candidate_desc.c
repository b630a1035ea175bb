#include "bench/candidate/candidate_desc.h"

#include <stdio.h>
#include <string.h>

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
