/* The CUDA-L2 importer (docs/importer.md): what it reads from a file's text,
 * the kernel signatures the launch recorder reads arguments with, and whole
 * imports of the small files in CUDA-L2's format under tests/data/cuda_l2/
 * (built with nvcc for sm_80 on the CPU: no GPU, no CUDA-L2 clone, a
 * stand-in CUTLASS folder).  tests/test_gpu_import.c runs what they build. */
#define _DEFAULT_SOURCE /* mkdtemp, unsetenv, usleep */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/core/input_file.h"
#include "bench/import/kernel_signature.h"
#include "bench/import/import_progress.h"
#include "bench/import/cuda_l2/l2_source.h"
#include "bench/import/launch_recording.h"
#include "tests/test_registry.h"

#define L2_DATA "tests/data/cuda_l2"
#define FAKE_CUTLASS L2_DATA "/fake_cutlass"

static void tile_sizes_follow_the_authors_rule(void **state)
{
    (void)state;
    long tile[3];
    hb_l2_tile_sizes("auto BM = Int<128>{};\n  auto BN = Int < 256 >{};\nauto BK=Int<32>{};\n", tile);
    assert_int_equal(tile[0], 128);
    assert_int_equal(tile[1], 256);
    assert_int_equal(tile[2], 32);
    /* the last line wins, and spaces inside the number's brackets are removed as there */
    hb_l2_tile_sizes("BM = Int<64>\nBN = Int<64>\nBK = Int<16>\nusing BM = Int<128>;\n", tile);
    assert_int_equal(tile[0], 128);
    /* one missing: no padding at all */
    hb_l2_tile_sizes("BM = Int<64>\nBN = Int<64>\n", tile);
    assert_int_equal(tile[0], 0);
    assert_int_equal(tile[2], 0);
}

static void scan_tells_the_kinds_apart(void **state)
{
    (void)state;
    static const struct {
        const char *body;
        hb_l2_kind kind;
    } cases[] = {
        {"k<<<g, b>>>(x);", HB_L2_ONE_KERNEL},
        {"k<<<g, b>>>(x); r<<<g, b>>>(y);", HB_L2_MULTI_KERNEL},
        {"// r<<<g, b>>>(y);\nk<<<g, b>>>(x);", HB_L2_ONE_KERNEL}, /* a comment is not a launch site */
        {"cutlass::launch_kernel_on_cluster(params, k);", HB_L2_CLUSTER},
        {"cudaLaunchCooperativeKernel(k, g, b, args);", HB_L2_COOPERATIVE},
        {"using Gemm = cutlass::gemm::device::GemmUniversalAdapter<K>; cudaLaunchKernelEx(c, k);", HB_L2_ADAPTER},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "%s\nvoid cuda_l2_h100_fp32(torch::Tensor a, torch::Tensor b, torch::Tensor b_col_major, "
                 "torch::Tensor c) {}\n",
                 cases[i].body);
        hb_l2_source s;
        assert_int_equal(hb_l2_source_scan(text, "test", &s), HB_OK);
        assert_int_equal(s.kind, cases[i].kind);
        assert_string_equal(s.entry, "cuda_l2_h100_fp32");
    }
}

static void scan_finds_hopper_features_outside_comments(void **state)
{
    (void)state;
    const char *entry = "void cuda_l2_a100_fp16(torch::Tensor a, torch::Tensor b, torch::Tensor b_col_major, "
                        "torch::Tensor c) {}\n";
    char text[512];
    hb_l2_source s;
    snprintf(text, sizeof text, "// wgmma would be nice\n%s", entry);
    assert_int_equal(hb_l2_source_scan(text, "test", &s), HB_OK);
    assert_string_equal(s.hopper, "");
    snprintf(text, sizeof text, "asm(\"wgmma.fence.sync.aligned;\"); using T = SM90_TMA_LOAD;\n%s", entry);
    assert_int_equal(hb_l2_source_scan(text, "test", &s), HB_OK);
    assert_non_null(strstr(s.hopper, "wgmma"));
    assert_non_null(strstr(s.hopper, "SM90"));
    assert_int_equal(hb_l2_source_scan("__global__ void k() {}\n", "x.cu", &s), HB_ERR_BAD_INPUT);
}

static void signature_gives_each_parameter_its_size(void **state)
{
    (void)state;
    hb_kernel_signature sig;
    assert_int_equal(hb_kernel_signature_parse("void k<Int<128>, Int<64> >(__half const*, __half const*, __half*, "
                                               "int, int, int)",
                                               &sig),
                     0);
    assert_int_equal(sig.count, 6);
    assert_true(sig.plain);
    assert_int_equal(sig.params[0].cls, HB_PARAM_POINTER);
    assert_int_equal(sig.params[5].size, 4);
    assert_int_equal(hb_kernel_signature_parse("void k(Params<int, 2>, float*, unsigned long)", &sig), 0);
    assert_int_equal(sig.count, 3);
    assert_false(sig.plain); /* a struct by value has no role */
    assert_int_equal(sig.params[2].size, 8);
    assert_int_equal(hb_kernel_signature_parse("void k()", &sig), 0);
    assert_int_equal(sig.count, 0);
    assert_int_equal(hb_kernel_signature_parse("plain_c_kernel", &sig), -1); /* extern "C": no types */
}

/* --- the cubin form's roles and B layout, from recordings (tests/data/recordings/) --- */

#define RECORDINGS "tests/data/recordings"

static void read_recording(const char *name, hb_cubin_form *form)
{
    hb_launch_summary summary;
    char path[256];
    snprintf(path, sizeof path, "%s/%s", RECORDINGS, name);
    assert_int_equal(hb_launch_recording_read(path, &summary, form), HB_OK);
}

static void expect_params(const hb_cubin_form *form, const char *const *roles, size_t n)
{
    assert_int_equal(form->n_params, n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(form->params[i], roles[i]) != 0)
            fail_msg("parameter %zu is \"%s\", expected \"%s\"", i, form->params[i], roles[i]);
}

/* 64_64_64's kernel takes three ints of 64: its values cannot say which is
 * M, N, K.  A second recording at distinct sizes names them (here the
 * kernel takes K, M, N: not the declared-order guess); one that launched
 * another kernel, or none, leaves the declared order with the reason. */
static void equal_sizes_are_named_by_a_second_recording(void **state)
{
    (void)state;
    hb_cubin_form form;
    read_recording("equal_sizes.json", &form);
    assert_true(form.possible);
    assert_true(hb_cubin_form_ambiguous(&form));
    expect_params(&form, (const char *const[]){"a", "b_col", "c", "m", "n", "k"}, 6); /* declared order, not m, m, m */
    assert_string_equal(form.b_layout, "col");
    hb_launch_roles_from_second(RECORDINGS "/equal_sizes_distinct.json", NULL, &form);
    expect_params(&form, (const char *const[]){"a", "b_col", "c", "k", "m", "n"}, 6);
    assert_false(hb_cubin_form_ambiguous(&form));
    assert_non_null(strstr(form.notes, "parameters 3, 4, 5 take M = N = K = 64"));
    assert_non_null(strstr(form.notes, "named by a second recording at M, N, K = 64, 128, 192"));

    read_recording("equal_sizes.json", &form);
    hb_launch_roles_from_second(RECORDINGS "/equal_sizes_other_kernel.json", NULL, &form);
    expect_params(&form, (const char *const[]){"a", "b_col", "c", "m", "n", "k"}, 6);
    assert_non_null(strstr(form.notes, "launched another kernel"));
    assert_non_null(strstr(form.notes, "the role is ambiguous, and safe at this configuration only"));

    read_recording("equal_sizes.json", &form);
    hb_launch_roles_from_second(NULL, "the launch recorder ended with signal 11", &form);
    assert_non_null(strstr(form.notes, "(the launch recorder ended with signal 11)"));
}

static void distinct_sizes_differ_and_keep_the_tiles(void **state)
{
    (void)state;
    long out[3];
    hb_distinct_sizes((const long[]){64, 64, 64}, out);
    assert_true(out[0] == 64 && out[1] == 128 && out[2] == 192);
    hb_distinct_sizes((const long[]){128, 64, 64}, out); /* 1,2,3 and 1,3,2 collide: 2,1,3 */
    assert_true(out[0] == 256 && out[1] == 64 && out[2] == 192);
    hb_distinct_sizes((const long[]){96, 80, 40}, out);
    assert_true(out[0] == 96 && out[1] == 160 && out[2] == 120);
}

/* 128_128_128's kernel gets the row-major B: the cubin form says b_layout
 * row (the manifest's check refused "b" under "col").  A kernel that gets
 * neither B has no cubin form, with the reason. */
static void cubin_form_b_layout_follows_the_b_the_kernel_gets(void **state)
{
    (void)state;
    hb_cubin_form form;
    read_recording("b_row.json", &form);
    assert_true(form.possible);
    assert_false(hb_cubin_form_ambiguous(&form));
    expect_params(&form, (const char *const[]){"a", "b", "c", "m", "n", "k"}, 6);
    assert_string_equal(form.b_layout, "row");
    assert_non_null(strstr(form.notes, "b_layout is row"));
    read_recording("no_b.json", &form);
    assert_false(form.possible);
    assert_string_equal(form.reason, "the kernel gets neither B buffer (b or b_col)");
}

/* --- whole imports (need nvcc, no GPU) ---------------------------------------------------- */

/* A stand-in cuobjdump at DIR/cuobjdump for the accumulator audit: prints an fp16
 * kernel's SASS (a real excerpt, tests/data/sass/), or fails. */
static void stand_in_cuobjdump(const char *dir, int fail)
{
    char tool[600], cwd[1024];
    snprintf(tool, sizeof tool, "%s/cuobjdump", dir);
    assert_non_null(getcwd(cwd, sizeof cwd));
    FILE *f = fopen(tool, "w");
    assert_non_null(f);
    if (fail)
        fprintf(f, "#!/bin/sh\nexit 1\n");
    else
        fprintf(f, "#!/bin/sh\ncat '%s/tests/data/sass/hmma_f16_launcher.sm_90a.txt'\n", cwd);
    fclose(f);
    assert_int_equal(chmod(tool, 0755), 0);
    setenv("HB_CUOBJDUMP", tool, 1);
}

static int have_nvcc(void)
{
    const char *home = getenv("CUDA_HOME");
    char path[1024];
    snprintf(path, sizeof path, "%s/bin/nvcc", home && *home ? home : "/usr/local/cuda");
    return access(path, X_OK) == 0;
}

/* Runs `hgemm-bench import cuda-l2 ARGS`, stdout and stderr into OUT.txt; the exit code. */
static int import(const char *args, const char *log)
{
    const char *bench = getenv("HB_BENCH");
    char line[4096];
    snprintf(line, sizeof line, "%s import cuda-l2 %s >%s 2>&1", bench ? bench : "build/hgemm-bench", args, log);
    int rc = system(line);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static char *read_text(const char *path)
{
    char *text = NULL;
    size_t size = 0;
    if (hb_input_read(path, NULL, (size_t)1 << 28, HB_ERR_IO, 1, &text, &size) != HB_OK)
        return NULL;
    return text;
}

static void expect_in_file(const char *path, const char *needle)
{
    char *text = read_text(path);
    if (!text || !strstr(text, needle))
        fail_msg("%s lacks \"%s\":\n%s", path, needle, text ? text : "(missing)");
    free(text);
}

static void expect_missing(const char *path)
{
    if (access(path, F_OK) == 0)
        fail_msg("%s should not exist", path);
}

static void import_builds_a_set_and_reports_every_file(void **state)
{
    (void)state;
    if (!have_nvcc())
        skip();
    char dir[] = "/tmp/hb_import_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[2048], log[256], path[512];
    snprintf(args, sizeof args, "--kernels %s/h100_F32F16F16F32 --out %s/set --arch sm_80 --cutlass %s -j 2", L2_DATA,
             dir, FAKE_CUTLASS);
    snprintf(log, sizeof log, "%s/first.txt", dir);
    stand_in_cuobjdump(dir, 0);
    /* one file fails to compile and one is refused for sm_80: listed, and the import goes on (exit 3) */
    assert_int_equal(import(args, log), 3);
    expect_in_file(log, "5 files: 3 built (0 from the cache), 2 of them with a cubin form; 1 failed; 1 skipped");
    snprintf(path, sizeof path, "%s/set/import.csv", dir);
    expect_in_file(path, "\"32\",\"32\",\"32\"");
    expect_in_file(path, "error: expected a \"\";\"\""); /* nvcc's first error line, quoted as CSV quotes */
    expect_in_file(path, ",\"failure_class\",\"toolkit_api\",\"nvcc\",\"mma_accumulators\",\"predicted_seconds\","
                         "\"peak_rss_mib\",\"front_end_seconds\",\"cicc_seconds\",\"ptxas_seconds\",\"host_compile_seconds\","
                         "\"other_seconds\",\"link_seconds\",\"record_seconds\",\"dominant_stage\"\n");
    expect_in_file(path, "\"compile-error\",\"\",\"Build cuda_"); /* 32_32_32's class, no API, the toolkit */
    expect_in_file(path, "uses Hopper-only features (wgmma");
    expect_in_file(path, "\"launcher\",\"2\",\"a call launches 2 kernels\"");
    /* the accumulator audit of each built file, and the fp32 set's fp16-only files named */
    expect_in_file(path, ",\"f16;hmma.f16=5\",\"");
    /* the plan: the width, the order, and each build's stages (nvcc --time) in the report and the history */
    expect_in_file(log, "import: 2 builds at once (-j)");
    expect_in_file(log, "import: 4 builds, costliest first (0 predicted by an earlier build of the file");
    expect_in_file(log, "import: build time by stage: front end ");
    expect_in_file(path, ",\"front_end\"\n");
    snprintf(path, sizeof path, "%s/set/.cache/build-history.jsonl", dir);
    expect_in_file(path, "\"file\":\"32_32_32\",\"kind\":\"one-kernel\"");
    expect_in_file(path, "\"stages\":{\"front_end\":");
    expect_in_file(log, "3 of 3 audited files claim fp32 but accumulate in fp16 only");
    /* the padded one: its cubin form launches at the padded sizes, parameters as recorded */
    snprintf(path, sizeof path, "%s/set/cubin/96_80_40.json", dir);
    expect_in_file(path, "\"grid\": [\n    3,\n    16,\n    1\n  ]");
    expect_in_file(path, "\"params\": [\n    \"a\",\n    \"b_col\",\n    \"c\",\n    \"m\",\n    \"n\",\n    \"k\"\n  ]");
    expect_in_file(path, "\"padding\": {\n    \"m\": 64,\n    \"n\": 32,\n    \"k\": 16");
    snprintf(path, sizeof path, "%s/set/96_80_40.json", dir);
    expect_in_file(path, "\"kind\": \"launcher\"");
    snprintf(path, sizeof path, "%s/set/96_80_40/record.json", dir);
    expect_in_file(path, "\"padded\": [\n      128,\n      96,\n      48");
    expect_in_file(path, "\"version\": \"4.2.1\"");
    expect_in_file(path, "\"nvcc_path\": \""); /* which toolkit built it */
    snprintf(path, sizeof path, "%s/set/cubin/64_64_128.json", dir);
    expect_missing(path);
    snprintf(path, sizeof path, "%s/set/64_64_128/record.json", dir);
    expect_in_file(path, "\"first_call_only\": \"cudaMalloc x1\""); /* the shim caches its workspace like torch */
    /* a second import of the same set builds nothing, and its audit comes from the cache entries */
    snprintf(log, sizeof log, "%s/second.txt", dir);
    stand_in_cuobjdump(dir, 1);
    assert_int_equal(import(args, log), 3);
    unsetenv("HB_CUOBJDUMP");
    expect_in_file(log, "3 built (3 from the cache)");
    expect_in_file(log, "3 of 3 audited files claim fp32 but accumulate in fp16 only");
    /* built again: each file predicted by its own earlier build, from the history */
    snprintf(args + strlen(args), sizeof args - strlen(args), " --rebuild");
    snprintf(log, sizeof log, "%s/third.txt", dir);
    assert_int_equal(import(args, log), 3);
    expect_in_file(log, "import: 4 builds, costliest first (4 predicted by an earlier build of the file");
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
}

static void import_names_the_three_places_for_cutlass(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_import_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[1024], log[256];
    snprintf(args, sizeof args, "--kernels %s/a100_F16F16F16F16 --out %s/set --arch sm_80", L2_DATA, dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    unsetenv("CUTLASS_DIR");
    assert_int_equal(import(args, log), 3);
    expect_in_file(log, "--cutlass DIR");
    expect_in_file(log, "CUTLASS_DIR");
    expect_in_file(log, "nvidia-cutlass");
    /* a folder that is not CUTLASS is named as such */
    snprintf(args, sizeof args, "--kernels %s/a100_F16F16F16F16 --out %s/set --arch sm_80 --cutlass %s", L2_DATA, dir,
             L2_DATA);
    assert_int_equal(import(args, log), 3);
    expect_in_file(log, "holds no include/cutlass/version.h");
    /* no class in the folder's name */
    snprintf(args, sizeof args, "--kernels %s --out %s/set --arch sm_80 --cutlass %s", L2_DATA, dir, FAKE_CUTLASS);
    assert_int_equal(import(args, log), 3);
    expect_in_file(log, "the folder's name gives CUDA-L2's accumulator class");
    /* an --nvcc that is not there is named */
    snprintf(args, sizeof args, "--kernels %s/a100_F16F16F16F16 --out %s/set --arch sm_80 --cutlass %s --nvcc %s/no-nvcc",
             L2_DATA, dir, FAKE_CUTLASS, dir);
    assert_int_equal(import(args, log), 3);
    expect_in_file(log, "/no-nvcc: no such file");
    /* a bad architecture is a usage error */
    snprintf(args, sizeof args, "--kernels %s/a100_F16F16F16F16 --out %s/set --arch volta", L2_DATA, dir);
    assert_int_equal(import(args, log), 2);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

/* An nvcc that runs but builds nothing fails the adapter, the first build:
 * the import stops with exit 3 (the toolkit given is the user's to fix),
 * naming --nvcc and the compiler's error, with no source location. */
static void import_names_an_nvcc_that_builds_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_import_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char nvcc[256], args[1024], log[256];
    snprintf(nvcc, sizeof nvcc, "%s/nvcc", dir);
    FILE *f = fopen(nvcc, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\ncase \"$*\" in *--version*) echo 'Cuda compilation tools, release 13.0'; exit 0;; esac\n"
               "echo 'fatal error: this toolkit is broken' >&2\nexit 1\n");
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(nvcc, 0755), 0);
    snprintf(args, sizeof args, "--kernels %s/a100_F16F16F16F16 --out %s/set --arch sm_80 --cutlass %s --nvcc %s",
             L2_DATA, dir, FAKE_CUTLASS, nvcc);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    assert_int_equal(import(args, log), 3);
    expect_in_file(log, "did not build for");
    expect_in_file(log, "with this nvcc (--nvcc) and CUTLASS (--cutlass): fatal error: this toolkit is broken");
    char *text = read_text(log);
    assert_non_null(text);
    assert_null(strstr(text, "build_job.c:")); /* not a fault of the harness */
    free(text);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

/* A missing --kernels folder is named as such before the GPU or the
 * target is asked for: no --arch, on a machine with or without a GPU. */
static void import_names_a_missing_folder_before_the_gpu(void **state)
{
    (void)state;
    char dir[] = "/tmp/hb_import_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[1024], log[256];
    snprintf(args, sizeof args, "--kernels %s/nonexistent --out %s/set", dir, dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    assert_int_equal(import(args, log), 3);
    snprintf(args, sizeof args, "--kernels %s/nonexistent: No such file or directory", dir);
    expect_in_file(log, args);
    char *text = read_text(log);
    assert_non_null(text);
    assert_null(strstr(text, "no GPU here"));
    free(text);
    expect_missing(args + strlen("--kernels ")); /* nothing made in its place */
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

/* The estimate of the time left: rounds of `width` builds of the median build time. */
static void progress_estimates_from_the_median_build(void **state)
{
    (void)state;
    const double seconds[] = {40, 52, 300}; /* one slow CUTLASS-3 file does not move the median */
    assert_true(hb_import_eta_s(seconds, 0, 10, 4) < 0); /* no build ended yet: no estimate */
    assert_true(hb_import_eta_s(seconds, 3, 0, 4) == 0);
    assert_true(hb_import_eta_s(seconds, 3, 188, 60) == 4 * 52.0); /* ceil(188 / 60) rounds */
    assert_true(hb_import_eta_s(seconds, 3, 5, 16) == 52.0);
    char line[256];
    hb_import_progress_text(seconds, 3, 200, 60, line, sizeof line);
    assert_string_equal(line, "import: 3 of 200 built, 60 running; median build 52 s; about 3 min left"); /* 4 rounds of 52 s */
    hb_import_progress_text(seconds, 0, 200, 16, line, sizeof line);
    assert_string_equal(line, "import: 0 of 200 built, 16 running; time left known after the first build");
}

/* SIGTERM during an import: the build running is ended, the report
 * (written before the first build, each file "pending") is finished with
 * every file not built marked "unfinished", and the exit is 128 + 15. */
static void interrupted_import_finishes_its_report(void **state)
{
    (void)state;
    if (!have_nvcc())
        skip();
    char dir[] = "/tmp/hb_import_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char set[600], csv[700], out[700], err[700];
    snprintf(set, sizeof set, "%s/set", dir);
    snprintf(csv, sizeof csv, "%s/import.csv", set);
    snprintf(out, sizeof out, "%s/stdout.txt", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    const char *bench = getenv("HB_BENCH") ? getenv("HB_BENCH") : "build/hgemm-bench";
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
            _exit(126);
        execl(bench, bench, "import", "cuda-l2", "--kernels", L2_DATA "/h100_F32F16F16F32", "--out", set, "--arch",
              "sm_80", "--cutlass", FAKE_CUTLASS, "-j", "1", "--allow-arch-mismatch", (char *)NULL);
        _exit(127);
    }
    /* the report appears before the first build (the adapter's, seconds of nvcc) */
    for (int i = 0; i < 600 && access(csv, F_OK) != 0; i++)
        usleep(50 * 1000);
    expect_in_file(csv, "\"pending\"");
    assert_int_equal(kill(pid, SIGTERM), 0);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 128 + SIGTERM);
    expect_in_file(csv, "\"unfinished\"");
    expect_in_file(csv, "the import was interrupted (signal 15)");
    char *text = read_text(csv);
    assert_non_null(text);
    assert_null(strstr(text, "\"pending\"")); /* every file has its final state */
    free(text);
    expect_in_file(out, "unfinished (interrupted)");
    snprintf(out, sizeof out, "rm -rf %s", dir);
    assert_int_equal(system(out), 0);
}

hb_test_list hb_import_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(tile_sizes_follow_the_authors_rule),
        cmocka_unit_test(scan_tells_the_kinds_apart),
        cmocka_unit_test(scan_finds_hopper_features_outside_comments),
        cmocka_unit_test(signature_gives_each_parameter_its_size),
        cmocka_unit_test(import_builds_a_set_and_reports_every_file),
        cmocka_unit_test(import_names_the_three_places_for_cutlass),
        cmocka_unit_test(import_names_an_nvcc_that_builds_nothing),
        cmocka_unit_test(import_names_a_missing_folder_before_the_gpu),
        cmocka_unit_test(equal_sizes_are_named_by_a_second_recording),
        cmocka_unit_test(distinct_sizes_differ_and_keep_the_tiles),
        cmocka_unit_test(cubin_form_b_layout_follows_the_b_the_kernel_gets),
        cmocka_unit_test(progress_estimates_from_the_median_build),
        cmocka_unit_test(interrupted_import_finishes_its_report),
    };
    return (hb_test_list){tests, sizeof tests / sizeof tests[0]};
}
