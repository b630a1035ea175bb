#include "bench/driver/baseline_context.h"

hb_baseline_context hb_baseline_context_of(const hb_run_options *o, const hb_mnk *mnk, const hb_device_info *device,
                                           hb_rng *search_rng, cudaStream_t stream)
{
    hb_baseline_context context = {
        .acc = o->acc,
        .m = mnk->m,
        .n = mnk->n,
        .k = mnk->k,
        .workspace_bytes = o->workspace_bytes,
        .device = device,
        .autotune_cache = o->autotune_cache,
        .retune = o->retune,
        .autotune_search = o->autotune_search,
        .search_rng = search_rng,
        .stream = stream,
    };
    return context;
}
