#include "bench/candidate/replay_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/result/replay_capture.h"

/* Where the reader is: the file and the field path down to the object ("ops[3].relocs[1].to."). */
typedef struct reader {
    const char *file;
    char where[192];
} reader;

static hb_status bad(const reader *r, const char *key, const char *format, ...) HB_PRINTF(3, 4);

static hb_status bad(const reader *r, const char *key, const char *format, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, sizeof message, format, ap);
    va_end(ap);
    return hb_fail(HB_ERR_BAD_INPUT, "replay %s: %s%s: %s (a replay folder is written by the harness: record it "
                   "again rather than edit it)", r->file, r->where, key, message);
}

/* r's place extended by "key[i]." (or "key." when i < 0). */
static reader inside(const reader *r, const char *key, long i)
{
    reader in = {.file = r->file};
    /* The deepest path ("ops[63].relocs[31].to.") is far shorter than where[]. */
    int length = i >= 0 ? snprintf(in.where, sizeof in.where, "%s%s[%ld].", r->where, key, i)
                        : snprintf(in.where, sizeof in.where, "%s%s.", r->where, key);
    if (length < 0 || (size_t)length >= sizeof in.where)
        snprintf(in.where, sizeof in.where, "(deep).");
    return in;
}

/* An object with exactly the keys `keys` (NULL-terminated): none missing, none other. */
static hb_status exact_keys(const reader *r, const json_t *object, const char *const *keys)
{
    if (!json_is_object(object))
        return bad(r, "", "must be an object");
    size_t n = 0;
    for (; keys[n]; n++)
        if (!json_object_get(object, keys[n]))
            return bad(r, keys[n], "missing");
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)object, key, value) {
        size_t i = 0;
        while (i < n && strcmp(keys[i], key))
            i++;
        if (i == n)
            return bad(r, key, "not a field of a replay");
    }
    return HB_OK;
}

static hb_status get_u64(const reader *r, const json_t *o, const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return bad(r, key, "must be an integer >= 0");
    uint64_t value = (uint64_t)json_integer_value(v);
    if (value < min || value > max)
        return bad(r, key, "%llu is outside %llu..%llu", (unsigned long long)value, (unsigned long long)min,
                   (unsigned long long)max);
    *out = value;
    return HB_OK;
}

static hb_status get_u32(const reader *r, const json_t *o, const char *key, uint32_t min, uint32_t max, uint32_t *out)
{
    uint64_t value = 0;
    HB_TRY(get_u64(r, o, key, min, max, &value));
    *out = (uint32_t)value;
    return HB_OK;
}

static hb_status get_int(const reader *r, const json_t *o, const char *key, long long min, long long max,
                         long long *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
        return bad(r, key, "must be an integer in %lld..%lld", min, max);
    *out = json_integer_value(v);
    return HB_OK;
}

/* A string shorter than `size` with no NUL inside (so NUL-terminated within it). */
static hb_status get_string(const reader *r, const json_t *o, const char *key, char *out, size_t size)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        return bad(r, key, "must be a string");
    size_t length = json_string_length(v);
    if (length >= size || strlen(json_string_value(v)) != length)
        return bad(r, key, "longer than %zu characters, or holds a NUL", size - 1);
    memcpy(out, json_string_value(v), length + 1);
    return HB_OK;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Exactly `n` bytes as 2n lowercase hex digits. */
static hb_status get_hex(const reader *r, const json_t *o, const char *key, unsigned char *out, size_t n)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v) || json_string_length(v) != 2 * n)
        return bad(r, key, "must be %zu bytes as %zu lowercase hex digits", n, 2 * n);
    const char *text = json_string_value(v);
    for (size_t i = 0; i < n; i++) {
        int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return bad(r, key, "character %zu is not a lowercase hex digit", 2 * i + (hi >= 0) + 1);
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return HB_OK;
}

static hb_status get_array(const reader *r, const json_t *o, const char *key, size_t max, const json_t **out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_array(v))
        return bad(r, key, "must be an array");
    if (json_array_size(v) > max)
        return bad(r, key, "holds %zu entries, more than the limit %zu", json_array_size(v), max);
    *out = v;
    return HB_OK;
}

/* An array of exactly n integers in min..max. */
static hb_status get_u64s(const reader *r, const json_t *o, const char *key, size_t n, uint64_t min, uint64_t max,
                          uint64_t *out)
{
    const json_t *array;
    HB_TRY(get_array(r, o, key, n, &array));
    if (json_array_size(array) != n)
        return bad(r, key, "must hold %zu integers", n);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(array, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) < min ||
            (uint64_t)json_integer_value(v) > max)
            return bad(r, key, "entry %zu must be an integer in %llu..%llu", i, (unsigned long long)min,
                       (unsigned long long)max);
        out[i] = (uint64_t)json_integer_value(v);
    }
    return HB_OK;
}

static hb_status get_u32s(const reader *r, const json_t *o, const char *key, size_t n, uint32_t min, uint32_t max,
                          uint32_t *out)
{
    uint64_t values[8] = {0};
    HB_TRY(get_u64s(r, o, key, n, min, max, values));
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)values[i];
    return HB_OK;
}

#define MAX_U32 UINT32_MAX
#define MAX_SIZE ((uint64_t)INT64_MAX)

static hb_status get_pointer(const reader *r, const json_t *o, const char *key, const hb_replay_plan *plan,
                             hb_replay_pointer *out)
{
    static const char *const keys[] = {"target", "alloc", "offset", NULL};
    reader in = inside(r, key, -1);
    const json_t *p = json_object_get(o, key);
    HB_TRY(exact_keys(&in, p, keys));
    char name[16];
    HB_TRY(get_string(&in, p, "target", name, sizeof name));
    int target = hb_replay_target_of(name);
    if (target < 0)
        return bad(&in, "target", "\"%s\" is not a, b, b_col, c, workspace or alloc", name);
    out->target = (hb_replay_target)target;
    uint32_t max_alloc = target == HB_TARGET_ALLOC ? (plan->n_allocs ? plan->n_allocs - 1 : 0) : 0;
    HB_TRY(get_u32(&in, p, "alloc", 0, max_alloc, &out->alloc));
    if (target == HB_TARGET_ALLOC && plan->n_allocs == 0)
        return bad(&in, "alloc", "names an allocation, and the replay has none");
    return get_u64(&in, p, "offset", 0, MAX_SIZE, &out->offset);
}

/* --- kernels --------------------------------------------------------------------------------- */

static hb_status get_attrs(const reader *r, const json_t *o, hb_replay_kernel *k)
{
    static const char *const keys[] = {"id", "value", NULL};
    const json_t *attrs;
    HB_TRY(get_array(r, o, "attrs", HB_REPLAY_MAX_ATTRS, &attrs));
    k->n_attrs = (uint32_t)json_array_size(attrs);
    for (uint32_t i = 0; i < k->n_attrs; i++) {
        reader in = inside(r, "attrs", i);
        const json_t *a = json_array_get(attrs, i);
        HB_TRY(exact_keys(&in, a, keys));
        HB_TRY(get_u32(&in, a, "id", 0, MAX_U32, &k->attrs[i].id));
        HB_TRY(get_hex(&in, a, "value", k->attrs[i].value, HB_REPLAY_ATTR_VALUE_BYTES));
    }
    return HB_OK;
}

static hb_status get_params(const reader *r, const json_t *o, hb_replay_kernel *k)
{
    static const char *const keys[] = {"offset", "size", NULL};
    HB_TRY(get_u32(r, o, "param_bytes", 0, HB_REPLAY_MAX_PARAM_BYTES, &k->param_bytes));
    HB_TRY(get_hex(r, o, "param_data", k->params, k->param_bytes));
    const json_t *params;
    HB_TRY(get_array(r, o, "params", HB_REPLAY_MAX_PARAMS, &params));
    k->n_params = (uint32_t)json_array_size(params);
    for (uint32_t i = 0; i < k->n_params; i++) {
        reader in = inside(r, "params", i);
        const json_t *p = json_array_get(params, i);
        HB_TRY(exact_keys(&in, p, keys));
        HB_TRY(get_u32(&in, p, "offset", 0, k->param_bytes, &k->param_offset[i]));
        HB_TRY(get_u32(&in, p, "size", 1, k->param_bytes - k->param_offset[i], &k->param_size[i]));
    }
    return HB_OK;
}

static hb_status get_relocs(const reader *r, const json_t *o, const hb_replay_plan *plan, hb_replay_kernel *k)
{
    static const char *const keys[] = {"at", "to", NULL};
    const json_t *relocs;
    HB_TRY(get_array(r, o, "relocs", HB_REPLAY_MAX_RELOCS, &relocs));
    k->n_relocs = (uint32_t)json_array_size(relocs);
    for (uint32_t i = 0; i < k->n_relocs; i++) {
        reader in = inside(r, "relocs", i);
        const json_t *x = json_array_get(relocs, i);
        HB_TRY(exact_keys(&in, x, keys));
        if (k->param_bytes < 8)
            return bad(&in, "at", "a pointer in %u parameter bytes", k->param_bytes);
        HB_TRY(get_u32(&in, x, "at", 0, k->param_bytes - 8, &k->relocs[i].at));
        HB_TRY(get_pointer(&in, x, "to", plan, &k->relocs[i].to));
    }
    return HB_OK;
}

static hb_status get_map_uses(const reader *r, const json_t *o, const hb_replay_plan *plan, hb_replay_kernel *k)
{
    static const char *const keys[] = {"at", "map", NULL};
    const json_t *maps;
    HB_TRY(get_array(r, o, "maps", HB_REPLAY_MAX_MAPS, &maps));
    k->n_maps = (uint32_t)json_array_size(maps);
    for (uint32_t i = 0; i < k->n_maps; i++) {
        reader in = inside(r, "maps", i);
        const json_t *m = json_array_get(maps, i);
        HB_TRY(exact_keys(&in, m, keys));
        if (k->param_bytes < HB_REPLAY_MAP_BYTES)
            return bad(&in, "at", "a TMA descriptor in %u parameter bytes", k->param_bytes);
        HB_TRY(get_u32(&in, m, "at", 0, k->param_bytes - HB_REPLAY_MAP_BYTES, &k->maps[i].at));
        if (k->maps[i].at % 64)
            return bad(&in, "at", "%u is not 64-byte aligned (a CUtensorMap parameter is)", k->maps[i].at);
        if (plan->n_maps == 0)
            return bad(&in, "map", "names a TMA descriptor, and the replay has none");
        HB_TRY(get_u32(&in, m, "map", 0, plan->n_maps - 1, &k->maps[i].map));
    }
    return HB_OK;
}

static hb_status get_kernel(const reader *r, const json_t *o, const hb_replay_plan *plan, hb_replay_kernel *k)
{
    static const char *const keys[] = {"kind", "stream", "function", "grid", "block", "smem", "attrs", "params",
                                       "param_bytes", "param_data", "relocs", "maps", NULL};
    HB_TRY(exact_keys(r, o, keys));
    if (plan->n_functions == 0)
        return bad(r, "function", "names a kernel, and the replay has none");
    HB_TRY(get_u32(r, o, "function", 0, plan->n_functions - 1, &k->function));
    HB_TRY(get_u32s(r, o, "grid", 3, 1, MAX_U32, k->grid));
    HB_TRY(get_u32s(r, o, "block", 3, 1, 1024, k->block));
    HB_TRY(get_u32(r, o, "smem", 0, MAX_U32, &k->smem));
    HB_TRY(get_attrs(r, o, k));
    HB_TRY(get_params(r, o, k));
    HB_TRY(get_relocs(r, o, plan, k));
    return get_map_uses(r, o, plan, k);
}

static hb_status get_op(const reader *r, const json_t *o, const hb_replay_plan *plan, hb_replay_op *op)
{
    static const char *const memset_keys[] = {"kind", "stream", "dst", "value", "element_bytes", "count", NULL};
    static const char *const copy_keys[] = {"kind", "stream", "dst", "src", "bytes", NULL};
    char kind[16];
    if (!json_is_object(o))
        return bad(r, "", "must be an object");
    HB_TRY(get_string(r, o, "kind", kind, sizeof kind));
    if (plan->n_streams == 0)
        return bad(r, "stream", "an operation, and the replay has no stream");
    HB_TRY(get_u32(r, o, "stream", 0, plan->n_streams - 1, &op->stream));
    if (!strcmp(kind, "kernel")) {
        op->kind = HB_OP_KERNEL;
        return get_kernel(r, o, plan, &op->u.kernel);
    }
    if (!strcmp(kind, "memset")) {
        op->kind = HB_OP_MEMSET;
        HB_TRY(exact_keys(r, o, memset_keys));
        HB_TRY(get_pointer(r, o, "dst", plan, &op->u.memset.dst));
        HB_TRY(get_u32(r, o, "value", 0, MAX_U32, &op->u.memset.value));
        HB_TRY(get_u32(r, o, "element_bytes", 1, 4, &op->u.memset.element_bytes));
        if (op->u.memset.element_bytes == 3)
            return bad(r, "element_bytes", "must be 1, 2 or 4");
        return get_u64(r, o, "count", 0, MAX_SIZE, &op->u.memset.count);
    }
    if (!strcmp(kind, "copy")) {
        op->kind = HB_OP_COPY;
        HB_TRY(exact_keys(r, o, copy_keys));
        HB_TRY(get_pointer(r, o, "dst", plan, &op->u.copy.dst));
        HB_TRY(get_pointer(r, o, "src", plan, &op->u.copy.src));
        return get_u64(r, o, "bytes", 0, MAX_SIZE, &op->u.copy.bytes);
    }
    return bad(r, "kind", "\"%s\" is not kernel, memset or copy", kind);
}

static hb_status get_ops(const reader *r, const json_t *root, const char *key, const hb_replay_plan *plan,
                         hb_replay_op *ops, uint32_t *n, size_t limit)
{
    const json_t *array;
    HB_TRY(get_array(r, root, key, limit, &array));
    *n = (uint32_t)json_array_size(array);
    for (uint32_t i = 0; i < *n; i++) {
        reader in = inside(r, key, i);
        HB_TRY(get_op(&in, json_array_get(array, i), plan, &ops[i]));
    }
    return HB_OK;
}

/* --- the tables -------------------------------------------------------------------------------- */

int hb_replay_module_name_ok(const char *name)
{
    return name[0] != '\0' && name[0] != '.' && !strchr(name, '/') && !strstr(name, "..") &&
           strlen(name) < sizeof((hb_replay_module *)0)->file;
}

static hb_status get_sha256(const reader *r, const json_t *o, const char *key, char *out, int empty_ok)
{
    HB_TRY(get_string(r, o, key, out, 65));
    size_t length = strlen(out);
    if (length == 0 && empty_ok)
        return HB_OK;
    for (size_t i = 0; i < length; i++)
        if (hex_digit(out[i]) < 0)
            length = 0;
    if (length != 64)
        return bad(r, key, "must be a SHA-256 as 64 lowercase hex digits");
    return HB_OK;
}

static hb_status get_modules(const reader *r, const json_t *root, hb_replay_plan *plan)
{
    static const char *const keys[] = {"file", "sha256", "bytes", NULL};
    const json_t *array;
    HB_TRY(get_array(r, root, "modules", HB_REPLAY_MAX_MODULES, &array));
    plan->n_modules = (uint32_t)json_array_size(array);
    for (uint32_t i = 0; i < plan->n_modules; i++) {
        reader in = inside(r, "modules", i);
        const json_t *m = json_array_get(array, i);
        hb_replay_module *module = &plan->modules[i];
        HB_TRY(exact_keys(&in, m, keys));
        HB_TRY(get_string(&in, m, "file", module->file, sizeof module->file));
        if (!hb_replay_module_name_ok(module->file))
            return bad(&in, "file", "\"%s\" is not a plain file name beside replay.json (no '/', no \"..\")",
                       module->file);
        HB_TRY(get_sha256(&in, m, "sha256", module->sha256, 0));
        HB_TRY(get_u64(&in, m, "bytes", 1, MAX_SIZE, &module->bytes));
    }
    return HB_OK;
}

static hb_status get_functions(const reader *r, const json_t *root, hb_replay_plan *plan)
{
    static const char *const keys[] = {"module", "name", NULL};
    const json_t *array;
    HB_TRY(get_array(r, root, "functions", HB_REPLAY_MAX_FUNCTIONS, &array));
    plan->n_functions = (uint32_t)json_array_size(array);
    for (uint32_t i = 0; i < plan->n_functions; i++) {
        reader in = inside(r, "functions", i);
        const json_t *f = json_array_get(array, i);
        HB_TRY(exact_keys(&in, f, keys));
        if (plan->n_modules == 0)
            return bad(&in, "module", "names a module, and the replay has none");
        HB_TRY(get_u32(&in, f, "module", 0, plan->n_modules - 1, &plan->functions[i].module));
        HB_TRY(get_string(&in, f, "name", plan->functions[i].name, HB_REPLAY_NAME_MAX));
        if (!plan->functions[i].name[0])
            return bad(&in, "name", "is empty");
    }
    return HB_OK;
}

static hb_status get_func_attrs(const reader *r, const json_t *root, hb_replay_plan *plan)
{
    static const char *const keys[] = {"function", "attribute", "value", NULL};
    const json_t *array;
    HB_TRY(get_array(r, root, "func_attrs", HB_REPLAY_MAX_FUNC_ATTRS, &array));
    plan->n_func_attrs = (uint32_t)json_array_size(array);
    for (uint32_t i = 0; i < plan->n_func_attrs; i++) {
        reader in = inside(r, "func_attrs", i);
        const json_t *a = json_array_get(array, i);
        long long attribute, value;
        HB_TRY(exact_keys(&in, a, keys));
        if (plan->n_functions == 0)
            return bad(&in, "function", "names a kernel, and the replay has none");
        HB_TRY(get_u32(&in, a, "function", 0, plan->n_functions - 1, &plan->func_attrs[i].function));
        HB_TRY(get_int(&in, a, "attribute", 0, INT32_MAX, &attribute));
        HB_TRY(get_int(&in, a, "value", INT32_MIN, INT32_MAX, &value));
        plan->func_attrs[i].attribute = (int)attribute;
        plan->func_attrs[i].value = (int)value;
    }
    return HB_OK;
}

static hb_status get_allocs(const reader *r, const json_t *root, hb_replay_plan *plan)
{
    static const char *const keys[] = {"bytes", "per_call", NULL};
    const json_t *array;
    HB_TRY(get_array(r, root, "allocs", HB_REPLAY_MAX_ALLOCS, &array));
    plan->n_allocs = (uint32_t)json_array_size(array);
    for (uint32_t i = 0; i < plan->n_allocs; i++) {
        reader in = inside(r, "allocs", i);
        const json_t *a = json_array_get(array, i);
        HB_TRY(exact_keys(&in, a, keys));
        HB_TRY(get_u64(&in, a, "bytes", 0, MAX_SIZE, &plan->allocs[i].bytes));
        if (!json_is_boolean(json_object_get(a, "per_call")))
            return bad(&in, "per_call", "must be true or false");
        plan->allocs[i].per_call = json_is_true(json_object_get(a, "per_call"));
    }
    return HB_OK;
}

static hb_status get_map(const reader *r, const json_t *m, const hb_replay_plan *plan, hb_replay_map *map)
{
    static const char *const keys[] = {"data_type", "rank", "global", "dims", "strides", "box", "element_strides",
                                       "interleave", "swizzle", "l2_promotion", "oob_fill", "bytes", NULL};
    HB_TRY(exact_keys(r, m, keys));
    HB_TRY(get_u32(r, m, "data_type", 0, 255, &map->data_type));
    HB_TRY(get_u32(r, m, "rank", 1, 5, &map->rank));
    HB_TRY(get_pointer(r, m, "global", plan, &map->global));
    HB_TRY(get_u64s(r, m, "dims", 5, 0, MAX_SIZE, map->dims));
    HB_TRY(get_u64s(r, m, "strides", 4, 0, MAX_SIZE, map->strides));
    HB_TRY(get_u32s(r, m, "box", 5, 0, MAX_U32, map->box));
    HB_TRY(get_u32s(r, m, "element_strides", 5, 0, MAX_U32, map->element_strides));
    HB_TRY(get_u32(r, m, "interleave", 0, 255, &map->interleave));
    HB_TRY(get_u32(r, m, "swizzle", 0, 255, &map->swizzle));
    HB_TRY(get_u32(r, m, "l2_promotion", 0, 255, &map->l2_promotion));
    HB_TRY(get_u32(r, m, "oob_fill", 0, 255, &map->oob_fill));
    return get_hex(r, m, "bytes", map->bytes, HB_REPLAY_MAP_BYTES);
}

static hb_status get_maps(const reader *r, const json_t *root, hb_replay_plan *plan)
{
    const json_t *array;
    HB_TRY(get_array(r, root, "maps", HB_REPLAY_MAX_MAPS, &array));
    plan->n_maps = (uint32_t)json_array_size(array);
    for (uint32_t i = 0; i < plan->n_maps; i++) {
        reader in = inside(r, "maps", i);
        HB_TRY(get_map(&in, json_array_get(array, i), plan, &plan->maps[i]));
    }
    return HB_OK;
}

/* --- the document ------------------------------------------------------------------------------ */

static hb_status get_header(const reader *r, const json_t *root, hb_replay_plan *plan)
{
    char text[64];
    HB_TRY(get_string(r, root, "format", text, sizeof text));
    if (strcmp(text, HB_REPLAY_FORMAT))
        return bad(r, "format", "\"%s\" is not \"" HB_REPLAY_FORMAT "\"", text);
    HB_TRY(get_string(r, root, "refusal", text, sizeof text));
    int refusal = 0;
    while (refusal < HB_N_REFUSALS && strcmp(text, hb_replay_refusal_name((hb_replay_refusal)refusal)))
        refusal++;
    if (refusal == HB_N_REFUSALS)
        return bad(r, "refusal", "\"%s\" is not a refusal's name (docs/launchers.md)", text);
    plan->refusal = (hb_replay_refusal)refusal;
    HB_TRY(get_string(r, root, "reason", plan->reason, sizeof plan->reason));
    uint64_t sizes[3];
    HB_TRY(get_u64s(r, root, "mnk", 3, 0, INT32_MAX, sizes));
    for (int i = 0; i < 3; i++)
        plan->mnk[i] = (long)sizes[i];
    HB_TRY(get_u64s(r, root, "padded", 3, 0, INT32_MAX, sizes));
    for (int i = 0; i < 3; i++)
        plan->padded[i] = (long)sizes[i];
    HB_TRY(get_sha256(r, root, "library_sha256", plan->library_sha256, 1));
    long long sm, calls;
    HB_TRY(get_int(r, root, "sm", 0, 10000, &sm));
    HB_TRY(get_int(r, root, "calls_recorded", 0, HB_CAPTURE_MAX_CALLS, &calls));
    plan->sm = (int)sm;
    plan->calls_recorded = (int)calls;
    return HB_OK;
}

hb_status hb_replay_plan_from_json(const json_t *root, const char *file, hb_replay_plan *plan)
{
    static const char *const keys[] = {"format", "refusal", "reason", "mnk", "padded", "library_sha256", "sm",
                                       "calls_recorded", "modules", "functions", "func_attrs", "allocs", "maps",
                                       "streams", "prologue", "ops", NULL};
    reader r = {.file = file};
    HB_TRY(exact_keys(&r, root, keys));
    HB_TRY(get_header(&r, root, plan));
    HB_TRY(get_modules(&r, root, plan));
    HB_TRY(get_functions(&r, root, plan));
    HB_TRY(get_func_attrs(&r, root, plan));
    HB_TRY(get_allocs(&r, root, plan));
    HB_TRY(get_maps(&r, root, plan));
    HB_TRY(get_u32(&r, root, "streams", 0, HB_CAPTURE_MAX_STREAMS, &plan->n_streams));
    HB_TRY(get_ops(&r, root, "prologue", plan, plan->prologue, &plan->n_prologue, HB_REPLAY_MAX_PROLOGUE_OPS));
    HB_TRY(get_ops(&r, root, "ops", plan, plan->ops, &plan->n_ops, HB_REPLAY_MAX_OPS));
    if (plan->refusal == HB_REFUSE_NONE && hb_replay_kernels_per_call(plan) == 0)
        return bad(&r, "ops", "a replay that is not refused launches no kernel");
    return HB_OK;
}
