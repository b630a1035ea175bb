#include "bench/sweep/sweep_verdict.h"

#include <jansson.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/json_file.h"
#include "bench/core/signal_name.h"

hb_status hb_sweep_worst_status(const hb_sweep_store *store)
{
    hb_status worst = HB_OK;
    for (size_t i = 0; i < store->count; i++)
        if (hb_status_severity(store->entries[i].status) > hb_status_severity(worst))
            worst = store->entries[i].status;
    return worst;
}

/* A failed item: where it is in the plan, its verdict and why. */
static json_t *failure_object(const hb_plan_file *f, const hb_journal_entry *e)
{
    json_t *o = hb_plan_item_json(&f->plan, e->item);
    json_object_set_new(o, "verdict", json_string(e->verdict));
    json_object_set_new(o, "check", json_string(e->check));
    json_t *reason = json_string(e->reason);
    json_object_set_new(o, "reason", reason ? reason : json_string("(not UTF-8)"));
    json_object_set_new(o, "device", json_integer(e->device));
    return o;
}

static json_t *outcome_lists(const hb_plan_file *f, const hb_sweep_store *store, json_t *root)
{
    json_t *counts = json_object(), *failures = json_array(), *not_run = json_array();
    for (size_t i = 0; i < store->count; i++) {
        const hb_journal_entry *e = &store->entries[i];
        json_object_set_new(counts, e->verdict, json_integer(json_integer_value(json_object_get(counts, e->verdict)) + 1));
        if (e->status != HB_OK)
            json_array_append_new(failures, failure_object(f, e));
    }
    for (size_t item = 0; item < store->plan_items; item++)
        if (hb_shard_holds(&f->shard, item) && !store->done[item])
            json_array_append_new(not_run, hb_plan_item_json(&f->plan, item));
    json_object_set_new(root, "counts", counts);
    json_object_set_new(root, "failures", failures);
    json_object_set_new(root, "not_run", not_run);
    return root;
}

hb_status hb_sweep_verdict_write(const char *path, const hb_plan_file *f, const hb_sweep_store *store,
                                 hb_status status, int signal_number)
{
    const size_t items = hb_shard_size(&f->shard, store->plan_items);
    json_t *shard = f->shard.count > 1 ? json_pack("{s:I, s:I}", "index", (json_int_t)f->shard.index, "count",
                                                   (json_int_t)f->shard.count)
                                       : json_null();
    json_t *root = json_pack("{s:s, s:s, s:o, s:s, s:i, s:b, s:I, s:I, s:b, s:o}", "format", HB_SWEEP_VERDICT_FORMAT,
                             "sweep_id", f->sweep_id, "shard", shard, "status",
                             signal_number ? "interrupted" : hb_status_name(status), "exit_code",
                             (int)status, "complete", store->count == items, "items", (json_int_t)items, "done",
                             (json_int_t)store->count, "interrupted", signal_number != 0, "signal",
                             signal_number ? json_string(hb_signal_name(signal_number)) : json_null());
    if (!root)
        return hb_fail(HB_ERR_INTERNAL, "out of memory building %s", path);
    outcome_lists(f, store, root);
    hb_status written = hb_json_write_file(path, root);
    json_decref(root);
    return written;
}
