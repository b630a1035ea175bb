/* Tests of bench/result/replay_analysis.c (with replay_relocate.c and
 * replay_compare.c): synthetic captures (tests/replay_fixture.h) made plans. */
#include <stdio.h>
#include <string.h>

#include "bench/result/replay_analysis.h"
#include "tests/replay_fixture.h"
#include "tests/test_registry.h"

static const char *const one_kernel[] = {"_Z11my_hgemm_v1P6__halfS0_S0_iii", NULL};

static hb_replay_plan *analyse(const hb_replay_capture *capture)
{
    hb_replay_plan *plan = hb_replay_plan_new();
    assert_non_null(plan);
    hb_replay_analyse(capture, plan);
    return plan;
}

static void assert_reloc(const hb_replay_reloc *r, uint32_t at, hb_replay_target target, uint32_t alloc,
                         uint64_t offset)
{
    assert_int_equal(r->at, at);
    assert_int_equal(r->to.target, target);
    assert_int_equal(r->to.alloc, alloc);
    assert_int_equal(r->to.offset, offset);
}

static void assert_refused(const hb_replay_plan *plan, hb_replay_refusal refusal, const char *words)
{
    if (plan->refusal != refusal || !strstr(plan->reason, words))
        fail_msg("refusal %s \"%s\"; expected %s naming \"%s\"", hb_replay_refusal_name(plan->refusal), plan->reason,
                 hb_replay_refusal_name(refusal), words);
    assert_int_equal(plan->n_ops, 0);
}

/* One kernel a call with A, B, C, m, n, k: three relocations, the sizes kept as bytes, no prologue. */
static void test_replay_analysis_one_kernel(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++)
        fix_kernel(capture, call, 0, 128);
    hb_replay_plan *plan = analyse(capture);
    assert_int_equal(plan->refusal, HB_REFUSE_NONE);
    assert_int_equal(plan->n_ops, 1);
    assert_int_equal(plan->n_prologue, 0);
    assert_int_equal(plan->calls_recorded, 4);
    assert_int_equal(plan->mnk[1], 256);
    assert_int_equal(plan->n_functions, 1);
    assert_int_equal(plan->n_func_attrs, 1);
    const hb_replay_kernel *k = &plan->ops[0].u.kernel;
    assert_int_equal(k->n_relocs, 3);
    assert_reloc(&k->relocs[0], 0, HB_TARGET_A, 0, 0);
    assert_reloc(&k->relocs[1], 8, HB_TARGET_B, 0, 0);
    assert_reloc(&k->relocs[2], 16, HB_TARGET_C, 0, 0);
    assert_int_equal(k->n_maps, 0);
    assert_int_equal(k->param_bytes, 40);
    assert_int_equal(k->grid[0], 128);
    assert_int_equal(k->params[24] | k->params[25] << 8, 256);
    assert_int_equal(hb_replay_kernels_per_call(plan), 1);
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* A pointer into the middle of a buffer keeps its offset. */
static void test_replay_analysis_offset(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(3, one_kernel);
    for (int call = 0; call < 3; call++)
        fix_word(fix_kernel(capture, call, 0, 128), 8, FIX_B + 4096, 1);
    hb_replay_plan *plan = analyse(capture);
    assert_int_equal(plan->refusal, HB_REFUSE_NONE);
    assert_reloc(&plan->ops[0].u.kernel.relocs[1], 8, HB_TARGET_B, 0, 4096);
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* The first call also clears C: it is the prologue, the steady state the kernel alone. */
static void test_replay_analysis_prologue(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(4, one_kernel);
    fix_memset(capture, 0, FIX_C + 64, 1024);
    for (int call = 0; call < 4; call++)
        fix_kernel(capture, call, 0, 128);
    hb_replay_plan *plan = analyse(capture);
    assert_int_equal(plan->refusal, HB_REFUSE_NONE);
    assert_int_equal(plan->n_ops, 1);
    assert_int_equal(plan->n_prologue, 2);
    assert_int_equal(plan->prologue[0].kind, HB_OP_MEMSET);
    assert_int_equal(plan->prologue[0].u.memset.dst.target, HB_TARGET_C);
    assert_int_equal(plan->prologue[0].u.memset.dst.offset, 64);
    assert_int_equal(plan->prologue[0].u.memset.count, 1024);
    assert_int_equal(plan->prologue[1].kind, HB_OP_KERNEL);
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* Each call allocates a scratch buffer (at a new address), uses it and frees it: one per-call slot. */
static void test_replay_analysis_per_call_alloc(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++) {
        uint64_t base = 0x7f1000000000ull + (uint64_t)call * 0x100000;
        hb_capture_alloc *alloc = fix_alloc(capture, call, base, 8192);
        fix_word(fix_kernel(capture, call, 0, 128), 40, base + 256, 1);
        fix_free(alloc);
    }
    hb_replay_plan *plan = analyse(capture);
    assert_int_equal(plan->refusal, HB_REFUSE_NONE);
    assert_int_equal(plan->n_allocs, 1);
    assert_int_equal(plan->allocs[0].per_call, 1);
    assert_int_equal(plan->allocs[0].bytes, 8192);
    assert_int_equal(plan->n_prologue, 0);
    const hb_replay_kernel *k = &plan->ops[0].u.kernel;
    assert_int_equal(k->n_relocs, 4);
    assert_reloc(&k->relocs[3], 40, HB_TARGET_ALLOC, 0, 256);
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* A buffer made at load and kept: a kept slot; the per-call ones differ in size in call 3: calls-differ. */
static void test_replay_analysis_kept_alloc_and_sizes(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(4, one_kernel);
    fix_alloc(capture, -1, 0x7f2000000000ull, 1 << 20);
    for (int call = 0; call < 4; call++)
        fix_word(fix_kernel(capture, call, 0, 128), 40, 0x7f2000000000ull + 16, 1);
    hb_replay_plan *plan = analyse(capture);
    assert_int_equal(plan->refusal, HB_REFUSE_NONE);
    assert_int_equal(plan->n_allocs, 1);
    assert_int_equal(plan->allocs[0].per_call, 0);
    assert_reloc(&plan->ops[0].u.kernel.relocs[3], 40, HB_TARGET_ALLOC, 0, 16);
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);

    capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++)
        fix_free(fix_alloc(capture, call, 0x7f3000000000ull, call == 2 ? 4096 : 2048));
    for (int call = 0; call < 4; call++)
        fix_kernel(capture, call, 0, 128);
    plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_CALLS_DIFFER, "call 3's allocation 1 is 4096 bytes");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* Two kernels a call (a GEMM and a reduction): two operations, in order. */
static void test_replay_analysis_two_kernels(void **state)
{
    (void)state;
    static const char *const names[] = {"_Z4gemmv", "_Z6reducev", NULL};
    hb_replay_capture *capture = fix_capture(4, names);
    for (int call = 0; call < 4; call++) {
        fix_kernel(capture, call, 0, 128);
        fix_kernel(capture, call, 1, 16);
    }
    hb_replay_plan *plan = analyse(capture);
    assert_int_equal(plan->refusal, HB_REFUSE_NONE);
    assert_int_equal(plan->n_ops, 2);
    assert_int_equal(hb_replay_kernels_per_call(plan), 2);
    assert_int_equal(plan->ops[0].u.kernel.function, 0);
    assert_int_equal(plan->ops[1].u.kernel.function, 1);
    assert_int_equal(plan->ops[1].u.kernel.grid[0], 16);
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* A TMA descriptor over A inside a parameter struct: a map use at its offset; its address word no relocation. */
static void test_replay_analysis_tma_map(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++) {
        hb_capture_map *map = fix_map(capture, FIX_A + 1024);
        fix_put_map(fix_kernel(capture, call, 0, 128), map, 64);
    }
    hb_replay_plan *plan = analyse(capture);
    assert_int_equal(plan->refusal, HB_REFUSE_NONE);
    assert_int_equal(plan->n_maps, 1); /* four encodings of one descriptor */
    assert_int_equal(plan->maps[0].global.target, HB_TARGET_A);
    assert_int_equal(plan->maps[0].global.offset, 1024);
    assert_int_equal(plan->maps[0].rank, 2);
    const hb_replay_kernel *k = &plan->ops[0].u.kernel;
    assert_int_equal(k->param_bytes, 192);
    assert_int_equal(k->n_maps, 1);
    assert_int_equal(k->maps[0].at, 64);
    assert_int_equal(k->maps[0].map, 0);
    assert_int_equal(k->n_relocs, 3); /* A, B, C; not the descriptor's own address word at 64 */
    for (uint32_t i = 0; i < k->n_relocs; i++)
        assert_true(k->relocs[i].at < 64);
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* A descriptor over memory nothing known holds: unknown-pointer. */
static void test_replay_analysis_tma_unknown(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(3, one_kernel);
    for (int call = 0; call < 3; call++)
        fix_put_map(fix_kernel(capture, call, 0, 128), fix_map(capture, FIX_UNKNOWN), 64);
    hb_replay_plan *plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_UNKNOWN_POINTER, "TMA descriptor at byte 64");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* A device address the recording does not know, in a parameter word: unknown-pointer naming call, op, byte, value. */
static void test_replay_analysis_unknown_pointer(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++)
        fix_word(fix_kernel(capture, call, 0, 128), 40, FIX_UNKNOWN, 1);
    hb_replay_plan *plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_UNKNOWN_POINTER, "byte 40 is the device address 0x7e0000001000");
    assert_non_null(strstr(plan->reason, "call 2, op 1 (_Z11my_hgemm_v1"));
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);

    /* the same word not marked a device address is a plain number */
    capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++)
        fix_word(fix_kernel(capture, call, 0, 128), 40, FIX_UNKNOWN, 0);
    plan = analyse(capture);
    assert_int_equal(plan->refusal, HB_REFUSE_NONE);
    assert_int_equal(plan->ops[0].u.kernel.n_relocs, 3);
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* A memset of memory nothing known holds: unknown-pointer. */
static void test_replay_analysis_unknown_memset(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(3, one_kernel);
    for (int call = 0; call < 3; call++) {
        fix_memset(capture, call, FIX_UNKNOWN, 16);
        fix_kernel(capture, call, 0, 128);
    }
    hb_replay_plan *plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_UNKNOWN_POINTER, "memset");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* cuBLAS's kernel (an nvjet one, as on Hopper): library, naming the family. */
static void test_replay_analysis_library(void **state)
{
    (void)state;
    static const char *const names[] = {"nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NTN", NULL};
    hb_replay_capture *capture = fix_capture(4, names);
    for (int call = 0; call < 4; call++)
        fix_kernel(capture, call, 0, 128);
    hb_replay_plan *plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_LIBRARY, "nvjet");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* The fourth call launches a larger grid: calls-differ naming the call, the op and the grids. */
static void test_replay_analysis_calls_differ(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++)
        fix_kernel(capture, call, 0, call == 3 ? 132 : 128);
    hb_replay_plan *plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_CALLS_DIFFER, "call 4, op 1: grid 132x1x1 against 128x1x1");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);

    capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++) {
        fix_kernel(capture, call, 0, 128);
        if (call == 3)
            fix_kernel(capture, call, 0, 128);
    }
    plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_CALLS_DIFFER, "call 4 launched 2 kernels, call 3 launched 1");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);

    /* a size parameter that changes (a counter the launcher keeps) differs too */
    capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++)
        fix_kernel(capture, call, 0, 128)->kernel.params[36] = (unsigned char)call;
    plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_CALLS_DIFFER, "call 3, op 1: parameter byte 36 is 0x02 against 0x01");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* A steady call that launches nothing: no-launch. */
static void test_replay_analysis_no_launch(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(3, one_kernel);
    fix_kernel(capture, 0, 0, 128);
    fix_memset(capture, 1, FIX_C, 16);
    fix_memset(capture, 2, FIX_C, 16);
    hb_replay_plan *plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_NO_LAUNCH, "call 2 launched no kernel");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* The recorder's own refusal is kept with its reason; one call is too few. */
static void test_replay_analysis_recorder_refusal(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(4, one_kernel);
    for (int call = 0; call < 4; call++)
        fix_kernel(capture, call, 0, 128);
    hb_capture_refuse(capture, HB_REFUSE_HOST_READ, "call 2 copied 4 bytes to the host");
    hb_replay_plan *plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_HOST_READ, "call 2 copied 4 bytes to the host");
    assert_int_equal(plan->mnk[0], 256);
    assert_int_equal(plan->calls_recorded, 4);
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);

    capture = fix_capture(1, one_kernel);
    fix_kernel(capture, 0, 0, 128);
    plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_FAILED, "made 1 call");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

/* More operations in a call than a replay holds: limit, naming it. */
static void test_replay_analysis_limit(void **state)
{
    (void)state;
    hb_replay_capture *capture = fix_capture(2, one_kernel);
    for (int call = 0; call < 2; call++)
        for (int i = 0; i < HB_REPLAY_MAX_OPS + 1; i++)
            fix_kernel(capture, call, 0, 128);
    hb_replay_plan *plan = analyse(capture);
    assert_refused(plan, HB_REFUSE_LIMIT, "HB_REPLAY_MAX_OPS");
    hb_replay_plan_free(plan);
    hb_replay_capture_free(capture);
}

static const struct CMUnitTest replay_analysis_tests[] = {
    cmocka_unit_test(test_replay_analysis_one_kernel),
    cmocka_unit_test(test_replay_analysis_offset),
    cmocka_unit_test(test_replay_analysis_prologue),
    cmocka_unit_test(test_replay_analysis_per_call_alloc),
    cmocka_unit_test(test_replay_analysis_kept_alloc_and_sizes),
    cmocka_unit_test(test_replay_analysis_two_kernels),
    cmocka_unit_test(test_replay_analysis_tma_map),
    cmocka_unit_test(test_replay_analysis_tma_unknown),
    cmocka_unit_test(test_replay_analysis_unknown_pointer),
    cmocka_unit_test(test_replay_analysis_unknown_memset),
    cmocka_unit_test(test_replay_analysis_library),
    cmocka_unit_test(test_replay_analysis_calls_differ),
    cmocka_unit_test(test_replay_analysis_no_launch),
    cmocka_unit_test(test_replay_analysis_recorder_refusal),
    cmocka_unit_test(test_replay_analysis_limit),
};

hb_test_list hb_replay_analysis_tests(void) { return HB_TEST_LIST(replay_analysis_tests); }
