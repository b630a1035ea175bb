/* --profile on a GPU (docs/gate.md, "Profile"): `gate --profile` with a
 * stand-in ncu (verdict.json's `profile`, the stdout lines, the exit status
 * unchanged), with HB_NCU naming nothing (a note, the run goes on, the same
 * exit status), the profiled process's calls without ncu, and `run --profile`
 * with the real ncu on sample_mma at 256³, and the real ncu beside a
 * launcher that prints a forged ncu table (candidates/broken_launchers/prints_verdict).
 * Each skips, counted, without a GPU; the last also without ncu or without
 * permission to read the GPU's counters. */
#define _XOPEN_SOURCE 700 /* setenv, realpath */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/ncu_csv.h"
#include "bench/core/toolkit_program.h"
#include "bench/driver/profile_pass.h"
#include "bench/result/kernel_profile.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static json_t *first_config(json_t *verdict)
{
    return json_array_get(json_object_get(verdict, "configs"), 0);
}

/* ncu found as the pass finds it, or a counted skip. */
static int ncu_ready(void)
{
    char ncu[4096];
    if (hb_toolkit_program_find("ncu", HB_NCU_ENV, ncu, sizeof ncu) == HB_PROGRAM_FOUND)
        return 1;
    printf("  no ncu on this GPU machine: skipped\n");
    hb_test_skip_no_gpu();
    return 0;
}

/* 1, and a counted skip, when the profile is missing because the driver keeps the counters from this user. */
static int counters_denied(const json_t *profile, const char *note)
{
    if (json_is_object(profile) || !note || !strstr(note, "ERR_NVGPUCTRPERM"))
        return 0;
    printf("  the GPU's counters are not permitted to this user: skipped\n");
    hb_test_skip_no_gpu();
    return 1;
}

/* `command` on sample_mma at `mnk` with --profile and short windows; its verdict file into *verdict. */
static int profile_run(const char *command, const char *mnk, const char *out, json_t **verdict)
{
    char args[2048], verdict_path[1024];
    snprintf(verdict_path, sizeof verdict_path, "%s/verdict-out.json", out);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/sample_mma --mnk %s --profile --warmup-s 0.2 --time-s 0.5 --timeout-s 60 "
             "--verdict %s%s",
             hb_test_build_dir(), mnk, verdict_path, strcmp(command, "gate") ? "" : " --min-speedup -1");
    int rc = hb_test_run_bench(command, args, out);
    *verdict = json_load_file(verdict_path, 0, NULL);
    return rc;
}

/* A stand-in ncu that prints the fixture: its kernels in verdict.json and on stdout, the gate's status its own. */
static void test_gpu_profile_with_a_stand_in_ncu(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], script[700], fixture[1024], line[4096];
    hb_test_make_temp_dir("hb-gpu-profile", out, sizeof out);
    if (!realpath("tests/data/ncu/raw_two_ranges.csv", fixture))
        fail_msg("cannot find the ncu fixture");
    snprintf(script, sizeof script, "%s/ncu", out);
    /* it writes the fixture where --log-file says, as ncu writes its report */
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\nreport=/dev/null\nwhile [ $# -gt 0 ]; do [ \"$1\" = --log-file ] && report=$2; shift; done\n"
               "cat '%s' > \"$report\"\n", fixture);
    assert_int_equal(fclose(f), 0);
    snprintf(line, sizeof line, "chmod +x %s", script);
    assert_int_equal(hb_test_shell(line), 0);
    setenv(HB_NCU_ENV, script, 1);
    json_t *v = NULL;
    int rc = profile_run("gate", "64,64,64", out, &v);
    unsetenv(HB_NCU_ENV);
    assert_non_null(v);
    assert_int_equal(rc, 0);
    json_t *profile = json_object_get(first_config(v), "profile");
    assert_true(json_is_object(profile));
    json_t *kernels = json_object_get(profile, "kernels");
    assert_int_equal(json_array_size(kernels), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(kernels, 0), "participant")), "candidate");
    assert_string_equal(json_string_value(json_object_get(json_array_get(kernels, 1), "participant")), "torch");
    assert_true(json_real_value(json_object_get(profile, "seconds")) > 0);
    snprintf(line, sizeof line, "%s/stdout.txt", out);
    assert_true(hb_test_file_contains(line, "  profile (ncu, "));
    assert_true(hb_test_file_contains(line, "hgemm_mma_pipelined"));
    json_decref(v);
    hb_test_remove_tree(out);
}

/* ncu missing: the note, profile null, and the run's status what it is without --profile. */
static void test_gpu_profile_without_ncu(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512];
    hb_test_make_temp_dir("hb-gpu-profile-none", out, sizeof out);
    setenv(HB_NCU_ENV, "/nonexistent/ncu", 1);
    json_t *v = NULL;
    int rc = profile_run("gate", "64,64,64", out, &v);
    unsetenv(HB_NCU_ENV);
    assert_non_null(v);
    assert_int_equal(rc, 0);
    assert_true(json_is_null(json_object_get(first_config(v), "profile")));
    assert_non_null(strstr(json_string_value(json_object_get(first_config(v), "profile_note")), "HB_NCU=/nonexistent/ncu"));
    json_decref(v);
    hb_test_remove_tree(out);
}

/* The profiled process without ncu: each participant named is called (NVTX is then a no-op), and a name that is
 * none of them is an error, never a silent profile of nothing. */
static void test_gpu_profile_calls_without_ncu(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], args[1024];
    hb_test_make_temp_dir("hb-gpu-profile-calls", out, sizeof out);
    snprintf(args, sizeof args, "--candidate %s/candidates/sample_mma --mnk 64,64,64 --no-isolate",
             hb_test_build_dir());
    setenv("HB_PROFILE_CALLS", "candidate,torch,cublas-nn", 1);
    int rc = hb_test_run_bench("check", args, out);
    setenv("HB_PROFILE_CALLS", "candidate,nobody", 1);
    int bad = hb_test_run_bench("check", args, out);
    unsetenv("HB_PROFILE_CALLS");
    assert_int_equal(rc, 0);
    assert_int_not_equal(bad, 0);
    char table[700];
    snprintf(table, sizeof table, "%s/stdout.txt", out);
    assert_true(hb_test_file_contains(table, "\"nobody\" is no participant of this configuration"));
    hb_test_remove_tree(out);
}

/* The real ncu: sample_mma's kernel and torch's, each with its registers and a tensor pipe that ran. */
static void test_gpu_profile_with_ncu(void **state)
{
    (void)state;
    REQUIRE_GPU();
    if (!ncu_ready())
        return;
    char out[512];
    hb_test_make_temp_dir("hb-gpu-profile-ncu", out, sizeof out);
    json_t *v = NULL;
    int rc = profile_run("run", "256,256,256", out, &v);
    assert_non_null(v);
    assert_int_equal(rc, 0);
    json_t *config = first_config(v), *profile = json_object_get(config, "profile");
    const char *note = json_string_value(json_object_get(config, "profile_note"));
    printf("  ncu profile: %s; note: %s\n", json_is_object(profile) ? "present" : "null", note);
    if (counters_denied(profile, note)) {
        json_decref(v);
        hb_test_remove_tree(out);
        return;
    }
    assert_true(json_is_object(profile));
    int candidate = 0, torch = 0;
    json_t *k;
    size_t i;
    json_array_foreach(json_object_get(profile, "kernels"), i, k) {
        const char *who = json_string_value(json_object_get(k, "participant"));
        printf("  %s: %s, %.0f registers, tensor %.1f%%, dram %.1f%%, %.0f ns\n", who,
               json_string_value(json_object_get(k, "kernel")),
               json_number_value(json_object_get(k, "registers_per_thread")),
               json_number_value(json_object_get(k, "tensor_pipe_pct")),
               json_number_value(json_object_get(k, "dram_throughput_pct")),
               json_number_value(json_object_get(k, "duration_ns")));
        assert_true(json_number_value(json_object_get(k, "registers_per_thread")) > 0);
        assert_true(json_number_value(json_object_get(k, "duration_ns")) > 0);
        candidate += !strcmp(who, "candidate") && strstr(json_string_value(json_object_get(k, "kernel")), "hgemm_mma");
        torch += !strcmp(who, "torch");
        if (!strcmp(who, "candidate"))
            assert_true(json_number_value(json_object_get(k, "tensor_pipe_pct")) > 0);
    }
    assert_int_equal(candidate, 1);
    assert_true(torch >= 1);
    json_decref(v);
    hb_test_remove_tree(out);
}

/* candidates/broken_launchers/prints_verdict prints a well-formed ncu table of
 * its own (a kernel "forged_kernel" in its hb-profile-candidate range, its
 * tensor pipe 100 % busy) on stdout in every profiled call.  ncu's report
 * comes from its own file (--log-file), so the profile holds the launcher's
 * real kernel; the forged table is in the pass's log, where the parser would
 * have taken it for the report, as the second half shows. */
static void test_gpu_profile_ignores_a_forged_table(void **state)
{
    (void)state;
    REQUIRE_GPU();
    if (!ncu_ready())
        return;
    char out[512], args[2048], verdict_path[1024], run_dir[1024], log[1400];
    hb_test_make_temp_dir("hb-gpu-profile-forged", out, sizeof out);
    snprintf(verdict_path, sizeof verdict_path, "%s/verdict-out.json", out);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/broken_launchers/prints_verdict --mnk 256,256,256 --profile --warmup-s 0.2 "
             "--time-s 0.5 --timeout-s 60 --min-speedup -1 --verdict %s",
             hb_test_build_dir(), verdict_path);
    assert_int_equal(hb_test_run_bench("gate", args, out), 0);
    json_t *v = json_load_file(verdict_path, 0, NULL);
    assert_non_null(v);
    json_t *config = first_config(v), *profile = json_object_get(config, "profile");
    const char *note = json_string_value(json_object_get(config, "profile_note"));
    if (counters_denied(profile, note)) {
        json_decref(v);
        hb_test_remove_tree(out);
        return;
    }
    assert_true(json_is_object(profile));
    json_t *kernel = json_array_get(json_object_get(profile, "kernels"), 0);
    const char *name = json_string_value(json_object_get(kernel, "kernel"));
    printf("  profiled candidate kernel: %s, tensor pipe %.2f%%\n", name,
           json_number_value(json_object_get(kernel, "tensor_pipe_pct")));
    assert_string_equal(json_string_value(json_object_get(kernel, "participant")), "candidate");
    assert_null(strstr(name, "forged"));
    assert_non_null(strstr(name, "simple_launcher_gemm"));
    /* the launcher did print its table, into the log; read as a report it would have fooled the parser */
    hb_test_find_run_dir(out, run_dir, sizeof run_dir);
    snprintf(log, sizeof log, "%s/profile/256_256_256.offline.candidate.log", run_dir);
    char *text = hb_test_read_file(log);
    assert_non_null(text);
    assert_non_null(strstr(text, "forged_kernel"));
    hb_profile_record forged;
    memset(&forged, 0, sizeof forged);
    assert_int_equal(hb_ncu_csv_parse(log, text, strlen(text), "candidate", &forged), HB_OK);
    assert_true(forged.count >= 1); /* the first table's kernel: the one a parser of ncu's stdout would have kept */
    assert_string_equal(forged.kernels[0].kernel, "forged_kernel");
    free(text);
    json_decref(v);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_profile_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_profile_with_a_stand_in_ncu),
        cmocka_unit_test(test_gpu_profile_without_ncu),
        cmocka_unit_test(test_gpu_profile_calls_without_ncu),
        cmocka_unit_test(test_gpu_profile_with_ncu),
        cmocka_unit_test(test_gpu_profile_ignores_a_forged_table),
    };
    return HB_TEST_LIST(tests);
}
