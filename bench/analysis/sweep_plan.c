#include "bench/analysis/sweep_plan.h"

#include <jansson.h>
#include <string.h>

#include "bench/analysis/bad_results.h"
#include "bench/core/gemm_types.h"

#define PLAN_FORMAT "hgemm-bench-sweep-plan"
#define PLAN_VERSION 1

typedef struct shard {
    json_int_t index, count; /* count 1: the whole plan */
} shard;

static hb_status read_shard(const char *path, const json_t *plan, shard *out)
{
    const json_t *s = json_object_get(plan, "shard");
    *out = (shard){0, 1};
    if (!s || json_is_null(s))
        return HB_OK;
    json_int_t index = json_integer_value(json_object_get(s, "index"));
    json_int_t count = json_integer_value(json_object_get(s, "count"));
    if (!json_is_integer(json_object_get(s, "index")) || !json_is_integer(json_object_get(s, "count")) || count < 1 ||
        index < 0 || index >= count)
        return hb_bad_results(path, 0, 0, NULL, "\"shard\" must be null or {\"index\": I, \"count\": N} with 0 <= I < N");
    *out = (shard){index, count};
    return HB_OK;
}

static hb_status read_item(const char *path, size_t at, const json_t *item, hb_config_key *key)
{
    const char *mode = json_string_value(json_object_get(item, "mode"));
    long dims[3];
    const char *const names[3] = {"m", "n", "k"};
    for (int d = 0; d < 3; d++) {
        const json_t *v = json_object_get(item, names[d]);
        dims[d] = json_is_integer(v) ? (long)json_integer_value(v) : 0;
        if (dims[d] < 1 || dims[d] > HB_MAX_DIM)
            return hb_bad_results(path, 0, 0, NULL, "items[%zu].%s must be a dimension, a whole number 1..262144", at,
                                  names[d]);
    }
    *key = (hb_config_key){dims[0], dims[1], dims[2], HB_MODE_OFFLINE};
    if (!mode || !hb_mode_parse(mode, &key->mode))
        return hb_bad_results(path, 0, 0, NULL, "items[%zu].mode must be \"offline\" or \"server\"", at);
    return HB_OK;
}

static hb_status check_format(const char *path, const json_t *plan)
{
    const char *format = json_string_value(json_object_get(plan, "format"));
    if (!json_is_object(plan) || !format || strcmp(format, PLAN_FORMAT))
        return hb_bad_results(path, 0, 0, NULL, "not a sweep plan: \"format\" is not \"%s\"", PLAN_FORMAT);
    const json_t *version = json_object_get(plan, "version");
    if (!json_is_integer(version) || json_integer_value(version) != PLAN_VERSION)
        return hb_bad_results(path, 0, 0, NULL, "plan version %lld; this report reads version %d (a newer harness?)",
                              json_is_integer(version) ? (long long)json_integer_value(version) : -1LL, PLAN_VERSION);
    if (!json_is_array(json_object_get(plan, "items")))
        return hb_bad_results(path, 0, 0, NULL, "the plan has no \"items\" array");
    return HB_OK;
}

static hb_status list_missing(const char *path, const json_t *plan, hb_result_set *set)
{
    HB_TRY(check_format(path, plan));
    shard mine;
    HB_TRY(read_shard(path, plan, &mine));
    const json_t *items = json_object_get(plan, "items");
    const char *kept = hb_result_set_keep(set, path);
    if (!kept)
        return HB_ERR_INTERNAL;
    for (size_t i = 0; i < json_array_size(items); i++) {
        const json_t *item = json_array_get(items, i);
        /* the item's own number decides its shard; its place in the array if it has none */
        const json_t *number = json_object_get(item, "item");
        json_int_t at = json_is_integer(number) ? json_integer_value(number) : (json_int_t)i;
        if (at % mine.count != mine.index)
            continue;
        hb_config_key key;
        HB_TRY(read_item(path, i, item, &key));
        if (!hb_result_set_find(set, &key))
            HB_TRY(hb_result_set_add_missing(set, &key, kept));
    }
    return HB_OK;
}

hb_status hb_plan_list_missing(const char *path, hb_result_set *set)
{
    json_error_t error;
    json_t *plan = json_load_file(path, 0, &error);
    if (!plan)
        return hb_bad_results(path, (size_t)(error.line > 0 ? error.line : 0), (size_t)(error.column > 0 ? error.column : 0),
                              NULL, "not valid JSON: %s", error.text);
    hb_status status = list_missing(path, plan, set);
    json_decref(plan);
    return status;
}
