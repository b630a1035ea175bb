/* Tests of a cubin kernel whose parameters are not the contract's, named by
 * its manifest's "params" (docs/candidates.md, "Parameter order"):
 * candidates/sample_params, (a, b_col, c, M, N, K) under a mangled C++ name.
 * The built manifests first (no GPU needed); then, each skipping without a
 * GPU, the sample's `check`, and its wrong list (wrong_params.json) refused
 * at load with the verdict and exit code of a wrong parameter list.  The
 * load's other messages are test_gpu.c's, with its other load errors. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/manifest.h"
#include "bench/core/diag.h"
#include "bench/gpu/driver_api.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* build/candidates/sample_params/<file>, loaded. */
static void load_params_manifest(const char *file, hb_manifest *m)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/candidates/sample_params/%s", hb_test_build_dir(), file);
    if (hb_manifest_load(path, m) != HB_OK)
        fail_msg("%s: %s (run make)", path, hb_last_error());
}

/* make filled in the entry from the cubin (scripts/cubin_entry.sh): the
 * kernel's mangled name (_Z12hgemm_paramsPK6__halfS1_PS_iii with today's
 * cuda_fp16.h; the test holds only to its start, the rest is the compiler's),
 * and the lists as written. */
static void test_params_sample_manifests_built(void **state)
{
    (void)state;
    static hb_manifest m;
    load_params_manifest("manifest.json", &m);
    if (strncmp(m.entry, "_Z12hgemm_params", 16))
        fail_msg("entry %s is not hgemm_params's mangled name", m.entry);
    char entry[sizeof m.entry];
    snprintf(entry, sizeof entry, "%s", m.entry);
    char text[HB_KERNEL_PARAMS_TEXT];
    hb_kernel_params_format(&m.params, text, sizeof text);
    assert_string_equal(text, "(a, b_col, c, m, n, k)");
    load_params_manifest("wrong_params.json", &m);
    assert_string_equal(m.entry, entry);
    hb_kernel_params_format(&m.params, text, sizeof text);
    assert_string_equal(text, "(a, b_col, c, m, n)");
}

/* The load compares the kernel with its list only where the driver can tell
 * (cuFuncGetParamInfo, 12.4 and newer); elsewhere it launches as listed.
 * A driver of 12.4 or newer without it is a lookup fault (the entry point
 * asked at too old an ABI version: a CUDA 13 driver), not a skip. */
static int driver_checks_parameters(void)
{
    const hb_driver_api *api = NULL;
    int driver = 0;
    assert_int_equal(cudaDriverGetVersion(&driver), cudaSuccess);
    assert_int_equal(hb_driver_api_get(&api), HB_OK);
    if (driver >= HB_PARAM_INFO_ABI && !api->func_get_param_info)
        fail_msg("driver %d.%d has cuFuncGetParamInfo, but the lookup did not find it", driver / 1000,
                 driver % 1000 / 10);
    if (!api->func_get_param_info) {
        printf("  driver %d.%d, before 12.4: no cuFuncGetParamInfo, parameter lists are not checked\n",
               driver / 1000, driver % 1000 / 10);
        return 0;
    }
    return 1;
}

/* The lookup finds cuFuncGetParamInfo on every driver that has it. */
static void test_gpu_params_info_found_where_the_driver_has_it(void **state)
{
    (void)state;
    REQUIRE_GPU();
    if (!driver_checks_parameters())
        skip();
}

/* `check` of build/candidates/sample_params/<file> at `mnk` ("--mnk 64,64,64"),
 * into a new folder `out`; its exit code, and its summary.csv into `csv`. */
static int check_sample(const char *file, const char *mnk, char *out, size_t out_size, char *csv, size_t csv_size)
{
    char args[1024];
    hb_test_make_temp_dir("hb-params", out, out_size);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/sample_params/%s %s --autotune-cache none --no-autotune-search",
             hb_test_build_dir(), file, mnk);
    int rc = hb_test_run_bench("check", args, out);
    hb_test_summary_path(out, csv, csv_size);
    return rc;
}

/* `check` through the driver binary: both sizes pass, an odd one padded by
 * nothing (the kernel takes any size). */
static void test_gpu_params_sample_passes(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], csv[1200];
    int rc = check_sample("manifest.json", "--mnk 256,256,256 --mnk 257,129,65", out, sizeof out, csv, sizeof csv);
    if (rc != 0) {
        char path[700];
        snprintf(path, sizeof path, "%s/stderr.txt", out);
        char *text = hb_test_read_file(path);
        fail_msg("check of sample_params: exit %d; stderr:\n%s", rc, text ? text : "(none)");
    }
    const long ms[] = {256, 257};
    for (size_t i = 0; i < 2; i++) {
        char verdict[64];
        hb_test_csv_text(csv, "candidate", ms[i], "verdict", verdict, sizeof verdict);
        assert_string_equal(verdict, "pass");
    }
    hb_test_remove_tree(out);
}

/* wrong_params.json names five parameters for a kernel of six: refused when
 * the child loads the cubin, before any launch, as a wrong parameter list
 * always was: verdict bad-input, exit code 3, the reason naming the list. */
static void test_gpu_params_wrong_list_refused(void **state)
{
    (void)state;
    REQUIRE_GPU();
    if (!driver_checks_parameters())
        skip();
    char out[512], csv[1200];
    assert_int_equal(check_sample("wrong_params.json", "--mnk 64,64,64", out, sizeof out, csv, sizeof csv), 3);
    char verdict[64], reason[1024];
    hb_test_csv_text(csv, "candidate", 64, "verdict", verdict, sizeof verdict);
    assert_string_equal(verdict, "bad-input");
    hb_test_csv_text(csv, "candidate", 64, "reason", reason, sizeof reason);
    if (!strstr(reason, "takes 6 parameters; the manifest's params (a, b_col, c, m, n) name 5"))
        fail_msg("reason: %s", reason);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_params_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_sample_manifests_built),
        cmocka_unit_test(test_gpu_params_info_found_where_the_driver_has_it),
        cmocka_unit_test(test_gpu_params_sample_passes),
        cmocka_unit_test(test_gpu_params_wrong_list_refused),
    };
    return HB_TEST_LIST(tests);
}
