#include "bench/analysis/plan_missing.h"

#include <stdio.h>

#include "bench/sweep/plan_file.h"

hb_status hb_plan_list_missing(const char *folder, hb_result_set *set)
{
    static hb_plan_file file;
    HB_TRY(hb_plan_file_read(folder, &file));
    char path[4200];
    snprintf(path, sizeof path, "%s/plan.json", folder);
    const char *kept = hb_result_set_keep(set, path);
    if (!kept)
        return HB_ERR_INTERNAL;
    for (size_t i = 0; i < hb_plan_item_count(&file.plan); i++) {
        if (!hb_shard_holds(&file.shard, i))
            continue;
        hb_plan_item it = hb_plan_item_at(&file.plan, i);
        const hb_mnk *c = &file.plan.configs[it.config];
        hb_config_key key = {c->m, c->n, c->k, it.mode};
        if (!hb_result_set_find(set, &key))
            HB_TRY(hb_result_set_add_missing(set, &key, kept));
    }
    return HB_OK;
}
