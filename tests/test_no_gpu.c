/* No usable GPU (bench/gpu/no_gpu_reason.h): each case the runtime's one
 * answer hides (no driver at all, the toolkit's stub, a driver too old, no
 * GPU, ...) told apart from the facts, fed here for every case; and on this
 * machine, when it has no NVIDIA driver, what run, check, gate, sweep and
 * import say and leave behind. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/status.h"
#include "bench/gpu/no_gpu_reason.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024

static void path_in(char *out, const char *folder, const char *name)
{
    if ((size_t)snprintf(out, PATH, "%s/%s", folder, name) >= PATH)
        fail_msg("path too long: %s/%s", folder, name);
}

/* --- the reasons, from the facts ---------------------------------------------------------------- */

/* A driver's library loaded, the runtime CUDA 13.0's, nothing else known. */
static hb_no_gpu_facts loaded_driver(cudaError_t count_error)
{
    hb_no_gpu_facts f;
    memset(&f, 0, sizeof f);
    f.count_error = count_error;
    f.driver_loaded = 1;
    f.runtime_version = 13000;
    snprintf(f.driver_path, sizeof f.driver_path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
    return f;
}

static void expect_reason(const hb_no_gpu_facts *f, const char *in_fact, const char *in_advice)
{
    hb_no_gpu_reason r;
    hb_no_gpu_explain(f, &r);
    if (!strstr(r.fact, in_fact))
        fail_msg("the reason \"%s\" does not say \"%s\"", r.fact, in_fact);
    if (!strstr(r.advice, in_advice))
        fail_msg("the advice \"%s\" does not say \"%s\"", r.advice, in_advice);
    if (f->count_error == cudaErrorInsufficientDriver && !f->driver_loaded && strstr(r.fact, "insufficient"))
        fail_msg("no driver at all is not an insufficient one: %s", r.fact);
}

/* No libcuda.so.1: the runtime says "insufficient driver"; the reason says there is none. */
static void test_no_gpu_reason_without_a_driver_library(void **state)
{
    (void)state;
    hb_no_gpu_facts f;
    memset(&f, 0, sizeof f);
    f.count_error = cudaErrorInsufficientDriver;
    f.runtime_version = 13000;
    snprintf(f.load_error, sizeof f.load_error, "libcuda.so.1: cannot open shared object file: No such file or directory");
    expect_reason(&f, "no NVIDIA driver (libcuda.so.1, the driver's library, is not found)",
                  "install the NVIDIA driver (one for CUDA 13.0 or newer)");
    hb_no_gpu_reason r;
    hb_no_gpu_explain(&f, &r);
    assert_null(strstr(r.fact, "too old"));
    assert_null(strstr(r.advice, "upgrade"));
    /* a library there but not loadable: the loader's own words */
    snprintf(f.load_error, sizeof f.load_error, "libcuda.so.1: wrong ELF class: ELFCLASS32");
    expect_reason(&f, "cannot be loaded: libcuda.so.1: wrong ELF class: ELFCLASS32", "install the NVIDIA driver");
}

static void test_no_gpu_reason_driver_too_old_names_both_versions(void **state)
{
    (void)state;
    hb_no_gpu_facts f = loaded_driver(cudaErrorInsufficientDriver);
    f.driver_version = 12020;
    f.init_known = 1;
    f.init_result = CUDA_SUCCESS; /* an old driver starts; it is the runtime that refuses it */
    expect_reason(&f, "is too old: it supports CUDA 12.2, and the harness runs on the CUDA 13.0 runtime",
                  "install a driver for CUDA 13.0 or newer");
    expect_reason(&f, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "");
    f.driver_version = 0;
    expect_reason(&f, "too old for the CUDA 13.0 runtime", "CUDA 13.0 or newer");
}

static void test_no_gpu_reason_driver_without_a_gpu(void **state)
{
    (void)state;
    hb_no_gpu_facts f = loaded_driver(cudaErrorNoDevice);
    f.driver_version = 13000;
    f.init_known = 1;
    f.init_result = CUDA_ERROR_NO_DEVICE;
    expect_reason(&f, "the NVIDIA driver (CUDA 13.0) is installed but sees no GPU", "nvidia-smi");
    /* cuInit's answer alone says it too, and so does a count of 0 */
    f.count_error = cudaErrorUnknown;
    expect_reason(&f, "sees no GPU", "nvidia-smi");
    f.count_error = cudaSuccess;
    f.init_result = CUDA_SUCCESS;
    expect_reason(&f, "sees no GPU", "nvidia-smi");
    /* CUDA_VISIBLE_DEVICES set: named, and the advice is about it */
    f.count_error = cudaErrorNoDevice;
    f.visible_set = 1;
    snprintf(f.visible_devices, sizeof f.visible_devices, "7");
    expect_reason(&f, "CUDA_VISIBLE_DEVICES='7'", "unset CUDA_VISIBLE_DEVICES");
}

static void test_no_gpu_reason_stub_and_broken_drivers(void **state)
{
    (void)state;
    hb_no_gpu_facts f = loaded_driver(cudaErrorStubLibrary);
    snprintf(f.driver_path, sizeof f.driver_path, "/usr/local/cuda/lib64/stubs/libcuda.so.1");
    expect_reason(&f, "(/usr/local/cuda/lib64/stubs/libcuda.so.1) is the CUDA toolkit's stub", "LD_LIBRARY_PATH");
    f = loaded_driver(cudaErrorInitializationError);
    f.init_known = 1;
    f.init_result = CUDA_ERROR_STUB_LIBRARY;
    expect_reason(&f, "stub", "stubs folder");

    f = loaded_driver(cudaErrorSystemDriverMismatch);
    expect_reason(&f, "kernel module and its library libcuda.so.1", "reboot");
    f = loaded_driver(cudaErrorUnknown);
    f.init_known = 1;
    f.init_result = CUDA_ERROR_SYSTEM_DRIVER_MISMATCH;
    expect_reason(&f, "different versions", "reboot");

    f = loaded_driver(cudaErrorDevicesUnavailable);
    expect_reason(&f, "busy or unavailable", "exclusive-process");
    f = loaded_driver(cudaErrorSystemNotReady);
    expect_reason(&f, "not ready", "fabric manager");
    f = loaded_driver(cudaErrorCompatNotSupportedOnDevice);
    expect_reason(&f, "forward-compatibility driver loaded (/usr/lib/x86_64-linux-gnu/libcuda.so.1)", "cuda-compat");
}

/* Anything else: the runtime's and the driver's own names, nothing guessed. */
static void test_no_gpu_reason_other_errors_are_named(void **state)
{
    (void)state;
    hb_no_gpu_facts f = loaded_driver(cudaErrorInitializationError);
    f.init_known = 1;
    f.init_result = CUDA_ERROR_NOT_INITIALIZED;
    snprintf(f.init_name, sizeof f.init_name, "CUDA_ERROR_NOT_INITIALIZED");
    expect_reason(&f, "cudaGetDeviceCount says cudaErrorInitializationError", "nvidia-smi");
    expect_reason(&f, "the driver's cuInit says CUDA_ERROR_NOT_INITIALIZED", "");
    f.init_name[0] = '\0';
    expect_reason(&f, "the driver's cuInit says CUresult 3", "");
}

/* --- this machine ---------------------------------------------------------------------------------- */

/* 1 when this machine has an NVIDIA driver (its library loads): the tests of
 * what a machine without one says then skip. */
static int driver_present(void)
{
    void *library = dlopen(HB_DRIVER_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    return library != NULL; /* left loaded: the process ends soon, and CUDA may hold it too */
}

static void test_no_gpu_probe_on_this_machine(void **state)
{
    (void)state;
    if (driver_present())
        skip();
    hb_no_gpu_facts f;
    hb_no_gpu_probe(cudaErrorInsufficientDriver, &f);
    assert_false(f.driver_loaded);
    assert_non_null(strstr(f.load_error, HB_DRIVER_LIBRARY));
    assert_true(f.runtime_version >= 12000);
    hb_no_gpu_reason r;
    hb_no_gpu_explain(&f, &r);
    assert_non_null(strstr(r.fact, "no NVIDIA driver"));
}

static const char *build_dir(void)
{
    const char *build = getenv("HB_BUILD");
    return build && *build ? build : "build";
}

/* Runs the driver with `words`, its stderr kept in root/err.txt (returned, malloc'd). */
static int bench(const char *root, const char *const *words, char **err)
{
    char err_path[PATH];
    path_in(err_path, root, "err.txt");
    int code = hb_test_run(hb_test_bench(), words, "/dev/null", err_path);
    *err = hb_test_read_file(err_path);
    assert_non_null(*err);
    remove(err_path);
    return code;
}

static void expect_no_driver_said(const char *err, const char *what)
{
    if (!strstr(err, "no usable CUDA GPU: this machine has no NVIDIA driver (libcuda.so.1") ||
        strstr(err, "insufficient"))
        fail_msg("%s without a driver said: %s", what, err);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* run, check and gate say there is no driver, exit 5, and write no results folder. */
static void test_no_gpu_run_check_gate_say_there_is_no_driver(void **state)
{
    (void)state;
    if (driver_present())
        skip();
    char root[PATH], candidate[PATH], out[PATH], *err = NULL;
    hb_test_make_temp_dir("hb-no-gpu", root, sizeof root);
    snprintf(candidate, sizeof candidate, "%s/candidates/sample_mma/manifest.json", build_dir());
    path_in(out, root, "results");
    const char *const commands[] = {"run", "check", "gate"};
    for (size_t i = 0; i < 3; i++) {
        const char *words[] = {commands[i], "--candidate", candidate, "--mnk", "64,64,64", "--out", out, NULL};
        assert_int_equal(bench(root, words, &err), HB_ERR_CUDA);
        expect_no_driver_said(err, commands[i]);
        free(err);
        assert_false(exists(out));
    }
    hb_test_remove_tree(root);
}

/* sweep asks for a GPU before it makes its folder: nothing is left, and the
 * same command, run again, says the same (not "already holds a sweep"). */
static void test_no_gpu_sweep_leaves_nothing_behind(void **state)
{
    (void)state;
    if (driver_present())
        skip();
    char root[PATH], candidate[PATH], out[PATH], *err = NULL;
    hb_test_make_temp_dir("hb-no-gpu", root, sizeof root);
    snprintf(candidate, sizeof candidate, "%s/candidates/sample_mma/manifest.json", build_dir());
    path_in(out, root, "sweep");
    const char *const devices[] = {"0", "0", "all"};
    for (size_t i = 0; i < 3; i++) {
        const char *words[] = {"sweep", "--candidate", candidate, "--mnk", "64,64,64", "--devices", devices[i],
                               "--out", out, "--no-progress", NULL};
        assert_int_equal(bench(root, words, &err), HB_ERR_CUDA);
        expect_no_driver_said(err, "sweep");
        assert_null(strstr(err, "already holds"));
        free(err);
        assert_false(exists(out));
    }
    /* an empty folder given as --out stays empty */
    hb_test_make_folder(out);
    const char *words[] = {"sweep", "--candidate", candidate, "--mnk", "64,64,64", "--out", out, "--no-progress", NULL};
    assert_int_equal(bench(root, words, &err), HB_ERR_CUDA);
    free(err);
    assert_int_equal(hb_test_count_entries(out), 0);
    hb_test_remove_tree(root);
}

/* import without --arch says why there is no GPU to take the target from. */
static void test_no_gpu_import_names_the_reason(void **state)
{
    (void)state;
    if (driver_present())
        skip();
    char root[PATH], kernels[PATH], out[PATH], *err = NULL;
    hb_test_make_temp_dir("hb-no-gpu", root, sizeof root);
    snprintf(kernels, sizeof kernels, "tests/data/cuda_l2/h100_F32F16F16F32");
    path_in(out, root, "set");
    const char *words[] = {"import", "cuda-l2", "--kernels", kernels, "--out", out, NULL};
    assert_int_equal(bench(root, words, &err), HB_ERR_USAGE);
    if (!strstr(err, "no GPU here to take the target from: this machine has no NVIDIA driver") ||
        !strstr(err, "--arch"))
        fail_msg("import without a driver said: %s", err);
    free(err);
    assert_false(exists(out));
    hb_test_remove_tree(root);
}

/* Whatever the machine: a sweep whose every configuration fails the checks
 * before the GPU needs no GPU, and records their verdicts. */
static void test_no_gpu_sweep_that_needs_no_gpu_asks_for_none(void **state)
{
    (void)state;
    char root[PATH], out[PATH], verdict[PATH], *err = NULL;
    hb_test_make_temp_dir("hb-no-gpu", root, sizeof root);
    path_in(out, root, "sweep");
    const char *words[] = {"sweep", "--candidate", "/nonexistent/manifest.json", "--mnk", "64,64,64",
                           "--devices", "1000", "--out", out, "--no-progress", NULL};
    assert_int_equal(bench(root, words, &err), HB_ERR_BAD_INPUT);
    assert_null(strstr(err, "no usable CUDA GPU"));
    assert_null(strstr(err, "--devices 1000"));
    free(err);
    path_in(verdict, out, "verdict.json");
    assert_true(exists(verdict));
    hb_test_remove_tree(root);
}

/* Whatever the machine: --devices naming no GPU it has is refused before the folder is made. */
static void test_no_gpu_sweep_on_gpus_not_there_leaves_nothing(void **state)
{
    (void)state;
    char root[PATH], candidate[PATH], out[PATH], *err = NULL;
    hb_test_make_temp_dir("hb-no-gpu", root, sizeof root);
    snprintf(candidate, sizeof candidate, "%s/candidates/sample_mma/manifest.json", build_dir());
    path_in(out, root, "sweep");
    const char *words[] = {"sweep", "--candidate", candidate, "--mnk", "64,64,64", "--devices", "1000,1001",
                           "--out", out, "--no-progress", NULL};
    assert_int_equal(bench(root, words, &err), HB_ERR_CUDA);
    if (!strstr(err, "no usable CUDA GPU") && !strstr(err, "--devices 1000,1001: this machine has"))
        fail_msg("sweep --devices 1000,1001 said: %s", err);
    free(err);
    assert_false(exists(out));
    hb_test_remove_tree(root);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_no_gpu_reason_without_a_driver_library),
    cmocka_unit_test(test_no_gpu_reason_driver_too_old_names_both_versions),
    cmocka_unit_test(test_no_gpu_reason_driver_without_a_gpu),
    cmocka_unit_test(test_no_gpu_reason_stub_and_broken_drivers),
    cmocka_unit_test(test_no_gpu_reason_other_errors_are_named),
    cmocka_unit_test(test_no_gpu_probe_on_this_machine),
    cmocka_unit_test(test_no_gpu_run_check_gate_say_there_is_no_driver),
    cmocka_unit_test(test_no_gpu_sweep_leaves_nothing_behind),
    cmocka_unit_test(test_no_gpu_import_names_the_reason),
    cmocka_unit_test(test_no_gpu_sweep_that_needs_no_gpu_asks_for_none),
    cmocka_unit_test(test_no_gpu_sweep_on_gpus_not_there_leaves_nothing),
};

hb_test_list hb_no_gpu_tests(void) { return (hb_test_list){tests, sizeof tests / sizeof tests[0]}; }
