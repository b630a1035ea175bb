/* Tests of bench/candidate/manifest.c, bench/candidate/dim_expr.c, bench/candidate/candidate_set.c, and of a
 * cubin kernel's parameter list: bench/result/kernel_params.c (the roles) and bench/candidate/kernel_args.c
 * (their values at a call). */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/candidate/candidate_set.h"
#include "bench/candidate/dim_expr.h"
#include "bench/candidate/kernel_args.h"
#include "bench/candidate/manifest.h"
#include "bench/core/diag.h"
#include "bench/result/kernel_params.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- helpers ---------------------------------------------------------------- */


static void write_file(const char *dir, const char *name, const char *text)
{
    char path[HB_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The fields of a valid manifest, in order; a case replaces or drops one. */
typedef struct field {
    const char *key;
    const char *value; /* JSON text */
} field;

static const field base_fields[] = {
    {"format", "\"hgemm-bench-candidate/1\""},
    {"name", "\"my-kernel\""},
    {"cubin", "{\"sm_80\": \"k.sm_80.cubin\", \"sm_90\": \"sub/k.sm_90.cubin\"}"},
    {"entry", "\"hgemm_entry\""},
    {"grid", "[\"N/128\", \"M/64\", 1]"},
    {"block", "[128, 2, 1]"},
    {"dynamic_smem_bytes", "49152"},
    {"b_layout", "\"col\""},
    {"accumulator", "\"fp16\""},
    {"padding", "{\"m\": 128, \"n\": 128, \"k\": 32}"},
    {"pad_inputs", "true"},
    {"workspace_bytes", "\"M*N*4\""},
    {"comment", "\"free text\""},
};
#define N_BASE_FIELDS (sizeof base_fields / sizeof base_fields[0])

/* Builds the base manifest with `key` set to `value` (NULL: key left out; a
 * key not in the base is appended).  Returns static storage. */
static const char *manifest_with(const char *key, const char *value)
{
    static char text[8192];
    size_t used = 0;
    int replaced = 0;
    used += (size_t)snprintf(text + used, sizeof text - used, "{");
    int first = 1;
    for (size_t i = 0; i < N_BASE_FIELDS; i++) {
        const char *v = base_fields[i].value;
        if (key && !strcmp(key, base_fields[i].key)) {
            replaced = 1;
            v = value;
        }
        if (!v)
            continue;
        used += (size_t)snprintf(text + used, sizeof text - used, "%s\n  \"%s\": %s", first ? "" : ",",
                                 base_fields[i].key, v);
        first = 0;
    }
    if (key && !replaced && value)
        used += (size_t)snprintf(text + used, sizeof text - used, ",\n  \"%s\": %s", key, value);
    snprintf(text + used, sizeof text - used, "\n}\n");
    return text;
}

static hb_manifest *new_manifest(void)
{
    hb_manifest *m = malloc(sizeof *m);
    assert_non_null(m);
    memset(m, 0x5A, sizeof *m);
    return m;
}

/* Parsing `text` fails with HB_ERR_BAD_INPUT and the message holds `needle`
 * and the origin. */
static void expect_bad(const char *text, const char *needle)
{
    hb_manifest *m = new_manifest();
    hb_status status = hb_manifest_parse(text, "cands/x/bad.json", m);
    if (status != HB_ERR_BAD_INPUT || !strstr(hb_last_error(), needle) || !strstr(hb_last_error(), "cands/x/bad.json"))
        fprintf(stderr, "case wanting '%s': status %d, message '%s'\nmanifest:\n%s\n", needle, (int)status,
                hb_last_error(), text);
    assert_int_equal(status, HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), needle));
    assert_non_null(strstr(hb_last_error(), "cands/x/bad.json"));
    free(m);
}

static uint64_t eval_or_fail(const hb_dim_expr *e, long m, long n, long k)
{
    uint64_t value = 0;
    assert_int_equal(hb_dim_expr_eval(e, m, n, k, UINT64_MAX, &value), HB_OK);
    return value;
}

/* ceil(a / b) by counting, independent of the implementation's formula. */
static uint64_t ceil_div_slow(uint64_t a, uint64_t b)
{
    uint64_t q = 0;
    while (q * b < a)
        q++;
    return q;
}

/* --- manifest: valid ------------------------------------------------------------- */

static void test_manifest_full_valid(void **state)
{
    (void)state;
    hb_manifest *m = new_manifest();
    assert_int_equal(hb_manifest_parse(manifest_with(NULL, NULL), "/opt/cands/set/64_64_64.json", m), HB_OK);
    assert_string_equal(m->path, "/opt/cands/set/64_64_64.json");
    assert_string_equal(m->name, "my-kernel");
    assert_string_equal(m->entry, "hgemm_entry");
    assert_int_equal(m->n_files, 2);
    const hb_arch_file *c80 = hb_manifest_file_for(m, 80), *c90 = hb_manifest_file_for(m, 90);
    assert_non_null(c80);
    assert_non_null(c90);
    assert_int_equal(c80->sm, 80);
    assert_int_equal(c90->sm, 90);
    assert_string_equal(c80->path, "/opt/cands/set/k.sm_80.cubin");
    assert_string_equal(c90->path, "/opt/cands/set/sub/k.sm_90.cubin");
    /* grid ["N/128", "M/64", 1] at M=1000, N=1000, K=7: ceil(1000/128)=8, ceil(1000/64)=16, 1 */
    assert_int_equal(eval_or_fail(&m->grid[0], 1000, 1000, 7), 8);
    assert_int_equal(eval_or_fail(&m->grid[1], 1000, 1000, 7), 16);
    assert_int_equal(eval_or_fail(&m->grid[2], 1000, 1000, 7), 1);
    /* N/128 depends on N only */
    assert_int_equal(eval_or_fail(&m->grid[0], 1, 129, 1), 2);
    assert_int_equal(m->block[0], 128);
    assert_int_equal(m->block[1], 2);
    assert_int_equal(m->block[2], 1);
    assert_int_equal(m->dynamic_smem_bytes, 49152);
    assert_int_equal(m->b_layout, HB_B_COL);
    assert_int_equal(m->accumulator, HB_ACC_FP16);
    assert_int_equal(m->pad[0], 128);
    assert_int_equal(m->pad[1], 128);
    assert_int_equal(m->pad[2], 32);
    assert_int_equal(m->pad_inputs, 1);
    /* workspace "M*N*4" at 3, 5, 11: 60 */
    assert_int_equal(eval_or_fail(&m->workspace_bytes, 3, 5, 11), 60);
    free(m);
}

static void test_manifest_defaults_and_alternatives(void **state)
{
    (void)state;
    hb_manifest *m = new_manifest();
    /* no name: defaults to the entry */
    assert_int_equal(hb_manifest_parse(manifest_with("name", NULL), "m.json", m), HB_OK);
    assert_string_equal(m->name, "hgemm_entry");
    /* other enum values */
    assert_int_equal(hb_manifest_parse(manifest_with("b_layout", "\"row\""), "m.json", m), HB_OK);
    assert_int_equal(m->b_layout, HB_B_ROW);
    assert_int_equal(hb_manifest_parse(manifest_with("accumulator", "\"fp32\""), "m.json", m), HB_OK);
    assert_int_equal(m->accumulator, HB_ACC_FP32);
    /* no padding: multiples of 1; no pad_inputs: the harness pads */
    assert_int_equal(hb_manifest_parse(manifest_with("padding", NULL), "m.json", m), HB_OK);
    assert_int_equal(m->pad[0], 1);
    assert_int_equal(m->pad[1], 1);
    assert_int_equal(m->pad[2], 1);
    assert_int_equal(hb_manifest_parse(manifest_with("pad_inputs", NULL), "m.json", m), HB_OK);
    assert_int_equal(m->pad_inputs, 1);
    assert_int_equal(hb_manifest_parse(manifest_with("pad_inputs", "false"), "m.json", m), HB_OK);
    assert_int_equal(m->pad_inputs, 0);
    /* partial padding: the others stay 1 */
    assert_int_equal(hb_manifest_parse(manifest_with("padding", "{\"k\": 64}"), "m.json", m), HB_OK);
    assert_int_equal(m->pad[0], 1);
    assert_int_equal(m->pad[1], 1);
    assert_int_equal(m->pad[2], 64);
    /* no workspace: 0 bytes; an integer workspace and 0 are allowed */
    assert_int_equal(hb_manifest_parse(manifest_with("workspace_bytes", NULL), "m.json", m), HB_OK);
    assert_int_equal(eval_or_fail(&m->workspace_bytes, 4096, 4096, 4096), 0);
    assert_int_equal(hb_manifest_parse(manifest_with("workspace_bytes", "0"), "m.json", m), HB_OK);
    assert_int_equal(eval_or_fail(&m->workspace_bytes, 4096, 4096, 4096), 0);
    assert_int_equal(hb_manifest_parse(manifest_with("workspace_bytes", "1024"), "m.json", m), HB_OK);
    assert_int_equal(eval_or_fail(&m->workspace_bytes, 1, 1, 1), 1024);
    /* smem 0 is fine; the 1024-thread limit is inclusive */
    assert_int_equal(hb_manifest_parse(manifest_with("dynamic_smem_bytes", "0"), "m.json", m), HB_OK);
    assert_int_equal(m->dynamic_smem_bytes, 0);
    assert_int_equal(hb_manifest_parse(manifest_with("block", "[32, 32, 1]"), "m.json", m), HB_OK);
    assert_int_equal(m->block[0] * m->block[1] * m->block[2], 1024);
    free(m);
}

static void test_manifest_cubin_forms(void **state)
{
    (void)state;
    hb_manifest *m = new_manifest();
    /* a plain string: one cubin for every architecture, relative to the origin's folder */
    assert_int_equal(hb_manifest_parse(manifest_with("cubin", "\"kern.cubin\""), "a/b/manifest.json", m), HB_OK);
    assert_int_equal(m->n_files, 1);
    assert_int_equal(m->files[0].sm, 0);
    assert_string_equal(m->files[0].path, "a/b/kern.cubin");
    /* origin without a folder: the name as is */
    assert_int_equal(hb_manifest_parse(manifest_with("cubin", "\"kern.cubin\""), "manifest.json", m), HB_OK);
    assert_string_equal(m->files[0].path, "kern.cubin");
    /* an absolute path is kept */
    assert_int_equal(hb_manifest_parse(manifest_with("cubin", "\"/abs/dir/kern.cubin\""), "a/b/manifest.json", m),
                     HB_OK);
    assert_string_equal(m->files[0].path, "/abs/dir/kern.cubin");
    assert_int_equal(hb_manifest_parse(manifest_with("cubin", "{\"sm_90\": \"/abs/k90.cubin\"}"), "a/m.json", m),
                     HB_OK);
    assert_int_equal(m->n_files, 1);
    assert_int_equal(m->files[0].sm, 90);
    assert_string_equal(m->files[0].path, "/abs/k90.cubin");
    /* "sm_90a" is architecture 90 */
    assert_int_equal(hb_manifest_parse(manifest_with("cubin", "{\"sm_90a\": \"k.cubin\"}"), "m.json", m), HB_OK);
    assert_int_equal(m->files[0].sm, 90);
    free(m);
}

static void test_manifest_cubin_for(void **state)
{
    (void)state;
    hb_manifest *m = new_manifest();
    assert_int_equal(hb_manifest_parse(manifest_with(NULL, NULL), "d/m.json", m), HB_OK);
    assert_string_equal(hb_manifest_file_for(m, 80)->path, "d/k.sm_80.cubin");
    assert_string_equal(hb_manifest_file_for(m, 90)->path, "d/sub/k.sm_90.cubin");
    /* no cubin for sm_86 / sm_75 / sm_100: SASS does not carry across */
    assert_null(hb_manifest_file_for(m, 86));
    assert_null(hb_manifest_file_for(m, 75));
    assert_null(hb_manifest_file_for(m, 100));
    /* a single plain cubin (sm 0) serves any architecture */
    assert_int_equal(hb_manifest_parse(manifest_with("cubin", "\"any.cubin\""), "d/m.json", m), HB_OK);
    const int sms[] = {70, 75, 80, 86, 89, 90, 100};
    for (size_t i = 0; i < sizeof sms / sizeof sms[0]; i++) {
        const hb_arch_file *ref = hb_manifest_file_for(m, sms[i]);
        assert_non_null(ref);
        assert_string_equal(ref->path, "d/any.cubin");
    }
    free(m);
}

static void test_manifest_padded_dims(void **state)
{
    (void)state;
    hb_manifest *m = new_manifest();
    assert_int_equal(hb_manifest_parse(manifest_with(NULL, NULL), "m.json", m), HB_OK);
    long padded[3] = {0, 0, 0};
    assert_int_equal(hb_manifest_padded_dims(m, 100, 200, 300, padded), HB_OK);
    assert_int_equal(padded[0], 128);
    assert_int_equal(padded[1], 256);
    assert_int_equal(padded[2], 320);
    assert_int_equal(hb_manifest_padded_dims(m, 128, 256, 320, padded), HB_OK);
    assert_int_equal(padded[0], 128);
    assert_int_equal(padded[1], 256);
    assert_int_equal(padded[2], 320);
    assert_int_equal(hb_manifest_padded_dims(m, 1, 1, 1, padded), HB_OK);
    assert_int_equal(padded[0], 128);
    assert_int_equal(padded[2], 32);

    /* brute force: the smallest multiple >= d */
    for (long pad = 1; pad <= 40; pad++) {
        m->pad[0] = m->pad[1] = m->pad[2] = pad;
        for (long d = 1; d <= 200; d++) {
            long want = 0;
            while (want < d)
                want += pad;
            assert_int_equal(hb_manifest_padded_dims(m, d, d, d, padded), HB_OK);
            assert_int_equal(padded[0], want);
            assert_int_equal(padded[1], want);
            assert_int_equal(padded[2], want);
        }
    }

    /* pad_inputs false: multiples pass unchanged, a non-multiple is unsupported and named */
    assert_int_equal(hb_manifest_parse(manifest_with("pad_inputs", "false"), "m.json", m), HB_OK);
    assert_int_equal(hb_manifest_padded_dims(m, 256, 128, 64, padded), HB_OK);
    assert_int_equal(padded[0], 256);
    assert_int_equal(padded[1], 128);
    assert_int_equal(padded[2], 64);
    assert_int_equal(hb_manifest_padded_dims(m, 100, 128, 32, padded), HB_ERR_UNSUPPORTED);
    assert_non_null(strstr(hb_last_error(), "M=100"));
    assert_int_equal(hb_manifest_padded_dims(m, 128, 200, 32, padded), HB_ERR_UNSUPPORTED);
    assert_non_null(strstr(hb_last_error(), "N=200"));
    assert_int_equal(hb_manifest_padded_dims(m, 128, 128, 33, padded), HB_ERR_UNSUPPORTED);
    assert_non_null(strstr(hb_last_error(), "K=33"));
    assert_non_null(strstr(hb_last_error(), "my-kernel"));
    free(m);
}

/* --- manifest: malformed ------------------------------------------------------- */

static void test_manifest_malformed_top_level(void **state)
{
    (void)state;
    expect_bad(manifest_with("format", NULL), "format");
    expect_bad(manifest_with("format", "\"hgemm-bench-candidate/2\""), "format");
    expect_bad(manifest_with("format", "1"), "format");
    expect_bad(manifest_with("dynamic_smem", "49152"), "dynamic_smem");
    expect_bad(manifest_with("Entry", "\"k\""), "Entry");
    /* duplicate key: the second "entry" must not silently win */
    expect_bad(manifest_with("comment", "\"x\", \"entry\": \"other\""), "entry");
    expect_bad(manifest_with("comment", "\"x\", \"entry\": \"other\""), "duplicate");
    expect_bad(manifest_with("entry", NULL), "entry");
    expect_bad(manifest_with("entry", "\"\""), "entry");
    expect_bad(manifest_with("entry", "7"), "entry");
    expect_bad(manifest_with("name", "\"\""), "name");
    expect_bad("[1, 2, 3]", "top level");
    /* jansson itself refuses a top-level scalar, before the harness looks */
    expect_bad("\"just a string\"", "JSON");
    expect_bad("", "JSON");
}

static void test_manifest_malformed_cubin(void **state)
{
    (void)state;
    expect_bad(manifest_with("cubin", NULL), "cubin");
    expect_bad(manifest_with("cubin", "42"), "cubin");
    expect_bad(manifest_with("cubin", "[\"k.cubin\"]"), "cubin");
    expect_bad(manifest_with("cubin", "\"\""), "cubin");
    expect_bad(manifest_with("cubin", "{}"), "cubin");
    expect_bad(manifest_with("cubin", "{\"gfx90a\": \"k.hsaco\"}"), "gfx90a");
    expect_bad(manifest_with("cubin", "{\"sm_90\": \"k.cubin\", \"sm90\": \"k.cubin\"}"), "sm90");
    expect_bad(manifest_with("cubin", "{\"sm_9\": \"k.cubin\"}"), "sm_9");
    expect_bad(manifest_with("cubin", "{\"sm_90x\": \"k.cubin\"}"), "sm_90x");
    expect_bad(manifest_with("cubin", "{\"sm_90\": 5}"), "sm_90");
    expect_bad(manifest_with("cubin", "{\"sm_90\": \"\"}"), "sm_90");
}

static void test_manifest_malformed_grid_block(void **state)
{
    (void)state;
    expect_bad(manifest_with("grid", NULL), "grid");
    expect_bad(manifest_with("grid", "[\"N/128\", 1]"), "grid");
    expect_bad(manifest_with("grid", "[1, 1, 1, 1]"), "grid");
    expect_bad(manifest_with("grid", "\"N/128\""), "grid");
    expect_bad(manifest_with("grid", "[\"N/0\", 1, 1]"), "grid");
    expect_bad(manifest_with("grid", "[1, \"X/128\", 1]"), "grid");
    expect_bad(manifest_with("grid", "[1, 1, \"N/128*\"]"), "grid");
    expect_bad(manifest_with("grid", "[0, 1, 1]"), "grid");
    expect_bad(manifest_with("grid", "[-4, 1, 1]"), "grid");
    expect_bad(manifest_with("grid", "[1.5, 1, 1]"), "grid");
    expect_bad(manifest_with("block", NULL), "block");
    expect_bad(manifest_with("block", "[0, 1, 1]"), "block");
    expect_bad(manifest_with("block", "[2048, 1, 1]"), "block");
    expect_bad(manifest_with("block", "[1, 1, 2048]"), "block");
    expect_bad(manifest_with("block", "[32, 32, 2]"), "block"); /* 2048 threads */
    expect_bad(manifest_with("block", "[32, 32, 2]"), "2048");
    expect_bad(manifest_with("block", "[128, 1]"), "block");
    expect_bad(manifest_with("block", "[\"128\", 1, 1]"), "block");
}

static void test_manifest_malformed_other_fields(void **state)
{
    (void)state;
    expect_bad(manifest_with("dynamic_smem_bytes", NULL), "dynamic_smem_bytes");
    expect_bad(manifest_with("dynamic_smem_bytes", "-1"), "dynamic_smem_bytes");
    expect_bad(manifest_with("dynamic_smem_bytes", "\"49152\""), "dynamic_smem_bytes");
    expect_bad(manifest_with("dynamic_smem_bytes", "16777217"), "dynamic_smem_bytes");
    expect_bad(manifest_with("b_layout", NULL), "b_layout");
    expect_bad(manifest_with("b_layout", "\"rowmajor\""), "b_layout");
    expect_bad(manifest_with("b_layout", "\"COL\""), "b_layout");
    expect_bad(manifest_with("b_layout", "1"), "b_layout");
    expect_bad(manifest_with("accumulator", NULL), "accumulator");
    expect_bad(manifest_with("accumulator", "\"fp64\""), "accumulator");
    expect_bad(manifest_with("accumulator", "\"bf16\""), "accumulator");
    expect_bad(manifest_with("padding", "{\"q\": 128}"), "padding");
    expect_bad(manifest_with("padding", "{\"q\": 128}"), "\"q\"");
    expect_bad(manifest_with("padding", "{\"m\": 0}"), "padding");
    expect_bad(manifest_with("padding", "{\"n\": -32}"), "padding");
    expect_bad(manifest_with("padding", "{\"k\": 65537}"), "padding");
    expect_bad(manifest_with("padding", "{\"k\": \"32\"}"), "padding");
    expect_bad(manifest_with("padding", "[128, 128, 32]"), "padding");
    expect_bad(manifest_with("pad_inputs", "\"yes\""), "pad_inputs");
    expect_bad(manifest_with("pad_inputs", "1"), "pad_inputs");
    expect_bad(manifest_with("workspace_bytes", "-1"), "workspace_bytes");
    expect_bad(manifest_with("workspace_bytes", "\"M*\""), "workspace_bytes");
    expect_bad(manifest_with("workspace_bytes", "[1]"), "workspace_bytes");
}

/* --- manifest: params ------------------------------------------------------------ */

/* `params` (a JSON array's text) parsed into `m`; the test fails on a refusal. */
static void parse_params_ok(const char *params, hb_manifest *m)
{
    hb_status status = hb_manifest_parse(manifest_with("params", params), "m.json", m);
    if (status != HB_OK)
        fail_msg("params %s refused: %s", params, hb_last_error());
}

static void assert_formats(const hb_kernel_params *params, const char *want)
{
    char text[HB_KERNEL_PARAMS_TEXT];
    hb_kernel_params_format(params, text, sizeof text);
    assert_string_equal(text, want);
}

static void test_manifest_params_valid(void **state)
{
    (void)state;
    hb_manifest *m = new_manifest();
    /* Left out: n = 0, the contract's list, as before "params" existed. */
    assert_int_equal(hb_manifest_parse(manifest_with(NULL, NULL), "m.json", m), HB_OK);
    assert_int_equal(m->params.n, 0);

    parse_params_ok("[\"a\", \"b_col\", \"c\", \"m\", \"n\", \"k\"]", m);
    const hb_param_role want[] = {HB_PARAM_A, HB_PARAM_B_COL, HB_PARAM_C, HB_PARAM_M, HB_PARAM_N, HB_PARAM_K};
    assert_int_equal(m->params.n, 6);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(m->params.list[i].role, want[i]);
        assert_int_equal(m->params.list[i].constant, 0);
    }
    assert_formats(&m->params, "(a, b_col, c, m, n, k)");

    /* Integer constants (the extremes of an int), 64-bit dimensions, the
     * workspace (the base asks for "M*N*4"), a role twice, both copies of B. */
    parse_params_ok("[\"a\", \"b\", \"b_col\", \"c\", \"m64\", \"n64\", \"k64\", \"workspace\", 4, -2147483648, "
                    "2147483647, \"k\", \"k\"]", m);
    assert_int_equal(m->params.n, 13);
    assert_int_equal(m->params.list[8].role, HB_PARAM_CONSTANT);
    assert_int_equal(m->params.list[8].constant, 4);
    assert_true(m->params.list[9].constant == INT32_MIN);
    assert_true(m->params.list[10].constant == INT32_MAX);
    assert_int_equal(hb_kernel_params_count(&m->params, HB_PARAM_K), 2);
    assert_formats(&m->params, "(a, b, b_col, c, m64, n64, k64, workspace, 4, -2147483648, 2147483647, k, k)");

    /* b_layout "row" with "b"; 16 entries, the most. */
    const char *row_16 = "\"row\", \"params\": [\"c\", \"b\", \"a\", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \"m\"]";
    assert_int_equal(hb_manifest_parse(manifest_with("b_layout", row_16), "m.json", m), HB_OK);
    assert_int_equal(m->params.n, 16);
    assert_int_equal(m->params.list[1].role, HB_PARAM_B);
    assert_int_equal(m->params.list[15].role, HB_PARAM_M);
    free(m);
}

static void test_manifest_params_malformed(void **state)
{
    (void)state;
    /* An unknown role: the file, the field, the entry's index and the valid names. */
    const char *unknown = manifest_with("params", "[\"a\", \"b_col\", \"C\", \"m\", \"n\", \"k\"]");
    expect_bad(unknown, "\"params\"[2] \"C\" is not a role");
    expect_bad(unknown, "a, b, b_col, c, m, n, k, workspace, m64, n64, k64");
    expect_bad(manifest_with("params", "[\"a\", \"b_col\", \"c\", \"constant\"]"), "\"params\"[3]");
    /* Constants: an int, and a JSON integer. */
    expect_bad(manifest_with("params", "[\"a\", \"b_col\", \"c\", 2147483648]"), "\"params\"[3] is 2147483648");
    expect_bad(manifest_with("params", "[\"a\", \"b_col\", \"c\", -2147483649]"), "-2147483648..2147483647");
    expect_bad(manifest_with("params", "[\"a\", \"b_col\", \"c\", 1.5]"), "\"params\"[3] must be a role");
    expect_bad(manifest_with("params", "[\"a\", true, \"b_col\", \"c\"]"), "\"params\"[1] must be a role");
    expect_bad(manifest_with("params", "[\"a\", null, \"b_col\", \"c\"]"), "\"params\"[1]");
    expect_bad(manifest_with("params", "[[\"a\"], \"b_col\", \"c\"]"), "\"params\"[0]");
    /* The list itself: an array of 1 to 16. */
    expect_bad(manifest_with("params", "[]"), "\"params\" must be an array of 1 to 16 entries");
    expect_bad(manifest_with("params", "\"a, b_col, c\""), "\"params\" must be an array");
    expect_bad(manifest_with("params", "{\"0\": \"a\"}"), "\"params\" must be an array");
    expect_bad(manifest_with("params", "[\"a\", \"b_col\", \"c\", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]"),
               "1 to 16 entries");
    /* What it must name: A, C, and the B that b_layout reads. */
    expect_bad(manifest_with("params", "[\"b_col\", \"c\", \"m\", \"n\", \"k\"]"), "must name \"a\" and \"c\"");
    expect_bad(manifest_with("params", "[\"a\", \"b_col\", \"m\", \"n\", \"k\"]"), "must name \"a\" and \"c\"");
    expect_bad(manifest_with("params", "[\"a\", \"c\", \"m\", \"n\", \"k\"]"), "names no B");
    /* b against b_layout, both ways; the message quotes the list. */
    const char *b_for_col = manifest_with("params", "[\"a\", \"b\", \"c\", \"m\", \"n\", \"k\"]");
    expect_bad(b_for_col,
               "\"params\" (a, b, c, m, n, k) names \"b\" but \"b_layout\" is \"col\", which reads \"b_col\"");
    expect_bad(manifest_with("b_layout", "\"row\", \"params\": [\"a\", \"b_col\", \"c\", \"m\", \"n\", \"k\"]"),
               "names \"b_col\" but \"b_layout\" is \"row\", which reads \"b\"");
    /* A workspace the manifest does not ask for. */
    const char *workspace = "[\"a\", \"b_col\", \"c\", \"m\", \"n\", \"k\", \"workspace\"]";
    char text[8192];
    snprintf(text, sizeof text, "%s", manifest_with("workspace_bytes", NULL));
    char *close = strrchr(text, '}');
    snprintf(close, sizeof text - (size_t)(close - text), ", \"params\": %s}", workspace);
    expect_bad(text, "names \"workspace\" but the manifest asks for none: give \"workspace_bytes\"");
    snprintf(text, sizeof text, "%s", manifest_with("workspace_bytes", "0"));
    close = strrchr(text, '}');
    snprintf(close, sizeof text - (size_t)(close - text), ", \"params\": %s}", workspace);
    expect_bad(text, "names \"workspace\"");
    /* A launcher's host code passes its own parameters: the other kind's key. */
    expect_bad("{\"format\": \"hgemm-bench-candidate/1\", \"kind\": \"launcher\", \"library\": \"l.so\", "
               "\"b_layout\": \"col\", \"accumulator\": \"fp32\", \"params\": [\"a\", \"b_col\", \"c\"]}",
               "\"params\" is not a field of a launcher manifest");
}

/* The role table: names, sizes, lookups, the valid names and the text of a list. */
static void test_kernel_params_roles(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        hb_param_role role;
        size_t size;
    } rows[] = {{"a", HB_PARAM_A, 8},          {"b", HB_PARAM_B, 8},     {"b_col", HB_PARAM_B_COL, 8},
                {"c", HB_PARAM_C, 8},          {"m", HB_PARAM_M, 4},     {"n", HB_PARAM_N, 4},
                {"k", HB_PARAM_K, 4},          {"workspace", HB_PARAM_WORKSPACE, 8},
                {"m64", HB_PARAM_M64, 8},      {"n64", HB_PARAM_N64, 8}, {"k64", HB_PARAM_K64, 8}};
    assert_int_equal(sizeof rows / sizeof rows[0], HB_N_PARAM_ROLES - 1); /* every named role */
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        hb_param_role role = HB_PARAM_CONSTANT;
        assert_true(hb_param_role_find(rows[i].name, &role));
        assert_int_equal(role, rows[i].role);
        assert_string_equal(hb_param_role_name(role), rows[i].name);
        assert_int_equal(hb_param_role_size(role), rows[i].size);
    }
    assert_int_equal(hb_param_role_size(HB_PARAM_CONSTANT), 4);
    hb_param_role role = HB_PARAM_A;
    assert_false(hb_param_role_find("constant", &role)); /* a constant is written as its value */
    assert_false(hb_param_role_find("A", &role));
    assert_false(hb_param_role_find("", &role));
    assert_int_equal(role, HB_PARAM_A); /* untouched */
    char names[128];
    hb_param_role_names(names, sizeof names);
    assert_string_equal(names, "a, b, b_col, c, m, n, k, workspace, m64, n64, k64");

    /* The contract: what a manifest without "params" launches with. */
    const hb_kernel_params *contract = hb_kernel_params_contract();
    assert_formats(contract, "(a, b, b_col, c, m, n, k, workspace)");
    size_t total = 0;
    for (int i = 0; i < contract->n; i++)
        total += hb_param_role_size(contract->list[i].role);
    assert_int_equal(total, 4 * 8 + 3 * 4 + 8);

    hb_kernel_params list = {3, {{HB_PARAM_A, 0}, {HB_PARAM_CONSTANT, -7}, {HB_PARAM_C, 0}}};
    assert_formats(&list, "(a, -7, c)");
    char one[16];
    hb_kernel_param_text(&list.list[1], one, sizeof one);
    assert_string_equal(one, "-7");
    list.n = 0;
    assert_formats(&list, "()");
    /* A short buffer: cut, still a string. */
    char small[6];
    hb_kernel_params_format(contract, small, sizeof small);
    assert_string_equal(small, "(a, b");
}

/* The values a launch passes: the io's pointers and padded dimensions, the
 * workspace and the constants, each where its list names it. */
static void test_kernel_args_values(void **state)
{
    (void)state;
    static const uint16_t a[1], b[1], b_col[1];
    static uint16_t c[1];
    static char workspace[1];
    const hb_gemm_io io = {a, b, b_col, c, 128, 256, 4096};
    const hb_kernel_params params = {
        9, {{HB_PARAM_K, 0}, {HB_PARAM_C, 0}, {HB_PARAM_A, 0}, {HB_PARAM_B_COL, 0}, {HB_PARAM_CONSTANT, -3},
            {HB_PARAM_M64, 0}, {HB_PARAM_WORKSPACE, 0}, {HB_PARAM_B, 0}, {HB_PARAM_N, 0}}};
    hb_kernel_args args;
    memset(&args, 0xA5, sizeof args);
    hb_kernel_args_fill(&params, &io, workspace, &args);
    for (int i = 0; i < params.n; i++)
        assert_ptr_equal(args.pointers[i], &args.values[i]);
    int32_t i32;
    long long i64;
    const void *pointer;
    memcpy(&i32, args.pointers[0], 4);
    assert_int_equal(i32, 4096);
    memcpy(&pointer, args.pointers[1], 8);
    assert_ptr_equal(pointer, c);
    memcpy(&pointer, args.pointers[2], 8);
    assert_ptr_equal(pointer, a);
    memcpy(&pointer, args.pointers[3], 8);
    assert_ptr_equal(pointer, b_col);
    memcpy(&i32, args.pointers[4], 4);
    assert_int_equal(i32, -3);
    memcpy(&i64, args.pointers[5], 8);
    assert_true(i64 == 128);
    memcpy(&pointer, args.pointers[6], 8);
    assert_ptr_equal(pointer, workspace);
    memcpy(&pointer, args.pointers[7], 8);
    assert_ptr_equal(pointer, b);
    memcpy(&i32, args.pointers[8], 4);
    assert_int_equal(i32, 256);
    /* The contract's list passes what the fixed parameters always did. */
    hb_kernel_args_fill(hb_kernel_params_contract(), &io, NULL, &args);
    memcpy(&pointer, args.pointers[7], 8);
    assert_null(pointer);
    memcpy(&i32, args.pointers[6], 4);
    assert_int_equal(i32, 4096);
}

/* --- manifest files -------------------------------------------------------------- */

static void test_manifest_load_files(void **state)
{
    (void)state;
    char dir[512], path[HB_PATH_MAX], want[HB_PATH_MAX];
    hb_test_make_temp_dir("hb-test-manifest", dir, sizeof dir);
    hb_manifest *m = new_manifest();

    /* a valid file: cubins resolve against its folder */
    write_file(dir, "manifest.json", manifest_with(NULL, NULL));
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    assert_int_equal(hb_manifest_load(path, m), HB_OK);
    assert_string_equal(m->path, path);
    snprintf(want, sizeof want, "%s/sub/k.sm_90.cubin", dir);
    assert_string_equal(hb_manifest_file_for(m, 90)->path, want);
    assert_string_equal(m->entry, "hgemm_entry");

    /* missing file: bad input, naming the path */
    snprintf(path, sizeof path, "%s/nope.json", dir);
    assert_int_equal(hb_manifest_load(path, m), HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), path));

    /* invalid JSON: bad input, naming the path and the line (3 here) */
    write_file(dir, "broken.json", "{\n  \"format\": \"hgemm-bench-candidate/1\",\n  \"entry\" \"k\"\n}\n");
    snprintf(path, sizeof path, "%s/broken.json", dir);
    assert_int_equal(hb_manifest_load(path, m), HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), path));
    assert_non_null(strstr(hb_last_error(), "line 3"));

    /* a valid JSON file with a bad field: names the path and the field */
    write_file(dir, "badfield.json", manifest_with("accumulator", "\"fp64\""));
    snprintf(path, sizeof path, "%s/badfield.json", dir);
    assert_int_equal(hb_manifest_load(path, m), HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), path));
    assert_non_null(strstr(hb_last_error(), "accumulator"));

    /* a folder is not a manifest */
    assert_int_equal(hb_manifest_load(dir, m), HB_ERR_BAD_INPUT);

    free(m);
    hb_test_remove_tree(dir);
}

/* --- dim_expr ---------------------------------------------------------------------- */

static hb_dim_expr parse_ok(const char *text)
{
    hb_dim_expr e;
    char why[256] = "";
    hb_status status = hb_dim_expr_parse(text, &e, why, sizeof why);
    if (status != HB_OK)
        fprintf(stderr, "'%s' did not parse: %s\n", text, why);
    assert_int_equal(status, HB_OK);
    return e;
}

static void test_dim_expr_values(void **state)
{
    (void)state;
    hb_dim_expr e = parse_ok("7");
    assert_int_equal(eval_or_fail(&e, 100, 100, 100), 7);
    e = parse_ok("2*3*4");
    assert_int_equal(eval_or_fail(&e, 1, 1, 1), 24);
    e = parse_ok("M");
    assert_int_equal(eval_or_fail(&e, 11, 13, 17), 11);
    e = parse_ok("N");
    assert_int_equal(eval_or_fail(&e, 11, 13, 17), 13);
    e = parse_ok("K");
    assert_int_equal(eval_or_fail(&e, 11, 13, 17), 17);
    e = parse_ok("M*N*4");
    assert_int_equal(eval_or_fail(&e, 11, 13, 17), 11 * 13 * 4);
    e = parse_ok("m * n/2 * k");                  /* lower case and blanks around '*' */
    assert_int_equal(eval_or_fail(&e, 3, 5, 7), 3 * 3 * 7);
    e = parse_ok("M/128*N/256");
    assert_int_equal(eval_or_fail(&e, 1000, 1000, 1), 8 * 4);
    assert_int_equal(eval_or_fail(&e, 128, 256, 1), 1);
    assert_int_equal(eval_or_fail(&e, 129, 257, 1), 4);
    e = parse_ok("2*2*2*2*2*2*2*2");              /* 8 terms: the maximum */
    assert_int_equal(eval_or_fail(&e, 1, 1, 1), 256);
    hb_dim_expr_literal(12345, &e);
    assert_int_equal(eval_or_fail(&e, 1, 1, 1), 12345);
}

static void test_dim_expr_ceil_division_brute_force(void **state)
{
    (void)state;
    const uint64_t divisors[] = {1, 2, 3, 7, 16, 64, 100, 128, 255, 256};
    for (size_t i = 0; i < sizeof divisors / sizeof divisors[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "N/%llu*M/%llu", (unsigned long long)divisors[i],
                 (unsigned long long)divisors[(i + 3) % 10]);
        hb_dim_expr e = parse_ok(text);
        for (long d = 1; d <= 700; d += 3) {
            uint64_t want = ceil_div_slow((uint64_t)d, divisors[i]) * ceil_div_slow(2, divisors[(i + 3) % 10]);
            assert_int_equal(eval_or_fail(&e, 2, d, 9), want);
        }
    }
}

static void test_dim_expr_limit(void **state)
{
    (void)state;
    hb_dim_expr e = parse_ok("M*N");
    uint64_t value = 0;
    assert_int_equal(hb_dim_expr_eval(&e, 4, 5, 1, 20, &value), HB_OK); /* limit inclusive */
    assert_int_equal(value, 20);
    value = 99;
    assert_int_equal(hb_dim_expr_eval(&e, 4, 5, 1, 19, &value), HB_ERR_UNSUPPORTED);
    assert_int_equal(value, 99); /* untouched on failure */
    assert_non_null(strstr(hb_last_error(), "19"));
    /* grid y limit 65535: N/1 = 65536 does not fit */
    e = parse_ok("N");
    assert_int_equal(hb_dim_expr_eval(&e, 1, 65536, 1, 65535, &value), HB_ERR_UNSUPPORTED);
    /* a product past 2^64 must fail rather than wrap: 262144^8 = 2^144 */
    e = parse_ok("M*N*K*M*N*K*M*N");
    assert_int_equal(hb_dim_expr_eval(&e, 262144, 262144, 262144, UINT64_MAX, &value), HB_ERR_UNSUPPORTED);
    /* 2^18 * 2^18 * 2^18 = 2^54 fits */
    e = parse_ok("M*N*K");
    assert_int_equal(hb_dim_expr_eval(&e, 262144, 262144, 262144, UINT64_MAX, &value), HB_OK);
    assert_true(value == (uint64_t)1 << 54);
    /* 2^32 * 2^32 = 2^64 overflows by exactly one */
    e = parse_ok("4294967296*4294967296");
    assert_int_equal(hb_dim_expr_eval(&e, 1, 1, 1, UINT64_MAX, &value), HB_ERR_UNSUPPORTED);
    e = parse_ok("4294967296*4294967295");
    assert_int_equal(hb_dim_expr_eval(&e, 1, 1, 1, UINT64_MAX, &value), HB_OK);
    assert_true(value == UINT64_MAX - 4294967295u);
}

/* A divisor larger than the dimension still rounds up to 1 block: ceil(2 / d) = 1
 * for every d >= 2, including divisors near 2^64. */
static void test_dim_expr_huge_divisor(void **state)
{
    (void)state;
    hb_dim_expr e = parse_ok("N/1000000");
    assert_int_equal(eval_or_fail(&e, 1, 2, 1), 1);
    e = parse_ok("N/18446744073709551615"); /* UINT64_MAX */
    assert_int_equal(eval_or_fail(&e, 1, 2, 1), 1);
}

static void test_dim_expr_parse_errors(void **state)
{
    (void)state;
    const char *bad[] = {"", " ", "N/0", "X/128", "N/128*", "*N", "0", "N/", "N//2", "N/-1", "N/+4", "M+N",
                         "M N", "N/1.5", "-3", "2*0", "MN", "99999999999999999999", "2*2*2*2*2*2*2*2*2",
                         "N / 128", NULL};
    for (const char **text = bad; *text; text++) {
        hb_dim_expr e;
        char why[512] = "";
        hb_status status = hb_dim_expr_parse(*text, &e, why, sizeof why);
        if (status != HB_ERR_BAD_INPUT)
            fprintf(stderr, "expression '%s' was accepted\n", *text);
        assert_int_equal(status, HB_ERR_BAD_INPUT);
        assert_true(why[0] != '\0');
    }
    /* the reason quotes the expression */
    hb_dim_expr e;
    char why[512] = "";
    assert_int_equal(hb_dim_expr_parse("N/128*Q", &e, why, sizeof why), HB_ERR_BAD_INPUT);
    assert_non_null(strstr(why, "N/128*Q"));
}

/* --- candidate sets ------------------------------------------------------------------ */

static void test_candidate_set_lookup(void **state)
{
    (void)state;
    char dir[512], sub[600], path[HB_PATH_MAX], want[HB_PATH_MAX];
    hb_test_make_temp_dir("hb-test-manifest", dir, sizeof dir);

    /* set 1: a specific manifest and generic.json (and manifest.json, which generic outranks) */
    snprintf(sub, sizeof sub, "%s/set", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    write_file(sub, "64_64_64.json", "{}");
    write_file(sub, "generic.json", "{}");
    write_file(sub, "manifest.json", "{}");
    /* a folder with a configuration's name is not a manifest */
    snprintf(path, sizeof path, "%s/128_128_128.json", sub);
    assert_int_equal(mkdir(path, 0755), 0);

    assert_int_equal(hb_candidate_manifest_path(sub, 64, 64, 64, path), HB_OK);
    snprintf(want, sizeof want, "%s/64_64_64.json", sub);
    assert_string_equal(path, want);
    snprintf(want, sizeof want, "%s/generic.json", sub);
    assert_int_equal(hb_candidate_manifest_path(sub, 64, 64, 128, path), HB_OK);
    assert_string_equal(path, want);
    assert_int_equal(hb_candidate_manifest_path(sub, 128, 128, 128, path), HB_OK);
    assert_string_equal(path, want);
    /* order matters: 64,64,65 is not 64_64_64 */
    assert_int_equal(hb_candidate_manifest_path(sub, 64, 64, 65, path), HB_OK);
    assert_string_equal(path, want);

    /* set 2: only manifest.json */
    snprintf(sub, sizeof sub, "%s/single", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    write_file(sub, "manifest.json", "{}");
    snprintf(want, sizeof want, "%s/manifest.json", sub);
    assert_int_equal(hb_candidate_manifest_path(sub, 1, 2, 3, path), HB_OK);
    assert_string_equal(path, want);

    /* set 3: specific manifests only: other configurations are unsupported */
    snprintf(sub, sizeof sub, "%s/specific", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    write_file(sub, "64_64_64.json", "{}");
    assert_int_equal(hb_candidate_manifest_path(sub, 64, 64, 64, path), HB_OK);
    assert_int_equal(hb_candidate_manifest_path(sub, 1, 2, 3, path), HB_ERR_UNSUPPORTED);
    assert_non_null(strstr(hb_last_error(), "1_2_3.json"));

    /* an empty folder */
    snprintf(sub, sizeof sub, "%s/empty", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(hb_candidate_manifest_path(sub, 64, 64, 64, path), HB_ERR_UNSUPPORTED);

    /* nothing there: bad input, naming the path */
    snprintf(sub, sizeof sub, "%s/does-not-exist", dir);
    assert_int_equal(hb_candidate_manifest_path(sub, 64, 64, 64, path), HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), sub));

    /* a plain file is the manifest for every configuration, as given */
    write_file(dir, "one.json", "{}");
    snprintf(sub, sizeof sub, "%s/one.json", dir);
    assert_int_equal(hb_candidate_manifest_path(sub, 64, 64, 64, path), HB_OK);
    assert_string_equal(path, sub);
    assert_int_equal(hb_candidate_manifest_path(sub, 7, 8, 9, path), HB_OK);
    assert_string_equal(path, sub);

    hb_test_remove_tree(dir);
    struct stat st;
    assert_int_not_equal(stat(dir, &st), 0);
}

static const struct CMUnitTest manifest_tests[] = {
    cmocka_unit_test(test_manifest_full_valid),
    cmocka_unit_test(test_manifest_defaults_and_alternatives),
    cmocka_unit_test(test_manifest_cubin_forms),
    cmocka_unit_test(test_manifest_cubin_for),
    cmocka_unit_test(test_manifest_padded_dims),
    cmocka_unit_test(test_manifest_malformed_top_level),
    cmocka_unit_test(test_manifest_malformed_cubin),
    cmocka_unit_test(test_manifest_malformed_grid_block),
    cmocka_unit_test(test_manifest_malformed_other_fields),
    cmocka_unit_test(test_manifest_params_valid),
    cmocka_unit_test(test_manifest_params_malformed),
    cmocka_unit_test(test_kernel_params_roles),
    cmocka_unit_test(test_kernel_args_values),
    cmocka_unit_test(test_manifest_load_files),
    cmocka_unit_test(test_dim_expr_values),
    cmocka_unit_test(test_dim_expr_ceil_division_brute_force),
    cmocka_unit_test(test_dim_expr_limit),
    cmocka_unit_test(test_dim_expr_huge_divisor),
    cmocka_unit_test(test_dim_expr_parse_errors),
    cmocka_unit_test(test_candidate_set_lookup),
};

hb_test_list hb_manifest_tests(void) { return HB_TEST_LIST(manifest_tests); }
