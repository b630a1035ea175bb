#include "bench/candidate/manifest.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/hgemm_launch.h"
#include "bench/core/diag.h"
#include "bench/core/input_file.h"

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

/* The fields, which kinds take them and which kinds need them; `missing`
 * ends the message for a required field that is not there. */
#define CUBIN (1u << HB_CANDIDATE_CUBIN)
#define LAUNCHER (1u << HB_CANDIDATE_LAUNCHER)
#define BOTH (CUBIN | LAUNCHER)

typedef struct key_rule {
    const char *key;
    unsigned kinds;    /* the kinds whose manifests may have it */
    unsigned required; /* the kinds whose manifests must have it */
    const char *missing;
} key_rule;

static const key_rule key_rules[] = {
    {"format", BOTH, BOTH, " (\"" HB_MANIFEST_FORMAT "\")"},
    {"kind", BOTH, 0, ""},
    {"name", BOTH, 0, ""},
    {"cubin", CUBIN, CUBIN, " (a file name, or {\"sm_90\": \"k.sm_90.cubin\"})"},
    {"library", LAUNCHER, LAUNCHER, " (a file name, or {\"sm_90\": \"l.sm_90.so\"})"},
    {"entry", BOTH, CUBIN, " (the kernel's name: extern \"C\", or as mangled)"},
    {"grid", CUBIN, CUBIN, " ([x, y, z])"},
    {"block", CUBIN, CUBIN, " ([x, y, z])"},
    {"dynamic_smem_bytes", CUBIN, CUBIN, " (0 if none)"},
    {"params", CUBIN, 0, ""},
    {"b_layout", BOTH, BOTH, " (\"row\" or \"col\")"},
    {"accumulator", BOTH, BOTH, " (\"fp32\" or \"fp16\")"},
    {"padding", BOTH, 0, ""},
    {"pad_inputs", BOTH, 0, ""},
    {"workspace_bytes", BOTH, 0, ""},
    {"comment", BOTH, 0, ""},
};
#define N_KEY_RULES (sizeof key_rules / sizeof key_rules[0])

const char *hb_candidate_kind_name(hb_candidate_kind kind)
{
    return kind == HB_CANDIDATE_LAUNCHER ? "launcher" : "cubin";
}

static const key_rule *rule_of(const char *key)
{
    for (size_t i = 0; i < N_KEY_RULES; i++)
        if (!strcmp(key, key_rules[i].key))
            return &key_rules[i];
    return NULL;
}

/* Why a field of the other kind is refused: what the kind means. */
static const char *kind_hint(hb_candidate_kind kind)
{
    return kind == HB_CANDIDATE_LAUNCHER
               ? "a launcher's own host code chooses its launch (docs/launchers.md)"
               : "it belongs to launcher manifests: add \"kind\": \"launcher\" for a shared library (docs/launchers.md)";
}

static hb_status check_keys(json_t *root, const char *origin, hb_candidate_kind kind)
{
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value) {
        const key_rule *rule = rule_of(key);
        if (!rule)
            return BAD(origin, "unknown field \"%s\" (see %s for the fields)", key,
                       kind == HB_CANDIDATE_LAUNCHER ? "docs/launchers.md" : "docs/candidates.md");
        if (!(rule->kinds & (1u << kind)))
            return BAD(origin, "\"%s\" is not a field of a %s manifest: %s", key, hb_candidate_kind_name(kind),
                       kind_hint(kind));
    }
    for (size_t i = 0; i < N_KEY_RULES; i++)
        if ((key_rules[i].required & (1u << kind)) && !json_object_get(root, key_rules[i].key))
            return BAD(origin, "missing required field \"%s\"%s", key_rules[i].key, key_rules[i].missing);
    return HB_OK;
}

static hb_status parse_kind(json_t *root, const char *origin, hb_candidate_kind *kind)
{
    json_t *value = json_object_get(root, "kind");
    const char *text = value ? json_string_value(value) : "cubin";
    if (text && !strcmp(text, "cubin"))
        *kind = HB_CANDIDATE_CUBIN;
    else if (text && !strcmp(text, "launcher"))
        *kind = HB_CANDIDATE_LAUNCHER;
    else
        return BAD(origin, "\"kind\" must be \"cubin\" (the default) or \"launcher\"");
    return HB_OK;
}

/* A string field into dst; "" when it is not there (check_keys has made
 * sure of the required ones). */
static hb_status copy_string(json_t *root, const char *key, const char *origin, char *dst, size_t dst_size)
{
    json_t *value = json_object_get(root, key);
    if (!value) {
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

/* "cubin" or "library": one file for every architecture, or one per architecture. */
static hb_status parse_files(json_t *root, const char *key, const char *origin, hb_manifest *out)
{
    json_t *files = json_object_get(root, key);
    if (json_is_string(files) && json_string_length(files) > 0) {
        out->n_files = 1;
        out->files[0].sm = 0;
        resolve_path(origin, json_string_value(files), out->files[0].path);
        return HB_OK;
    }
    if (!json_is_object(files) || json_object_size(files) == 0)
        return BAD(origin, "\"%s\" must be a file name or an object like {\"sm_90\": \"%s\"}", key,
                   strcmp(key, "cubin") ? "l.sm_90.so" : "k.sm_90.cubin");
    const char *arch;
    json_t *value;
    json_object_foreach(files, arch, value) {
        if (out->n_files == HB_MANIFEST_MAX_FILES)
            return BAD(origin, "\"%s\" lists more than %d architectures", key, HB_MANIFEST_MAX_FILES);
        hb_arch_file *file = &out->files[out->n_files];
        if (parse_sm_key(arch, &file->sm) != HB_OK)
            return BAD(origin, "\"%s\" key \"%s\" is not an architecture like \"sm_90\"", key, arch);
        for (int i = 0; i < out->n_files; i++)
            if (out->files[i].sm == file->sm)
                return BAD(origin, "\"%s\" lists architecture sm_%d twice (\"%s\")", key, file->sm, arch);
        if (!json_is_string(value) || json_string_length(value) == 0)
            return BAD(origin, "\"%s\".\"%s\" must be a file name", key, arch);
        resolve_path(origin, json_string_value(value), file->path);
        out->n_files++;
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
    if (out->kind != HB_CANDIDATE_CUBIN)
        return HB_OK; /* a launcher launches itself */
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
    const char *text = json_string_value(json_object_get(root, key)); /* there: check_keys */
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
    if (out->kind == HB_CANDIDATE_CUBIN) { /* a launcher sets its kernels' shared memory itself */
        json_t *smem = json_object_get(root, "dynamic_smem_bytes");
        if (!json_is_integer(smem) || json_integer_value(smem) < 0 || json_integer_value(smem) > (1 << 24))
            return BAD(origin, "\"dynamic_smem_bytes\" must be an integer in 0..16777216");
        out->dynamic_smem_bytes = (size_t)json_integer_value(smem);
    }
    json_t *workspace = json_object_get(root, "workspace_bytes");
    if (!workspace) {
        hb_dim_expr_literal(0, &out->workspace_bytes);
        return HB_OK;
    }
    return parse_expr(workspace, origin, "\"workspace_bytes\"", 1, &out->workspace_bytes);
}

/* One entry of "params": a role's name, or an integer passed as an int. */
static hb_status parse_param(json_t *value, size_t i, const char *origin, hb_kernel_param *out)
{
    char roles[128];
    hb_param_role_names(roles, sizeof roles);
    out->constant = 0;
    if (json_is_integer(value)) {
        json_int_t v = json_integer_value(value);
        if (v < INT32_MIN || v > INT32_MAX)
            return BAD(origin, "\"params\"[%zu] is %lld; a constant is passed as an int, in %ld..%ld", i, (long long)v,
                       (long)INT32_MIN, (long)INT32_MAX);
        out->role = HB_PARAM_CONSTANT;
        out->constant = (int32_t)v;
        return HB_OK;
    }
    if (!json_is_string(value))
        return BAD(origin, "\"params\"[%zu] must be a role (%s) or an integer constant", i, roles);
    if (!hb_param_role_find(json_string_value(value), &out->role))
        return BAD(origin, "\"params\"[%zu] \"%.64s\" is not a role; the roles are %s, and an integer is a constant", i,
                   json_string_value(value), roles);
    return HB_OK;
}

/* What the list must name for the rest of the manifest to hold: A and C, the
 * B that b_layout says the kernel reads, and a workspace only if one is asked
 * for (else the kernel would get NULL).  That it matches the kernel's own
 * parameters is checked when the cubin is loaded (bench/candidate/cubin_kernel.c). */
static hb_status check_param_roles(json_t *root, const char *origin, const hb_manifest *m)
{
    const hb_kernel_params *p = &m->params;
    char listed[HB_KERNEL_PARAMS_TEXT];
    hb_kernel_params_format(p, listed, sizeof listed);
    if (!hb_kernel_params_count(p, HB_PARAM_A) || !hb_kernel_params_count(p, HB_PARAM_C))
        return BAD(origin, "\"params\" %s must name \"a\" and \"c\": the kernel reads A and writes C", listed);
    const int col = m->b_layout == HB_B_COL;
    const hb_param_role reads = col ? HB_PARAM_B_COL : HB_PARAM_B, other = col ? HB_PARAM_B : HB_PARAM_B_COL;
    if (!hb_kernel_params_count(p, reads) && hb_kernel_params_count(p, other))
        return BAD(origin, "\"params\" %s names \"%s\" but \"b_layout\" is \"%s\", which reads \"%s\": make them agree",
                   listed, hb_param_role_name(other), hb_b_layout_name(m->b_layout), hb_param_role_name(reads));
    if (!hb_kernel_params_count(p, reads))
        return BAD(origin, "\"params\" %s names no B: \"b_layout\" is \"%s\", so the list needs \"%s\"", listed,
                   hb_b_layout_name(m->b_layout), hb_param_role_name(reads));
    json_t *workspace = json_object_get(root, "workspace_bytes");
    if (hb_kernel_params_count(p, HB_PARAM_WORKSPACE) &&
        (!workspace || (json_is_integer(workspace) && json_integer_value(workspace) == 0)))
        return BAD(origin, "\"params\" %s names \"workspace\" but the manifest asks for none: give \"workspace_bytes\" "
                   "(an integer or an expression such as \"M*N*4\")", listed);
    return HB_OK;
}

/* "params" (kind cubin; check_keys refuses it elsewhere): the kernel's
 * parameters in its own order.  Left out, n stays 0: the contract's. */
static hb_status parse_params(json_t *root, const char *origin, hb_manifest *out)
{
    json_t *params = json_object_get(root, "params");
    if (!params)
        return HB_OK;
    if (!json_is_array(params) || json_array_size(params) < 1 || json_array_size(params) > HB_KERNEL_PARAMS_MAX)
        return BAD(origin, "\"params\" must be an array of 1 to %d entries, the kernel's parameters in order, "
                   "e.g. [\"a\", \"b_col\", \"c\", \"m\", \"n\", \"k\"]", HB_KERNEL_PARAMS_MAX);
    for (size_t i = 0; i < json_array_size(params); i++)
        HB_TRY(parse_param(json_array_get(params, i), i, origin, &out->params.list[i]));
    out->params.n = (int)json_array_size(params);
    return check_param_roles(root, origin, out);
}

static hb_status parse_root(json_t *root, const char *origin, hb_manifest *out)
{
    if (!json_is_object(root))
        return BAD(origin, "the top level must be a JSON object");
    HB_TRY(parse_kind(root, origin, &out->kind));
    HB_TRY(check_keys(root, origin, out->kind));
    char format[64];
    HB_TRY(copy_string(root, "format", origin, format, sizeof format));
    if (strcmp(format, HB_MANIFEST_FORMAT) != 0)
        return BAD(origin, "\"format\" is \"%s\"; this harness reads \"%s\"", format, HB_MANIFEST_FORMAT);
    HB_TRY(copy_string(root, "name", origin, out->name, sizeof out->name));
    HB_TRY(copy_string(root, "entry", origin, out->entry, sizeof out->entry));
    if (!out->entry[0]) /* required for a cubin (check_keys): only a launcher gets here */
        snprintf(out->entry, sizeof out->entry, "%s", HGEMM_LAUNCH_DEFAULT_ENTRY);
    HB_TRY(parse_files(root, out->kind == HB_CANDIDATE_LAUNCHER ? "library" : "cubin", origin, out));
    HB_TRY(parse_grid_block(root, origin, out));
    HB_TRY(parse_sizes(root, origin, out));
    int is_col = 0, is_fp16 = 0;
    HB_TRY(parse_enum(root, "b_layout", origin, "row", "col", &is_col));
    HB_TRY(parse_enum(root, "accumulator", origin, "fp32", "fp16", &is_fp16));
    out->b_layout = is_col ? HB_B_COL : HB_B_ROW;
    out->accumulator = is_fp16 ? HB_ACC_FP16 : HB_ACC_FP32;
    HB_TRY(parse_params(root, origin, out));
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

/* A manifest is a few KiB of JSON; 16 MiB is none. */
#define MANIFEST_MAX_BYTES ((size_t)16 << 20)

hb_status hb_manifest_load(const char *path, hb_manifest *out)
{
    memset(out, 0, sizeof *out);
    char label[HB_PATH_MAX + 32], *text;
    size_t size;
    snprintf(label, sizeof label, "candidate manifest %s", path);
    HB_TRY(hb_input_read(path, label, MANIFEST_MAX_BYTES, HB_ERR_BAD_INPUT, 0, &text, &size));
    size_t nul_line, nul_column;
    if (hb_text_nul_at(text, size, &nul_line, &nul_column)) {
        free(text);
        return BAD(path, "a NUL byte at line %zu column %zu: not text (damaged)", nul_line, nul_column);
    }
    json_error_t error;
    json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &error);
    free(text);
    if (!root)
        return BAD(path, "not valid JSON at line %d column %d: %s", error.line, error.column, error.text);
    snprintf(out->path, sizeof out->path, "%s", path);
    hb_status status = parse_root(root, path, out);
    json_decref(root);
    return status;
}

const hb_arch_file *hb_manifest_file_for(const hb_manifest *manifest, int sm)
{
    for (int i = 0; i < manifest->n_files; i++)
        if (manifest->files[i].sm == 0 || manifest->files[i].sm == sm)
            return &manifest->files[i];
    return NULL;
}

void hb_manifest_list_archs(const hb_manifest *manifest, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < manifest->n_files && used < size; i++) {
        const int sm = manifest->files[i].sm;
        int n = sm ? snprintf(out + used, size - used, "%ssm_%d", i ? ", " : "", sm)
                   : snprintf(out + used, size - used, "%sany", i ? ", " : "");
        used += n > 0 ? (size_t)n : 0;
    }
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
