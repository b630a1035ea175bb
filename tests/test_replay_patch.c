/* Tests of bench/result/replay_patch.c: a kernel's parameters at one call
 * (relocations at unaligned offsets, TMA descriptors written whole, the rest
 * as recorded) and the bound check at load refusing a pointer, a memset or a
 * copy that reaches outside its buffer. */
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/result/replay_patch.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static const uint64_t alloc_bases[2] = {0x7f3000000000ull, 0x7f4000000000ull};

static hb_replay_bases bases_of_call(void)
{
    hb_replay_bases b = {.allocs = alloc_bases, .n_allocs = 2};
    b.target[HB_TARGET_A] = 0x7f0000000000ull;
    b.target[HB_TARGET_B] = 0x7f0100000000ull;
    b.target[HB_TARGET_B_COL] = 0x7f0200000000ull;
    b.target[HB_TARGET_C] = 0x7f0300000000ull;
    b.target[HB_TARGET_WORKSPACE] = 0x7f0400000000ull;
    return b;
}

static uint64_t word_at(const unsigned char *bytes, size_t at)
{
    uint64_t v;
    memcpy(&v, bytes + at, sizeof v);
    return v;
}

static void test_replay_patch_address(void **state)
{
    (void)state;
    const hb_replay_bases b = bases_of_call();
    const hb_replay_pointer c = {.target = HB_TARGET_C, .offset = 6};
    const hb_replay_pointer alloc1 = {.target = HB_TARGET_ALLOC, .alloc = 1, .offset = 0x40};
    assert_true(hb_replay_address(&b, &c) == 0x7f0300000006ull);
    assert_true(hb_replay_address(&b, &alloc1) == 0x7f4000000040ull);
}

/* Relocations at bytes 3 and 13 (neither 8-byte aligned), a map at 64; the
 * bytes between them stay as recorded. */
static void test_replay_patch_params(void **state)
{
    (void)state;
    hb_replay_kernel *k = calloc(1, sizeof *k);
    assert_non_null(k);
    k->param_bytes = 200;
    for (uint32_t i = 0; i < k->param_bytes; i++)
        k->params[i] = (unsigned char)(i ^ 0x5a);
    k->n_relocs = 2;
    k->relocs[0] = (hb_replay_reloc){.at = 3, .to = {.target = HB_TARGET_A, .offset = 0}};
    k->relocs[1] = (hb_replay_reloc){.at = 13, .to = {.target = HB_TARGET_ALLOC, .alloc = 0, .offset = 24}};
    k->n_maps = 1;
    k->maps[0] = (hb_replay_map_use){.at = 64, .map = 1};
    unsigned char maps[2][HB_REPLAY_MAP_BYTES];
    memset(maps[0], 0x11, sizeof maps[0]);
    memset(maps[1], 0x22, sizeof maps[1]);
    unsigned char out[HB_REPLAY_MAX_PARAM_BYTES];
    memset(out, 0xee, sizeof out);
    const hb_replay_bases b = bases_of_call();
    hb_replay_patch_params(k, &b, (const unsigned char (*)[HB_REPLAY_MAP_BYTES])maps, out);
    assert_true(word_at(out, 3) == 0x7f0000000000ull);
    assert_true(word_at(out, 13) == 0x7f3000000018ull);
    for (size_t i = 64; i < 64 + HB_REPLAY_MAP_BYTES; i++)
        assert_int_equal(out[i], 0x22);
    for (size_t i = 0; i < k->param_bytes; i++)
        if (i < 3 || (i >= 11 && i < 13) || (i >= 21 && i < 64) || i >= 192)
            assert_int_equal(out[i], (unsigned char)(i ^ 0x5a));
    assert_int_equal(out[k->param_bytes], 0xee); /* nothing past the parameters */
    free(k);
}

/* A plan of one kernel (a relocation into C, a TMA descriptor on B), a
 * memset of the workspace and a copy into allocation 0. */
static hb_replay_plan *bounded_plan(void)
{
    hb_replay_plan *plan = hb_replay_plan_new();
    assert_non_null(plan);
    plan->n_allocs = 1;
    plan->allocs[0].bytes = 256;
    plan->n_maps = 1;
    plan->maps[0].global = (hb_replay_pointer){.target = HB_TARGET_B, .offset = 0};
    plan->n_ops = 3;
    hb_replay_kernel *k = &plan->ops[0].u.kernel;
    plan->ops[0].kind = HB_OP_KERNEL;
    k->param_bytes = 192;
    k->n_relocs = 1;
    k->relocs[0] = (hb_replay_reloc){.at = 5, .to = {.target = HB_TARGET_C, .offset = 1000}};
    k->n_maps = 1;
    k->maps[0] = (hb_replay_map_use){.at = 64, .map = 0};
    plan->ops[1].kind = HB_OP_MEMSET;
    plan->ops[1].u.memset = (hb_replay_memset){.dst = {.target = HB_TARGET_WORKSPACE, .offset = 16},
                                               .element_bytes = 4, .count = 60};
    plan->ops[2].kind = HB_OP_COPY;
    plan->ops[2].u.copy = (hb_replay_copy){.dst = {.target = HB_TARGET_ALLOC, .alloc = 0, .offset = 0},
                                           .src = {.target = HB_TARGET_A, .offset = 0}, .bytes = 256};
    return plan;
}

static const hb_replay_sizes sizes = {.target = {[HB_TARGET_A] = 512, [HB_TARGET_B] = 512, [HB_TARGET_B_COL] = 512,
                                                 [HB_TARGET_C] = 1024, [HB_TARGET_WORKSPACE] = 256}};

static void assert_refused(const hb_replay_plan *plan, const char *words)
{
    assert_int_equal(hb_replay_check_bounds(plan, &sizes, "replay-folder"), HB_ERR_BAD_INPUT);
    const char *text = hb_last_error();
    if (!strstr(text, "replay-folder") || !strstr(text, words))
        fail_msg("the refusal \"%s\" does not name the folder and \"%s\"", text, words);
}

static void test_replay_patch_bounds(void **state)
{
    (void)state;
    hb_replay_plan *plan = bounded_plan();
    assert_int_equal(hb_replay_check_bounds(plan, &sizes, "replay-folder"), HB_OK); /* each exactly at its edge */

    plan->ops[0].u.kernel.relocs[0].to.offset = 1024; /* one past C's end */
    assert_refused(plan, "parameter byte 5");
    plan->ops[0].u.kernel.relocs[0].to.offset = 1000;

    plan->maps[0].global.offset = 512; /* the descriptor's address past B's end */
    assert_refused(plan, "TMA descriptor");
    plan->maps[0].global.offset = 0;

    plan->ops[1].u.memset.count = 61; /* 16 + 244 bytes of a 256-byte workspace */
    assert_refused(plan, "the memset");
    plan->ops[1].u.memset.count = 60;

    plan->ops[2].u.copy.bytes = 257; /* one byte more than allocation 0 */
    assert_refused(plan, "allocation 0");
    plan->ops[2].u.copy.bytes = 256;

    plan->ops[2].u.copy.src.offset = 300; /* the source's extent past A's end */
    assert_refused(plan, "the copy's source");
    plan->ops[2].u.copy.src.offset = 0;

    /* the prologue is held to the same bounds */
    plan->n_prologue = 1;
    plan->prologue[0] = plan->ops[1];
    plan->prologue[0].u.memset.dst.offset = 20;
    assert_refused(plan, "prologue operation 0");
    hb_replay_plan_free(plan);
}

static const struct CMUnitTest replay_patch_tests[] = {
    cmocka_unit_test(test_replay_patch_address),
    cmocka_unit_test(test_replay_patch_params),
    cmocka_unit_test(test_replay_patch_bounds),
};

hb_test_list hb_replay_patch_tests(void) { return HB_TEST_LIST(replay_patch_tests); }
