#include "bench/candidate/replay_json.h"

#include <stdio.h>
#include <string.h>

/* Building a document, out of memory noted once and seen at the end. */
typedef struct builder {
    int failed;
} builder;

static json_t *put(builder *b, json_t *object, const char *key, json_t *value)
{
    if (!value || json_object_set_new(object, key, value))
        b->failed = 1;
    return value;
}

static void add(builder *b, json_t *array, json_t *value)
{
    if (!value || json_array_append_new(array, value))
        b->failed = 1;
}

static json_t *integer(uint64_t value)
{
    return json_integer((json_int_t)value);
}

static json_t *hex(const unsigned char *bytes, size_t n)
{
    char text[2 * HB_REPLAY_MAX_PARAM_BYTES + 1];
    for (size_t i = 0; i < n; i++)
        snprintf(text + 2 * i, 3, "%02x", bytes[i]);
    text[2 * n] = '\0';
    return json_string(text);
}

static json_t *u32_array(builder *b, const uint32_t *values, size_t n)
{
    json_t *array = json_array();
    for (size_t i = 0; array && i < n; i++)
        add(b, array, integer(values[i]));
    return array;
}

static json_t *u64_array(builder *b, const uint64_t *values, size_t n)
{
    json_t *array = json_array();
    for (size_t i = 0; array && i < n; i++)
        add(b, array, integer(values[i]));
    return array;
}

static json_t *long_array(builder *b, const long *values, size_t n)
{
    json_t *array = json_array();
    for (size_t i = 0; array && i < n; i++)
        add(b, array, json_integer(values[i]));
    return array;
}

static json_t *pointer(builder *b, const hb_replay_pointer *p)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "target", json_string(hb_replay_target_name(p->target)));
    put(b, o, "alloc", integer(p->alloc));
    put(b, o, "offset", integer(p->offset));
    return o;
}

static void kernel_fields(builder *b, json_t *o, const hb_replay_kernel *k)
{
    put(b, o, "function", integer(k->function));
    put(b, o, "grid", u32_array(b, k->grid, 3));
    put(b, o, "block", u32_array(b, k->block, 3));
    put(b, o, "smem", integer(k->smem));
    json_t *attrs = put(b, o, "attrs", json_array());
    for (uint32_t i = 0; attrs && i < k->n_attrs; i++) {
        json_t *a = json_object();
        add(b, attrs, a);
        if (a) {
            put(b, a, "id", integer(k->attrs[i].id));
            put(b, a, "value", hex(k->attrs[i].value, HB_REPLAY_ATTR_VALUE_BYTES));
        }
    }
    json_t *params = put(b, o, "params", json_array());
    for (uint32_t i = 0; params && i < k->n_params; i++) {
        json_t *p = json_object();
        add(b, params, p);
        if (p) {
            put(b, p, "offset", integer(k->param_offset[i]));
            put(b, p, "size", integer(k->param_size[i]));
        }
    }
    put(b, o, "param_bytes", integer(k->param_bytes));
    put(b, o, "param_data", hex(k->params, k->param_bytes));
    json_t *relocs = put(b, o, "relocs", json_array());
    for (uint32_t i = 0; relocs && i < k->n_relocs; i++) {
        json_t *r = json_object();
        add(b, relocs, r);
        if (r) {
            put(b, r, "at", integer(k->relocs[i].at));
            put(b, r, "to", pointer(b, &k->relocs[i].to));
        }
    }
    json_t *maps = put(b, o, "maps", json_array());
    for (uint32_t i = 0; maps && i < k->n_maps; i++) {
        json_t *m = json_object();
        add(b, maps, m);
        if (m) {
            put(b, m, "at", integer(k->maps[i].at));
            put(b, m, "map", integer(k->maps[i].map));
        }
    }
}

static json_t *op_json(builder *b, const hb_replay_op *op)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "kind", json_string(hb_replay_op_kind_name(op->kind)));
    put(b, o, "stream", integer(op->stream));
    if (op->kind == HB_OP_KERNEL) {
        kernel_fields(b, o, &op->u.kernel);
    } else if (op->kind == HB_OP_MEMSET) {
        put(b, o, "dst", pointer(b, &op->u.memset.dst));
        put(b, o, "value", integer(op->u.memset.value));
        put(b, o, "element_bytes", integer(op->u.memset.element_bytes));
        put(b, o, "count", integer(op->u.memset.count));
    } else {
        put(b, o, "dst", pointer(b, &op->u.copy.dst));
        put(b, o, "src", pointer(b, &op->u.copy.src));
        put(b, o, "bytes", integer(op->u.copy.bytes));
    }
    return o;
}

static json_t *ops_json(builder *b, const hb_replay_op *ops, uint32_t n)
{
    json_t *array = json_array();
    for (uint32_t i = 0; array && i < n; i++)
        add(b, array, op_json(b, &ops[i]));
    return array;
}

static json_t *map_json(builder *b, const hb_replay_map *m)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "data_type", integer(m->data_type));
    put(b, o, "rank", integer(m->rank));
    put(b, o, "global", pointer(b, &m->global));
    put(b, o, "dims", u64_array(b, m->dims, 5));
    put(b, o, "strides", u64_array(b, m->strides, 4));
    put(b, o, "box", u32_array(b, m->box, 5));
    put(b, o, "element_strides", u32_array(b, m->element_strides, 5));
    put(b, o, "interleave", integer(m->interleave));
    put(b, o, "swizzle", integer(m->swizzle));
    put(b, o, "l2_promotion", integer(m->l2_promotion));
    put(b, o, "oob_fill", integer(m->oob_fill));
    put(b, o, "bytes", hex(m->bytes, HB_REPLAY_MAP_BYTES));
    return o;
}

/* The tables a replay issues from; empty for a refused plan. */
static void tables(builder *b, json_t *root, const hb_replay_plan *plan)
{
    int kept = plan->refusal == HB_REFUSE_NONE;
    json_t *modules = put(b, root, "modules", json_array());
    for (uint32_t i = 0; kept && modules && i < plan->n_modules; i++) {
        json_t *m = json_object();
        add(b, modules, m);
        if (m) {
            put(b, m, "file", json_string(plan->modules[i].file));
            put(b, m, "sha256", json_string(plan->modules[i].sha256));
            put(b, m, "bytes", integer(plan->modules[i].bytes));
        }
    }
    json_t *functions = put(b, root, "functions", json_array());
    for (uint32_t i = 0; kept && functions && i < plan->n_functions; i++) {
        json_t *f = json_object();
        add(b, functions, f);
        if (f) {
            put(b, f, "module", integer(plan->functions[i].module));
            put(b, f, "name", json_string(plan->functions[i].name));
        }
    }
    json_t *attrs = put(b, root, "func_attrs", json_array());
    for (uint32_t i = 0; kept && attrs && i < plan->n_func_attrs; i++) {
        json_t *a = json_object();
        add(b, attrs, a);
        if (a) {
            put(b, a, "function", integer(plan->func_attrs[i].function));
            put(b, a, "attribute", json_integer(plan->func_attrs[i].attribute));
            put(b, a, "value", json_integer(plan->func_attrs[i].value));
        }
    }
    json_t *allocs = put(b, root, "allocs", json_array());
    for (uint32_t i = 0; kept && allocs && i < plan->n_allocs; i++) {
        json_t *a = json_object();
        add(b, allocs, a);
        if (a) {
            put(b, a, "bytes", integer(plan->allocs[i].bytes));
            put(b, a, "per_call", json_boolean(plan->allocs[i].per_call));
        }
    }
    json_t *maps = put(b, root, "maps", json_array());
    for (uint32_t i = 0; kept && maps && i < plan->n_maps; i++)
        add(b, maps, map_json(b, &plan->maps[i]));
    put(b, root, "streams", integer(kept ? plan->n_streams : 0));
    put(b, root, "prologue", ops_json(b, plan->prologue, kept ? plan->n_prologue : 0));
    put(b, root, "ops", ops_json(b, plan->ops, kept ? plan->n_ops : 0));
}

json_t *hb_replay_plan_to_json(const hb_replay_plan *plan)
{
    builder b = {0};
    json_t *root = json_object();
    if (!root)
        return NULL;
    put(&b, root, "format", json_string(HB_REPLAY_FORMAT));
    put(&b, root, "refusal", json_string(hb_replay_refusal_name(plan->refusal)));
    put(&b, root, "reason", json_string(plan->reason));
    put(&b, root, "mnk", long_array(&b, plan->mnk, 3));
    put(&b, root, "padded", long_array(&b, plan->padded, 3));
    put(&b, root, "library_sha256", json_string(plan->library_sha256));
    put(&b, root, "sm", json_integer(plan->sm));
    put(&b, root, "calls_recorded", json_integer(plan->calls_recorded));
    tables(&b, root, plan);
    if (b.failed) {
        json_decref(root);
        return NULL;
    }
    return root;
}
