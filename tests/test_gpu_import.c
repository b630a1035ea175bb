/* Imported candidates on a GPU: the test files of tests/data/cuda_l2/
 * imported for this GPU's architecture (sm_90a on Hopper), then `check` on
 * the launcher forms and the cubin forms: every one that built must pass
 * the battery, the padded one included (the harness pads as CUDA-L2's
 * harness does), and the fp16 set under --acc fp16.  Skips without a GPU. */
#define _DEFAULT_SOURCE /* mkdtemp, unsetenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"

static int shell(const char *line)
{
    int rc = system(line);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static const char *bench(void)
{
    const char *b = getenv("HB_BENCH");
    return b ? b : "build/hgemm-bench";
}

/* Imports tests/data/cuda_l2/SET into DIR/SET for this GPU; the exit code. */
static int import_set(const char *dir, const char *set)
{
    char line[2048];
    snprintf(line, sizeof line,
             "%s import cuda-l2 --kernels tests/data/cuda_l2/%s --out %s/%s --cutlass tests/data/cuda_l2/fake_cutlass "
             "-j 4 >%s/%s.import.txt 2>&1",
             bench(), set, dir, set, dir, set);
    return shell(line);
}

/* `out` is made by hb_test_run_bench before its shell redirects the
 * command's stdout.txt there (the fault issue 23 reported). */
static int check(const char *candidate, const char *mnks, const char *extra, const char *out)
{
    char args[2048];
    snprintf(args, sizeof args, "--candidate %s %s --exact-reps 1 --exact-time-s 2 %s", candidate, mnks, extra);
    return hb_test_run_bench("check", args, out);
}

static void imported_test_files_pass_the_battery_in_both_forms(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char dir[] = "/tmp/hb_gpu_import_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char set[512], out[512];
    /* 32_32_32 does not compile: exit 3 with the others built (sm_90a on Hopper builds the wgmma one too) */
    assert_int_equal(import_set(dir, "h100_F32F16F16F32"), 3);
    snprintf(set, sizeof set, "%s/h100_F32F16F16F32", dir);
    snprintf(out, sizeof out, "%s/launchers", dir);
    const int hopper = hb_test_device()->sm == 90;
    char mnks[256];
    snprintf(mnks, sizeof mnks, "--mnk 128,128,64 --mnk 96,80,40 --mnk 64,64,128%s",
             hopper ? " --mnk 64,128,64" : "");
    assert_int_equal(check(set, mnks, "", out), 0);
    snprintf(set, sizeof set, "%s/h100_F32F16F16F32/cubin", dir);
    snprintf(out, sizeof out, "%s/cubins", dir);
    snprintf(mnks, sizeof mnks, "--mnk 128,128,64 --mnk 96,80,40%s", hopper ? " --mnk 64,128,64" : "");
    assert_int_equal(check(set, mnks, "", out), 0);
    assert_int_equal(import_set(dir, "a100_F16F16F16F16"), 0);
    snprintf(set, sizeof set, "%s/a100_F16F16F16F16", dir);
    snprintf(out, sizeof out, "%s/fp16", dir);
    assert_int_equal(check(set, "--mnk 64,64,64", "--acc fp16", out), 0);
    char line[600];
    snprintf(line, sizeof line, "rm -rf %s", dir);
    assert_int_equal(shell(line), 0);
}

hb_test_list hb_gpu_import_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(imported_test_files_pass_the_battery_in_both_forms),
    };
    return (hb_test_list){tests, sizeof tests / sizeof tests[0]};
}
