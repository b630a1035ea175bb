/* Tests of the replay participant (bench/candidate/replay_candidate.c) on a
 * replay folder built by hand: sample_simple's cubin as module 0 and one
 * kernel launch of it, its contract's parameters relocated to A, B, B_col
 * and C, recorded (as if) from sample_mma_launcher's library.  The GPU test
 * runs it against cuBLAS; the others refuse a replay of another size, GPU,
 * library or a refusal before any CUDA call, and audit its module state. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines/baseline_factory.h"
#include "bench/candidate/replay_candidate.h"
#include "bench/candidate/replay_file.h"
#include "bench/core/diag.h"
#include "bench/core/file_digest.h"
#include "bench/result/run_options.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"
#include "verify/deviation_check.h"
#include "verify/module_state_check.h"
#include "verify/problem.h"

#define SIDE 256L
#define TILE 16 /* sample_simple's block: one thread per output, 16 x 16 outputs per block */

static void load_manifest(const char *sample, hb_manifest *m)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/candidates/%s/manifest.json", hb_test_build_dir(), sample);
    assert_int_equal(hb_manifest_load(path, m), HB_OK);
}

/* A cubin's bytes (NUL bytes and all); fails the test when unreadable. */
static char *read_whole(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (run make)", path);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    const long length = ftell(f);
    assert_true(length > 0);
    rewind(f);
    char *bytes = malloc((size_t)length);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, (size_t)length, f), (size_t)length);
    assert_int_equal(fclose(f), 0);
    *size = (size_t)length;
    return bytes;
}

/* hgemm_simple(A, B, B_col, C, int M, int N, int K, void *workspace):
 * pointers at 0, 8, 16, 24, the ints at 32, 36, 40, the workspace (NULL,
 * left as recorded) at 48. */
static void simple_kernel(hb_replay_kernel *k, long side)
{
    static const uint32_t offsets[8] = {0, 8, 16, 24, 32, 36, 40, 48};
    static const uint32_t sizes[8] = {8, 8, 8, 8, 4, 4, 4, 8};
    static const hb_replay_target pointers[4] = {HB_TARGET_A, HB_TARGET_B, HB_TARGET_B_COL, HB_TARGET_C};
    k->function = 0;
    k->grid[0] = k->grid[1] = (uint32_t)(side / TILE);
    k->grid[2] = 1;
    k->block[0] = k->block[1] = TILE;
    k->block[2] = 1;
    k->n_params = 8;
    memcpy(k->param_offset, offsets, sizeof offsets);
    memcpy(k->param_size, sizes, sizeof sizes);
    k->param_bytes = 56;
    const int dims[3] = {(int)side, (int)side, (int)side};
    memcpy(k->params + 32, dims, sizeof dims);
    k->n_relocs = 4;
    for (uint32_t i = 0; i < 4; i++)
        k->relocs[i] = (hb_replay_reloc){.at = offsets[i], .to = {.target = pointers[i], .offset = 0}};
}

/* Writes the replay to a fresh folder for `launcher` at side^3 on sm_`sm`. */
static void write_simple_replay(const hb_manifest *launcher, int sm, long side, char *folder, size_t size)
{
    hb_manifest simple;
    load_manifest("sample_simple", &simple);
    const hb_arch_file *cubin = hb_manifest_file_for(&simple, sm);
    const hb_arch_file *library = hb_manifest_file_for(launcher, sm);
    assert_non_null(cubin);
    assert_non_null(library);
    size_t n_bytes = 0;
    char *bytes = read_whole(cubin->path, &n_bytes);

    hb_replay_plan *plan = hb_replay_plan_new();
    assert_non_null(plan);
    plan->mnk[0] = plan->mnk[1] = plan->mnk[2] = side;
    plan->padded[0] = plan->padded[1] = plan->padded[2] = side;
    assert_int_equal(hb_sha256_file_hex(library->path, plan->library_sha256), HB_OK);
    plan->sm = sm;
    plan->calls_recorded = 4;
    plan->n_modules = 1;
    plan->n_functions = 1;
    snprintf(plan->functions[0].name, sizeof plan->functions[0].name, "%s", simple.entry);
    plan->n_streams = 1;
    plan->n_ops = 1;
    plan->ops[0].kind = HB_OP_KERNEL;
    simple_kernel(&plan->ops[0].u.kernel, side);

    hb_test_make_temp_dir("replay-simple", folder, size);
    const void *cubins[1] = {bytes};
    const size_t sizes[1] = {n_bytes};
    assert_int_equal(hb_replay_write(folder, plan, cubins, sizes), HB_OK);
    hb_replay_plan_free(plan);
    free(bytes);
}

/* The sm the CPU tests record for: one sample_simple and the launcher both
 * have a file for. */
#define CPU_TEST_SM 90

static void assert_refused(const hb_manifest *launcher, const char *folder, int sm, long side, const char *words)
{
    const hb_device_limits limits = {.sm = sm, .smem_per_block_optin = 227 << 10};
    hb_participant p;
    assert_int_equal(hb_replay_participant_create(launcher, folder, &limits, HB_ACC_FP32, side, side, side, &p),
                     HB_ERR_BAD_INPUT);
    assert_null(p.impl); /* destroyed on the way out */
    const char *text = hb_last_error();
    if (!strstr(text, folder) || !strstr(text, words))
        fail_msg("the refusal \"%s\" does not name the folder and \"%s\"", text, words);
}

/* Refused before any CUDA call, so this runs without a GPU. */
static void test_replay_refuses_another_origin(void **state)
{
    (void)state;
    hb_manifest launcher;
    load_manifest("sample_mma_launcher", &launcher);
    char folder[1024];
    write_simple_replay(&launcher, CPU_TEST_SM, SIDE, folder, sizeof folder);
    assert_refused(&launcher, folder, CPU_TEST_SM, 2 * SIDE, "recorded at 256 x 256 x 256, not at 512 x 512 x 512");
    assert_refused(&launcher, folder, 80, SIDE, "sm_90 GPU, and this one is sm_80");
    /* another launcher's library: the same plan from another build */
    hb_manifest other = launcher;
    hb_manifest simple;
    load_manifest("sample_simple", &simple);
    other.n_files = 1;
    other.files[0] = *hb_manifest_file_for(&simple, CPU_TEST_SM); /* a file whose SHA-256 is not the library's */
    other.files[0].sm = 0;
    assert_refused(&other, folder, CPU_TEST_SM, SIDE, "from another build");
    hb_test_remove_tree(folder);

    /* a refusal written as the record of why is not a replay */
    hb_replay_plan *refused = hb_replay_plan_new();
    assert_non_null(refused);
    refused->mnk[0] = refused->mnk[1] = refused->mnk[2] = SIDE;
    refused->sm = CPU_TEST_SM;
    hb_replay_refuse(refused, HB_REFUSE_HOST_READ, "call 1 copies C to the host");
    hb_test_make_temp_dir("replay-refused", folder, sizeof folder);
    assert_int_equal(hb_replay_write(folder, refused, NULL, NULL), HB_OK);
    hb_replay_plan_free(refused);
    assert_refused(&launcher, folder, CPU_TEST_SM, SIDE, "host-read");
    hb_test_remove_tree(folder);
}

/* sample_simple keeps nothing at module scope: the audit reads the replay's
 * one module and passes it; a folder that is no replay fails as unreadable. */
static void test_replay_module_state(void **state)
{
    (void)state;
    hb_manifest launcher;
    load_manifest("sample_mma_launcher", &launcher);
    char folder[1024];
    write_simple_replay(&launcher, CPU_TEST_SM, SIDE, folder, sizeof folder);
    hb_module_state record;
    hb_check_failure failure;
    memset(&failure, 0, sizeof failure);
    assert_int_equal(hb_check_replay_module_state(folder, &record, &failure), HB_OK);
    assert_int_equal(record.scanned, 1);
    assert_int_equal(record.device_malloc, 0);
    assert_true(record.global_bytes <= HB_MODULE_STATE_LIMIT);
    hb_test_remove_tree(folder);
    assert_int_equal(hb_check_replay_module_state(folder, &record, &failure), HB_ERR_BAD_INPUT);
}

/* The replay at 256^3 against the three cuBLAS-family baselines, as
 * test_gpu.c runs a cubin candidate: prepare, poison, launch, collect, and
 * the deviation check passes with every output finite. */
static void test_gpu_replay_matches_cublas(void **state)
{
    (void)state;
    REQUIRE_GPU();
    const hb_device_limits limits = hb_device_limits_of(hb_test_device());
    hb_manifest launcher;
    load_manifest("sample_mma_launcher", &launcher);
    char folder[1024];
    write_simple_replay(&launcher, limits.sm, SIDE, folder, sizeof folder);

    hb_participant storage[4], *parts[4];
    assert_int_equal(hb_replay_participant_create(&launcher, folder, &limits, HB_ACC_FP32, SIDE, SIDE, SIDE,
                                                  &storage[0]), HB_OK);
    assert_string_equal(storage[0].desc.algorithm, "replay:hgemm_simple");
    hb_baseline_context context = {.acc = HB_ACC_FP32, .m = SIDE, .n = SIDE, .k = SIDE,
                                   .workspace_bytes = HB_DEFAULT_WORKSPACE_BYTES, .device = hb_test_device(),
                                   .stream = hb_test_stream()};
    for (int i = 0; i < 3; i++)
        assert_int_equal(hb_baseline_create(&hb_baselines[i], &context, &storage[i + 1]), HB_OK);
    for (int i = 0; i < 4; i++)
        parts[i] = &storage[i];
    const hb_mnk mnk = {SIDE, SIDE, SIDE};
    hb_problem problem;
    assert_int_equal(hb_problem_create(&mnk, 4, 4242, hb_test_stream(), &problem), HB_OK);
    hb_rng rng;
    hb_rng_seed(&rng, 99);
    const hb_judge_setup setup = {HB_RULE_ULP_EXCESS, HB_ACC_FP32, "deviation"};
    hb_check_result check;
    assert_int_equal(hb_check_deviation(parts, 4, &problem, &setup, &rng, hb_test_stream(), &check), HB_OK);
    if (!check.passed)
        fail_msg("the replay of sample_simple at 256^3: %s", check.failure.reason);
    assert_int_equal(check.excess[0].non_finite, 0);
    assert_true(check.excess[0].max <= check.figures.tolerance);
    hb_problem_free(&problem);
    for (int i = 0; i < 4; i++)
        parts[i]->ops->destroy(parts[i]);
    hb_test_remove_tree(folder);
}

static const struct CMUnitTest gpu_replay_tests[] = {
    cmocka_unit_test(test_replay_refuses_another_origin),
    cmocka_unit_test(test_replay_module_state),
    cmocka_unit_test(test_gpu_replay_matches_cublas),
};

hb_test_list hb_gpu_replay_tests(void) { return HB_TEST_LIST(gpu_replay_tests); }
