#include "baselines/baseline_factory.h"

#include <stdio.h>

#include "baselines/cublas_baselines.h"
#include "baselines/cublaslt_baselines.h"

static hb_status create_cublas(const hb_baseline_entry *e, const hb_baseline_context *c, hb_participant *out)
{
    hb_cublas_variant variant = e->kind == HB_KIND_TORCH ? HB_TORCH : e->b_layout == HB_B_COL ? HB_CUBLAS_TN
                                                                                              : HB_CUBLAS_NN;
    return hb_cublas_baseline_create(variant, c->acc, c->device->sm, c->workspace_bytes, c->stream, out);
}

static hb_status create_cublaslt(const hb_baseline_entry *e, const hb_baseline_context *c, hb_participant *out)
{
    hb_lt_tuning tuning = {c->device, c->autotune_cache, c->retune, c->autotune_search, c->search_rng};
    hb_lt_baseline_spec spec = {e->name, e->kind == HB_KIND_LT_AUTOTUNE ? HB_LT_AUTOTUNE : HB_LT_HEURISTIC, e->b_layout,
                                c->acc, c->m, c->n, c->k, c->workspace_bytes};
    return hb_cublaslt_baseline_create(&spec, &tuning, c->stream, out);
}

hb_status hb_baseline_create(const hb_baseline_entry *entry, const hb_baseline_context *context, hb_participant *out)
{
    hb_status status = HB_ERR_INTERNAL;
    switch (entry->kind) {
    case HB_KIND_TORCH:
    case HB_KIND_CUBLAS: status = create_cublas(entry, context, out); break;
    case HB_KIND_LT_HEURISTIC:
    case HB_KIND_LT_AUTOTUNE: status = create_cublaslt(entry, context, out); break;
    }
    if (status != HB_OK)
        return status;
    snprintf(out->name, sizeof out->name, "%s", entry->name);
    out->bounds_deviation = entry->bounds_deviation;
    return HB_OK;
}

