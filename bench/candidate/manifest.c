#include "bench/candidate/manifest.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

/* Every manifest error is reported as "<file>: <field>: <problem>". */
#define BAD(origin, ...) manifest_error(__FILE__, __LINE__, (origin), __VA_ARGS__)

static hb_status manifest_error(const char *file, int line, const char *origin, const char *fmt, ...)
    HB_PRINTF(4, 5);

static hb_status manifest_error(const char *file, int line, const char *origin, const char *fmt, ...)
{
    char message[768];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    return hb_fail_at(file, line, HB_ERR_BAD_INPUT, "candidate manifest %s: %s", origin, message);
}

static const char *const known_keys[] = {
    "format", "name", "cubin", "entry", "grid", "block", "dynamic_smem_bytes", "b_layout",
    "accumulator", "padding", "pad_inputs", "workspace_bytes", "comment", NULL};

static hb_status check_known_keys(json_t *root, const char *origin)
{
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value) {
        int known = 0;
        for (const char *const *k = known_keys; *k; k++)
            known |= !strcmp(key, *k);
        if (!known)
            return BAD(origin, "unknown field \"%s\" (see docs/candidates.md for the fields)", key);
    }
    return HB_OK;
}

static hb_status copy_string(json_t *root, const char *key, const char *origin, int required,
                             char *dst, size_t dst_size)
{
    json_t *value = json_object_get(root, key);
    if (!value) {
        if (required)
            return BAD(origin, "missing required field \"%s\"", key);
        dst[0] = '\0';
        return HB_OK;
    }
    if (!json_is_string(value) || json_string_length(value) == 0)
        return BAD(origin, "\"%s\" must be a non-empty string", key);
    if (json_string_length(value) >= dst_size)
        return BAD(origin, "\"%s\" is longer than %zu characters", key, dst_size - 1);
    strcpy(dst, json_string_value(value));
    return HB_OK;
}

static void resolve_path(const char *origin, const char *relative, char *out)
{
    if (relative[0] == '/') {
        snprintf(out, HB_PATH_MAX, "%s", relative);
        return;
    }
    const char *slash = strrchr(origin, '/');
    int dir_len = slash ? (int)(slash - origin) : 0;
    if (slash)
        snprintf(out, HB_PATH_MAX, "%.*s/%s", dir_len, origin, relative);
    else
        snprintf(out, HB_PATH_MAX, "%s", relative);
}

static hb_status parse_sm_key(const char *key, int *sm)
{
    /* "sm_80", "sm_90", "sm_90a": the architecture a cubin's SASS was built for. */
    if (strncmp(key, "sm_", 3) != 0)
        return HB_ERR_BAD_INPUT;
    char *end = NULL;
    long value = strtol(key + 3, &end, 10);
    if (end == key + 3 || value < 10 || value > 999 || (*end && strcmp(end, "a") && strcmp(end, "f")))
        return HB_ERR_BAD_INPUT;
    *sm = (int)value;
    return HB_OK;
}

static hb_status parse_cubins(json_t *root, const char *origin, hb_manifest *out)
{
    json_t *cubin = json_object_get(root, "cubin");
    if (!cubin)
        return BAD(origin, "missing required field \"cubin\"");
    if (json_is_string(cubin) && json_string_length(cubin) > 0) {
        out->n_cubins = 1;
        out->cubins[0].sm = 0;
        resolve_path(origin, json_string_value(cubin), out->cubins[0].path);
        return HB_OK;
    }
    if (!json_is_object(cubin) || json_object_size(cubin) == 0)
        return BAD(origin, "\"cubin\" must be a file name or an object like {\"sm_90\": \"k.sm_90.cubin\"}");
    const char *key;
    json_t *value;
    json_object_foreach(cubin, key, value) {
        if (out->n_cubins == HB_MANIFEST_MAX_CUBINS)
            return BAD(origin, "\"cubin\" lists more than %d architectures", HB_MANIFEST_MAX_CUBINS);
        hb_cubin_ref *ref = &out->cubins[out->n_cubins];
        if (parse_sm_key(key, &ref->sm) != HB_OK)
            return BAD(origin, "\"cubin\" key \"%s\" is not an architecture like \"sm_90\"", key);
        for (int i = 0; i < out->n_cubins; i++)
            if (out->cubins[i].sm == ref->sm)
                return BAD(origin, "\"cubin\" lists architecture sm_%d twice (\"%s\")", ref->sm, key);
        if (!json_is_string(value) || json_string_length(value) == 0)
            return BAD(origin, "\"cubin\".\"%s\" must be a file name", key);
        resolve_path(origin, json_string_value(value), ref->path);
        out->n_cubins++;
    }
    return HB_OK;
}

/* A JSON integer >= 1, or a string expression (dim_expr.h). */
static hb_status parse_expr(json_t *value, const char *origin, const char *what, int allow_zero,
                            hb_dim_expr *out)
{
    if (json_is_integer(value)) {
        json_int_t v = json_integer_value(value);
        if (v < (allow_zero ? 0 : 1))
            return BAD(origin, "%s must be %s, got %lld", what, allow_zero ? ">= 0" : ">= 1", (long long)v);
        hb_dim_expr_literal((uint64_t)v, out);
        return HB_OK;
    }
    if (json_is_string(value)) {
        char why[256];
        if (hb_dim_expr_parse(json_string_value(value), out, why, sizeof why) != HB_OK)
            return BAD(origin, "%s: %s", what, why);
        return HB_OK;
    }
    return BAD(origin, "%s must be an integer or an expression string like \"N/128\"", what);
}

static hb_status parse_grid_block(json_t *root, const char *origin, hb_manifest *out)
{
    json_t *grid = json_object_get(root, "grid");
    json_t *block = json_object_get(root, "block");
    if (!json_is_array(grid) || json_array_size(grid) != 3)
        return BAD(origin, "\"grid\" must be an array of three entries [x, y, z]");
    if (!json_is_array(block) || json_array_size(block) != 3)
        return BAD(origin, "\"block\" must be an array of three integers [x, y, z]");
    for (size_t i = 0; i < 3; i++) {
        char what[32];
        snprintf(what, sizeof what, "\"grid\"[%zu]", i);
        HB_TRY(parse_expr(json_array_get(grid, i), origin, what, 0, &out->grid[i]));
        json_t *b = json_array_get(block, i);
        if (!json_is_integer(b) || json_integer_value(b) < 1 || json_integer_value(b) > 1024)
            return BAD(origin, "\"block\"[%zu] must be an integer in 1..1024", i);
        out->block[i] = (unsigned)json_integer_value(b);
    }
    unsigned long threads = (unsigned long)out->block[0] * out->block[1] * out->block[2];
    if (threads > 1024)
        return BAD(origin, "\"block\" has %lu threads; CUDA allows at most 1024 per block", threads);
    return HB_OK;
}

static hb_status parse_enum(json_t *root, const char *key, const char *origin, const char *a,
                            const char *b, int *is_b)
{
    json_t *value = json_object_get(root, key);
    if (!value)
        return BAD(origin, "missing required field \"%s\" (\"%s\" or \"%s\")", key, a, b);
    const char *text = json_string_value(value);
    if (text && !strcmp(text, a))
        *is_b = 0;
    else if (text && !strcmp(text, b))
        *is_b = 1;
    else
        return BAD(origin, "\"%s\" must be \"%s\" or \"%s\"", key, a, b);
    return HB_OK;
}

static hb_status parse_padding(json_t *root, const char *origin, hb_manifest *out)
{
    static const char *const keys[3] = {"m", "n", "k"};
    out->pad[0] = out->pad[1] = out->pad[2] = 1;
    out->pad_inputs = 1;
    json_t *pad_inputs = json_object_get(root, "pad_inputs");
    if (pad_inputs) {
        if (!json_is_boolean(pad_inputs))
            return BAD(origin, "\"pad_inputs\" must be true or false");
        out->pad_inputs = json_is_true(pad_inputs);
    }
    json_t *padding = json_object_get(root, "padding");
    if (!padding)
        return HB_OK;
    if (!json_is_object(padding))
        return BAD(origin, "\"padding\" must be an object like {\"m\": 128, \"n\": 128, \"k\": 32}");
    const char *key;
    json_t *value;
    json_object_foreach(padding, key, value) {
        int index = -1;
        for (int i = 0; i < 3; i++)
            if (!strcmp(key, keys[i]))
                index = i;
        if (index < 0)
            return BAD(origin, "\"padding\" has unknown key \"%s\" (use m, n, k)", key);
        if (!json_is_integer(value) || json_integer_value(value) < 1 || json_integer_value(value) > 65536)
            return BAD(origin, "\"padding\".\"%s\" must be an integer in 1..65536", key);
        out->pad[index] = (long)json_integer_value(value);
    }
    return HB_OK;
}

static hb_status parse_sizes(json_t *root, const char *origin, hb_manifest *out)
{
    json_t *smem = json_object_get(root, "dynamic_smem_bytes");
    if (!smem)
        return BAD(origin, "missing required field \"dynamic_smem_bytes\" (0 if none)");
    if (!json_is_integer(smem) || json_integer_value(smem) < 0 || json_integer_value(smem) > (1 << 24))
        return BAD(origin, "\"dynamic_smem_bytes\" must be an integer in 0..16777216");
    out->dynamic_smem_bytes = (size_t)json_integer_value(smem);
    json_t *workspace = json_object_get(root, "workspace_bytes");
    if (!workspace) {
        hb_dim_expr_literal(0, &out->workspace_bytes);
        return HB_OK;
    }
    return parse_expr(workspace, origin, "\"workspace_bytes\"", 1, &out->workspace_bytes);
}

static hb_status parse_root(json_t *root, const char *origin, hb_manifest *out)
{
    if (!json_is_object(root))
        return BAD(origin, "the top level must be a JSON object");
    HB_TRY(check_known_keys(root, origin));
    char format[64];
    HB_TRY(copy_string(root, "format", origin, 1, format, sizeof format));
    if (strcmp(format, HB_MANIFEST_FORMAT) != 0)
        return BAD(origin, "\"format\" is \"%s\"; this harness reads \"%s\"", format, HB_MANIFEST_FORMAT);
    HB_TRY(copy_string(root, "name", origin, 0, out->name, sizeof out->name));
    HB_TRY(copy_string(root, "entry", origin, 1, out->entry, sizeof out->entry));
    HB_TRY(parse_cubins(root, origin, out));
    HB_TRY(parse_grid_block(root, origin, out));
    HB_TRY(parse_sizes(root, origin, out));
    int is_col = 0, is_fp16 = 0;
    HB_TRY(parse_enum(root, "b_layout", origin, "row", "col", &is_col));
    HB_TRY(parse_enum(root, "accumulator", origin, "fp32", "fp16", &is_fp16));
    out->b_layout = is_col ? HB_B_COL : HB_B_ROW;
    out->accumulator = is_fp16 ? HB_ACC_FP16 : HB_ACC_FP32;
    HB_TRY(parse_padding(root, origin, out));
    if (!out->name[0])
        snprintf(out->name, sizeof out->name, "%.127s", out->entry);
    return HB_OK;
}

hb_status hb_manifest_parse(const char *json_text, const char *origin, hb_manifest *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", origin);
    json_error_t error;
    json_t *root = json_loads(json_text, JSON_REJECT_DUPLICATES, &error);
    if (!root)
        return BAD(origin, "not valid JSON at line %d column %d: %s", error.line, error.column, error.text);
    hb_status status = parse_root(root, origin, out);
    json_decref(root);
    return status;
}

hb_status hb_manifest_load(const char *path, hb_manifest *out)
{
    memset(out, 0, sizeof *out);
    json_error_t error;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &error);
    if (!root) {
        FILE *probe = fopen(path, "r");
        if (!probe)
            return hb_fail(HB_ERR_BAD_INPUT, "cannot open candidate manifest %s: %s", path, error.text);
        fclose(probe);
        return BAD(path, "not valid JSON at line %d column %d: %s", error.line, error.column, error.text);
    }
    snprintf(out->path, sizeof out->path, "%s", path);
    hb_status status = parse_root(root, path, out);
    json_decref(root);
    return status;
}

const hb_cubin_ref *hb_manifest_cubin_for(const hb_manifest *manifest, int sm)
{
    for (int i = 0; i < manifest->n_cubins; i++)
        if (manifest->cubins[i].sm == 0 || manifest->cubins[i].sm == sm)
            return &manifest->cubins[i];
    return NULL;
}

hb_status hb_manifest_padded_dims(const hb_manifest *manifest, long m, long n, long k, long padded[3])
{
    const long dims[3] = {m, n, k};
    static const char names[3] = {'M', 'N', 'K'};
    for (int i = 0; i < 3; i++) {
        long multiple = manifest->pad[i];
        padded[i] = (dims[i] + multiple - 1) / multiple * multiple;
        if (!manifest->pad_inputs && padded[i] != dims[i])
            return hb_fail(HB_ERR_UNSUPPORTED,
                           "candidate %s needs %c to be a multiple of %ld and does not accept padding; %c=%ld",
                           manifest->name, names[i], multiple, names[i], dims[i]);
    }
    return HB_OK;
}
