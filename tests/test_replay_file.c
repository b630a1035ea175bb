/* Tests of bench/candidate/replay_file.c (replay.json and its cubins): a
 * rich plan's round trip, and every kind of damage refused with
 * HB_ERR_BAD_INPUT naming the field. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/replay_file.h"
#include "bench/core/diag.h"
#include "bench/result/replay_analysis.h"
#include "tests/replay_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static const char cubin_bytes[] = "\x7f" "ELF a stand-in for a cubin's bytes";

/* A plan with a prologue (a memset and a copy), a kept and a per-call
 * allocation, a TMA descriptor, two kernels and launch attributes. */
static hb_replay_plan *rich_plan(void)
{
    static const char *const names[] = {"_Z4gemmv", "_Z6reducev", NULL};
    hb_replay_capture *capture = fix_capture(4, names);
    fix_alloc(capture, -1, 0x7f2000000000ull, 1 << 20);
    fix_memset(capture, 0, FIX_C, 64);
    hb_capture_op *copy = &capture->ops[capture->n_ops++];
    *copy = (hb_capture_op){.kind = HB_OP_COPY, .call = 0, .seq = fix_seq(), .dst = 0x7f2000000000ull,
                            .src = FIX_B + 8, .bytes = 4096};
    for (int call = 0; call < 4; call++) {
        uint64_t base = 0x7f1000000000ull + (uint64_t)call * 0x100000;
        hb_capture_alloc *alloc = fix_alloc(capture, call, base, 8192);
        hb_capture_op *gemm = fix_kernel(capture, call, 0, 132);
        fix_put_map(gemm, fix_map(capture, FIX_A), 64);
        fix_word(gemm, 192, base + 512, 1);
        hb_capture_op *reduce = fix_kernel(capture, call, 1, 8);
        fix_word(reduce, 40, 0x7f2000000000ull + 64, 1);
        fix_free(alloc);
    }
    hb_replay_plan *plan = hb_replay_plan_new();
    assert_non_null(plan);
    hb_replay_analyse(capture, plan);
    hb_replay_capture_free(capture);
    if (plan->refusal != HB_REFUSE_NONE)
        fail_msg("the rich plan was refused: %s", plan->reason);
    assert_int_equal(plan->n_prologue, 4);
    assert_int_equal(plan->n_allocs, 2);
    snprintf(plan->library_sha256, sizeof plan->library_sha256, "%064d", 7);
    return plan;
}

static void write_plan(const char *dir, hb_replay_plan *plan)
{
    const void *cubins[] = {cubin_bytes};
    size_t sizes[] = {sizeof cubin_bytes};
    assert_int_equal(hb_replay_write(dir, plan, cubins, sizes), HB_OK);
}

static void test_replay_file_round_trip(void **state)
{
    (void)state;
    char dir[512];
    hb_test_make_temp_dir("replay-file", dir, sizeof dir);
    hb_replay_plan *plan = rich_plan(), *back = hb_replay_plan_new();
    write_plan(dir, plan);
    assert_string_equal(plan->modules[0].file, "module-0.cubin");
    assert_int_equal(plan->modules[0].bytes, sizeof cubin_bytes);
    assert_int_equal(strlen(plan->modules[0].sha256), 64);
    assert_int_equal(hb_replay_read(dir, back), HB_OK);
    assert_int_equal(back->refusal, HB_REFUSE_NONE);
    assert_memory_equal(back->mnk, plan->mnk, sizeof plan->mnk);
    assert_memory_equal(back->padded, plan->padded, sizeof plan->padded);
    assert_string_equal(back->library_sha256, plan->library_sha256);
    assert_int_equal(back->sm, plan->sm);
    assert_int_equal(back->calls_recorded, plan->calls_recorded);
    assert_int_equal(back->n_modules, 1);
    assert_memory_equal(back->modules, plan->modules, sizeof plan->modules[0]);
    assert_int_equal(back->n_functions, 2);
    assert_memory_equal(back->functions, plan->functions, 2 * sizeof plan->functions[0]);
    assert_int_equal(back->n_func_attrs, plan->n_func_attrs);
    assert_memory_equal(back->func_attrs, plan->func_attrs, plan->n_func_attrs * sizeof plan->func_attrs[0]);
    assert_int_equal(back->n_allocs, plan->n_allocs);
    assert_memory_equal(back->allocs, plan->allocs, plan->n_allocs * sizeof plan->allocs[0]);
    assert_int_equal(back->n_maps, 1);
    assert_memory_equal(back->maps, plan->maps, sizeof plan->maps[0]);
    assert_int_equal(back->n_streams, plan->n_streams);
    assert_int_equal(back->n_prologue, plan->n_prologue);
    assert_memory_equal(back->prologue, plan->prologue, plan->n_prologue * sizeof plan->prologue[0]);
    assert_int_equal(back->n_ops, 2);
    assert_memory_equal(back->ops, plan->ops, plan->n_ops * sizeof plan->ops[0]);
    hb_replay_plan_free(plan);
    hb_replay_plan_free(back);
    hb_test_remove_tree(dir);
}

/* A refused plan is written as the record of why: read back, refused, with its reason and no operations. */
static void test_replay_file_refused(void **state)
{
    (void)state;
    char dir[512];
    hb_test_make_temp_dir("replay-refused", dir, sizeof dir);
    hb_replay_plan *plan = rich_plan(), *back = hb_replay_plan_new();
    hb_replay_refuse(plan, HB_REFUSE_UNKNOWN_POINTER, "call 2, op 1 (k): a word");
    assert_int_equal(hb_replay_write(dir, plan, NULL, NULL), HB_OK);
    assert_int_equal(hb_replay_read(dir, back), HB_OK);
    assert_int_equal(back->refusal, HB_REFUSE_UNKNOWN_POINTER);
    assert_string_equal(back->reason, "call 2, op 1 (k): a word");
    assert_int_equal(back->n_ops, 0);
    assert_int_equal(back->n_modules, 0);
    assert_int_equal(back->mnk[2], 256);
    hb_replay_plan_free(plan);
    hb_replay_plan_free(back);
    hb_test_remove_tree(dir);
}

/* --- damage ------------------------------------------------------------------------------------ */

static json_t *at(json_t *root, const char *array, size_t i)
{
    json_t *a = json_array_get(json_object_get(root, array), i);
    assert_non_null(a);
    return a;
}

static json_t *gemm(json_t *root)
{
    return at(root, "ops", 0);
}

static void set(json_t *object, const char *key, json_t *value)
{
    assert_int_equal(json_object_set_new(object, key, value), 0);
}

static void unknown_key(json_t *root) { set(root, "timing", json_true()); }
static void missing_key(json_t *root) { json_object_del(root, "maps"); }
static void wrong_type(json_t *root) { set(root, "sm", json_string("90")); }
static void wrong_format(json_t *root) { set(root, "format", json_string("hgemm-bench-replay/2")); }
static void bad_refusal(json_t *root) { set(root, "refusal", json_string("tired")); }
static void too_many_ops(json_t *root)
{
    json_t *ops = json_object_get(root, "ops");
    for (int i = 0; i < HB_REPLAY_MAX_OPS; i++)
        json_array_append(ops, json_array_get(ops, 0));
}
static void function_out_of_range(json_t *root) { set(gemm(root), "function", json_integer(2)); }
static void module_out_of_range(json_t *root) { set(at(root, "functions", 0), "module", json_integer(1)); }
static void func_attr_out_of_range(json_t *root) { set(at(root, "func_attrs", 0), "function", json_integer(9)); }
static void slot_out_of_range(json_t *root)
{
    json_t *to = json_object_get(at(root, "ops", 1), "relocs");
    to = json_object_get(json_array_get(to, 3), "to");
    set(to, "alloc", json_integer(2));
}
static void bad_target(json_t *root)
{
    set(json_object_get(json_array_get(json_object_get(gemm(root), "relocs"), 0), "to"), "target", json_string("d"));
}
static void map_out_of_range(json_t *root)
{
    set(json_array_get(json_object_get(gemm(root), "maps"), 0), "map", json_integer(1));
}
static void reloc_past_end(json_t *root)
{
    set(json_array_get(json_object_get(gemm(root), "relocs"), 0), "at", json_integer(196));
}
static void map_unaligned(json_t *root)
{
    set(json_array_get(json_object_get(gemm(root), "maps"), 0), "at", json_integer(32));
}
static void map_past_end(json_t *root)
{
    set(json_array_get(json_object_get(gemm(root), "maps"), 0), "at", json_integer(128));
}
static void param_past_end(json_t *root)
{
    set(json_array_get(json_object_get(gemm(root), "params"), 5), "size", json_integer(200));
}
static void grid_zero(json_t *root) { set(gemm(root), "grid", json_pack("[iii]", 0, 1, 1)); }
static void block_zero(json_t *root) { set(gemm(root), "block", json_pack("[iii]", 128, 0, 1)); }
static void param_data_short(json_t *root) { set(gemm(root), "param_data", json_string("00ff")); }
static void param_data_upper(json_t *root)
{
    char *text = strdup(json_string_value(json_object_get(gemm(root), "param_data")));
    text[0] = 'A';
    set(gemm(root), "param_data", json_string(text));
    free(text);
}
static void param_bytes_over(json_t *root) { set(gemm(root), "param_bytes", json_integer(8192)); }
static void long_name(json_t *root)
{
    char *name = malloc(HB_REPLAY_NAME_MAX + 2);
    memset(name, 'k', HB_REPLAY_NAME_MAX + 1);
    name[HB_REPLAY_NAME_MAX + 1] = '\0';
    set(at(root, "functions", 0), "name", json_string(name));
    free(name);
}
static void module_slash(json_t *root) { set(at(root, "modules", 0), "file", json_string("sub/module-0.cubin")); }
static void module_dotdot(json_t *root) { set(at(root, "modules", 0), "file", json_string("..module-0.cubin")); }
static void module_sha(json_t *root) { set(at(root, "modules", 0), "sha256", json_string("xyz")); }
static void stream_out_of_range(json_t *root) { set(gemm(root), "stream", json_integer(1)); }
static void memset_width(json_t *root) { set(at(root, "prologue", 0), "element_bytes", json_integer(3)); }
static void negative_offset(json_t *root)
{
    set(json_object_get(at(root, "prologue", 1), "src"), "offset", json_integer(-8));
}
static void no_kernel(json_t *root) { set(root, "ops", json_array()); }

typedef struct damage {
    const char *name;
    void (*apply)(json_t *root);
    const char *field; /* what the message must name */
} damage;

static const damage damages[] = {
    {"unknown key", unknown_key, "timing"},
    {"missing key", missing_key, "maps"},
    {"wrong type", wrong_type, "sm"},
    {"wrong format", wrong_format, "format"},
    {"unknown refusal", bad_refusal, "refusal"},
    {"too many ops", too_many_ops, "ops"},
    {"function index", function_out_of_range, "ops[0].function"},
    {"module index", module_out_of_range, "functions[0].module"},
    {"func_attr index", func_attr_out_of_range, "func_attrs[0].function"},
    {"alloc slot", slot_out_of_range, "ops[1].relocs[3].to.alloc"},
    {"target name", bad_target, "ops[0].relocs[0].to.target"},
    {"map index", map_out_of_range, "ops[0].maps[0].map"},
    {"reloc past the end", reloc_past_end, "ops[0].relocs[0].at"},
    {"map use unaligned", map_unaligned, "ops[0].maps[0].at"},
    {"map use past the end", map_past_end, "ops[0].maps[0].at"},
    {"parameter past the end", param_past_end, "ops[0].params[5].size"},
    {"grid 0", grid_zero, "ops[0].grid"},
    {"block 0", block_zero, "ops[0].block"},
    {"param_data short", param_data_short, "ops[0].param_data"},
    {"param_data upper case", param_data_upper, "ops[0].param_data"},
    {"param_bytes over", param_bytes_over, "ops[0].param_bytes"},
    {"name too long", long_name, "functions[0].name"},
    {"module with a slash", module_slash, "modules[0].file"},
    {"module with ..", module_dotdot, "modules[0].file"},
    {"module sha256", module_sha, "modules[0].sha256"},
    {"stream index", stream_out_of_range, "ops[0].stream"},
    {"memset width", memset_width, "prologue[0].element_bytes"},
    {"negative offset", negative_offset, "prologue[1].src.offset"},
    {"no kernel", no_kernel, "ops"},
};

/* Reads dir back, expecting HB_ERR_BAD_INPUT with a message holding `words`. */
static void assert_bad(const char *dir, const char *what, const char *words)
{
    hb_replay_plan *plan = hb_replay_plan_new();
    hb_diag_set_quiet(1);
    hb_status status = hb_replay_read(dir, plan);
    hb_diag_set_quiet(0);
    if (status != HB_ERR_BAD_INPUT || !strstr(hb_last_error(), words))
        fail_msg("%s: status %d, \"%s\"; expected bad input naming \"%s\"", what, (int)status, hb_last_error(),
                 words);
    assert_int_equal(plan->n_ops, 0);
    hb_replay_plan_free(plan);
}

static void test_replay_file_damage(void **state)
{
    (void)state;
    char dir[512], path[600];
    hb_test_make_temp_dir("replay-damage", dir, sizeof dir);
    hb_replay_plan *plan = rich_plan();
    snprintf(path, sizeof path, "%s/replay.json", dir);
    for (size_t i = 0; i < sizeof damages / sizeof damages[0]; i++) {
        write_plan(dir, plan);
        json_t *root = hb_test_load_json(path);
        damages[i].apply(root);
        assert_int_equal(json_dump_file(root, path, JSON_PRESERVE_ORDER), 0);
        json_decref(root);
        assert_bad(dir, damages[i].name, damages[i].field);
    }
    hb_replay_plan_free(plan);
    hb_test_remove_tree(dir);
}

/* A cubin changed after the recording (same size, or not), or gone: refused naming it. */
static void test_replay_file_cubin_changed(void **state)
{
    (void)state;
    char dir[512], path[600];
    hb_test_make_temp_dir("replay-cubin", dir, sizeof dir);
    hb_replay_plan *plan = rich_plan();
    snprintf(path, sizeof path, "%s/module-0.cubin", dir);

    write_plan(dir, plan);
    char changed[sizeof cubin_bytes];
    memcpy(changed, cubin_bytes, sizeof changed);
    changed[5] ^= 1;
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(changed, 1, sizeof changed, f), sizeof changed);
    assert_int_equal(fclose(f), 0);
    assert_bad(dir, "cubin of the same size changed", "modules[0].sha256");

    write_plan(dir, plan);
    f = fopen(path, "ab");
    assert_non_null(f);
    fputc('x', f);
    assert_int_equal(fclose(f), 0);
    assert_bad(dir, "cubin grown", "modules[0].bytes");

    write_plan(dir, plan);
    assert_int_equal(remove(path), 0);
    assert_bad(dir, "cubin gone", "module-0.cubin");

    hb_replay_plan_free(plan);
    hb_test_remove_tree(dir);
}

/* Not JSON, or no replay.json at all: bad input naming the file. */
static void test_replay_file_not_json(void **state)
{
    (void)state;
    char dir[512], path[600];
    hb_test_make_temp_dir("replay-text", dir, sizeof dir);
    assert_bad(dir, "no replay.json", "replay.json");
    snprintf(path, sizeof path, "%s/replay.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"format\": ", f);
    assert_int_equal(fclose(f), 0);
    assert_bad(dir, "cut short", "not valid JSON");
    hb_test_remove_tree(dir);
}

static const struct CMUnitTest replay_file_tests[] = {
    cmocka_unit_test(test_replay_file_round_trip),
    cmocka_unit_test(test_replay_file_refused),
    cmocka_unit_test(test_replay_file_damage),
    cmocka_unit_test(test_replay_file_cubin_changed),
    cmocka_unit_test(test_replay_file_not_json),
};

hb_test_list hb_replay_file_tests(void) { return HB_TEST_LIST(replay_file_tests); }
