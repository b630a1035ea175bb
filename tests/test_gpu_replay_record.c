/* GPU tests of the replay form's recording (bench/trace/launch_recorder.h,
 * bench/driver/replay_pass.h) through the real `hgemm-bench check`: the sample
 * launcher recorded at 256^3 is replayable, launches one kernel a call that
 * takes A, B, B_col and C as relocations, and its cubin is in the replay
 * folder; cuBLAS behind a launcher is refused as the library's.  Each test
 * skips, and is counted, without a GPU. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/candidate/replay_file.h"
#include "bench/result/replay_plan.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define CHECK_ARGS "--mnk 256,256,256 --autotune-cache none --no-autotune-search"

/* `check` of build/candidates/<candidate> at 256^3, its replay folder read into `plan`. */
static void record(const char *candidate, const char *prefix, char *out, size_t size, hb_replay_plan *plan,
                   char *folder, size_t folder_size)
{
    char args[2048], run_dir[1024];
    hb_test_make_temp_dir(prefix, out, size);
    snprintf(args, sizeof args, "--candidate %s/candidates/%s " CHECK_ARGS, hb_test_build_dir(), candidate);
    const int rc = hb_test_run_bench("check", args, out);
    hb_test_find_run_dir(out, run_dir, sizeof run_dir);
    snprintf(folder, folder_size, "%s/replay/256_256_256", run_dir);
    if (hb_replay_read(folder, plan) != HB_OK) {
        char path[1200];
        snprintf(path, sizeof path, "%s/stderr.txt", out);
        char *text = hb_test_read_file(path);
        fail_msg("check of %s exited %d with no readable %s/replay.json; stderr:\n%s", candidate, rc, folder,
                 text ? text : "(none)");
    }
}

/* The steady state's one kernel. */
static const hb_replay_kernel *only_kernel(const hb_replay_plan *plan)
{
    for (uint32_t i = 0; i < plan->n_ops; i++)
        if (plan->ops[i].kind == HB_OP_KERNEL)
            return &plan->ops[i].u.kernel;
    fail_msg("the steady state holds no kernel");
    return NULL;
}

static int has_reloc_to(const hb_replay_kernel *k, hb_replay_target target)
{
    for (uint32_t i = 0; i < k->n_relocs; i++)
        if (k->relocs[i].to.target == target && k->relocs[i].to.offset == 0)
            return 1;
    return 0;
}

static void test_gpu_replay_records_sample_launcher(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], folder[2048];
    hb_replay_plan *plan = hb_replay_plan_new();
    assert_non_null(plan);
    record("sample_mma_launcher", "hb-replay-sample", out, sizeof out, plan, folder, sizeof folder);
    if (plan->refusal != HB_REFUSE_NONE)
        fail_msg("the sample launcher is not replayable: %s: %s", hb_replay_refusal_name(plan->refusal), plan->reason);
    assert_int_equal(plan->mnk[0], 256);
    assert_int_equal(hb_replay_kernels_per_call(plan), 1);
    const hb_replay_kernel *k = only_kernel(plan);
    assert_true(has_reloc_to(k, HB_TARGET_A));
    assert_true(has_reloc_to(k, HB_TARGET_B));
    assert_true(has_reloc_to(k, HB_TARGET_B_COL));
    assert_true(has_reloc_to(k, HB_TARGET_C));
    assert_true(plan->n_modules >= 1);
    char path[2200];
    hb_replay_module_path(folder, &plan->modules[plan->functions[k->function].module], path, sizeof path);
    if (access(path, R_OK) != 0)
        fail_msg("the kernel's module %s is not in the replay folder", path);
    hb_replay_plan_free(plan);
    hb_test_remove_tree(out);
}

static void test_gpu_replay_refuses_cublas_wrapper(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], folder[2048];
    hb_replay_plan *plan = hb_replay_plan_new();
    assert_non_null(plan);
    record("broken_launchers/cublas_wrapper", "hb-replay-cublas", out, sizeof out, plan, folder, sizeof folder);
    if (plan->refusal != HB_REFUSE_LIBRARY)
        fail_msg("cublas_wrapper's replay: %s (%s), not library", hb_replay_refusal_name(plan->refusal), plan->reason);
    hb_replay_plan_free(plan);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_replay_record_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_replay_records_sample_launcher),
        cmocka_unit_test(test_gpu_replay_refuses_cublas_wrapper),
    };
    return HB_TEST_LIST(tests);
}
