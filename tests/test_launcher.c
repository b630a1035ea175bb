/* Tests of the launcher kind without a GPU: launcher manifests
 * (bench/candidate/manifest.c: good ones, each bad or missing field, the
 * kinds' fields kept apart), a launcher's plan (bench/candidate/launch_plan.c),
 * the library checks before the GPU (bench/candidate/library_image.c), and
 * the loader (bench/candidate/launcher_library.c) on the fixture libraries of
 * tests/data/launchers/, which make builds as C11 and as C++11 (the header
 * check) and which need no GPU to load or call, and the verdict on the CUDA
 * runtime error a launcher leaves (bench/candidate/launcher_left_error.c). */
#define _POSIX_C_SOURCE 200809L

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/candidate/launch_plan.h"
#include "bench/candidate/launcher_left_error.h"
#include "bench/candidate/launcher_library.h"
#include "bench/candidate/library_image.h"
#include "bench/candidate/manifest.h"
#include "bench/core/diag.h"
#include "bench/core/heartbeat.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* Expected errors stay off the log (an earlier test file may have turned diagnostics on). */
static void quiet(void)
{
    hb_diag_set_quiet(getenv("HB_TEST_VERBOSE") == NULL);
}

/* --- manifests ------------------------------------------------------------------------ */

/* A launcher manifest: the fields below with `extra` (", \"x\": 1" or "")
 * appended, or with the field `drop` left out. */
static const char *launcher_manifest(const char *drop, const char *extra)
{
    static const char *const fields[][2] = {
        {"format", "\"hgemm-bench-candidate/1\""},
        {"kind", "\"launcher\""},
        {"library", "{\"sm_80\": \"l.sm_80.so\", \"sm_90\": \"sub/l.sm_90.so\"}"},
        {"b_layout", "\"row\""},
        {"accumulator", "\"fp32\""},
    };
    static char text[4096];
    size_t used = (size_t)snprintf(text, sizeof text, "{");
    const char *comma = "";
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (drop && !strcmp(drop, fields[i][0]))
            continue;
        used += (size_t)snprintf(text + used, sizeof text - used, "%s\"%s\": %s", comma, fields[i][0], fields[i][1]);
        comma = ", ";
    }
    snprintf(text + used, sizeof text - used, "%s}", extra);
    return text;
}

static hb_manifest *parse_ok(const char *text, const char *origin)
{
    hb_manifest *m = malloc(sizeof *m);
    assert_non_null(m);
    memset(m, 0x5A, sizeof *m);
    hb_status status = hb_manifest_parse(text, origin, m);
    if (status != HB_OK)
        fail_msg("manifest refused: %s\n%s", hb_last_error(), text);
    return m;
}

static void expect_bad(const char *text, const char *needle)
{
    hb_manifest *m = malloc(sizeof *m);
    assert_non_null(m);
    hb_status status = hb_manifest_parse(text, "cands/l/manifest.json", m);
    if (status != HB_ERR_BAD_INPUT || !strstr(hb_last_error(), needle) ||
        !strstr(hb_last_error(), "cands/l/manifest.json"))
        fail_msg("wanted bad input naming the file and '%s'; got status %d, '%s'\nmanifest: %s", needle, (int)status,
                 hb_last_error(), text);
    free(m);
}

static void test_launcher_manifest_good(void **state)
{
    (void)state;
    hb_manifest *m = parse_ok(launcher_manifest(NULL, ""), "/c/set/manifest.json");
    assert_int_equal(m->kind, HB_CANDIDATE_LAUNCHER);
    assert_string_equal(hb_candidate_kind_name(m->kind), "launcher");
    assert_int_equal(m->n_files, 2);
    assert_string_equal(hb_manifest_file_for(m, 80)->path, "/c/set/l.sm_80.so");
    assert_string_equal(hb_manifest_file_for(m, 90)->path, "/c/set/sub/l.sm_90.so");
    assert_null(hb_manifest_file_for(m, 100));
    char archs[64];
    hb_manifest_list_archs(m, archs, sizeof archs);
    assert_string_equal(archs, "sm_80, sm_90");
    /* No entry: the header's default, which also names it. */
    assert_string_equal(m->entry, "hgemm_launch");
    assert_string_equal(m->name, "hgemm_launch");
    /* Nothing of a launch: its host code chooses. */
    assert_int_equal(m->dynamic_smem_bytes, 0);
    assert_int_equal(m->block[0], 0);
    assert_int_equal(m->b_layout, HB_B_ROW);
    assert_int_equal(m->accumulator, HB_ACC_FP32);
    assert_int_equal(m->pad[0], 1);
    assert_int_equal(m->pad_inputs, 1);
    free(m);

    /* Every optional field, and one library for every architecture. */
    m = parse_ok(launcher_manifest("library", ", \"library\": \"any.so\", \"entry\": \"my_launch\", \"name\": \"mine\", "
                                              "\"padding\": {\"m\": 128, \"k\": 32}, \"pad_inputs\": false, "
                                              "\"workspace_bytes\": \"M*N*4\", \"comment\": \"x\""),
                 "d/m.json");
    assert_int_equal(m->n_files, 1);
    assert_string_equal(hb_manifest_file_for(m, 75)->path, "d/any.so");
    hb_manifest_list_archs(m, archs, sizeof archs);
    assert_string_equal(archs, "any");
    assert_string_equal(m->entry, "my_launch");
    assert_string_equal(m->name, "mine");
    assert_int_equal(m->pad[0], 128);
    assert_int_equal(m->pad[1], 1);
    assert_int_equal(m->pad[2], 32);
    assert_int_equal(m->pad_inputs, 0);
    uint64_t workspace = 0;
    assert_int_equal(hb_dim_expr_eval(&m->workspace_bytes, 3, 5, 7, UINT64_MAX, &workspace), HB_OK);
    assert_int_equal(workspace, 60);
    free(m);

    /* "kind": "cubin" is the default, spelled out. */
    m = parse_ok("{\"format\": \"hgemm-bench-candidate/1\", \"kind\": \"cubin\", \"cubin\": \"k.cubin\", \"entry\": \"k\", "
                 "\"grid\": [1, 1, 1], \"block\": [32, 1, 1], \"dynamic_smem_bytes\": 0, \"b_layout\": \"col\", "
                 "\"accumulator\": \"fp16\"}",
                 "m.json");
    assert_int_equal(m->kind, HB_CANDIDATE_CUBIN);
    assert_string_equal(hb_candidate_kind_name(m->kind), "cubin");
    assert_string_equal(m->files[0].path, "k.cubin");
    free(m);
}

static void test_launcher_manifest_bad_fields(void **state)
{
    (void)state;
    quiet();
    /* A cubin's launch is not a launcher's. */
    const char *cubin_fields[] = {", \"grid\": [1, 1, 1]", ", \"block\": [32, 1, 1]", ", \"dynamic_smem_bytes\": 0",
                                  ", \"cubin\": \"k.cubin\""};
    for (size_t i = 0; i < sizeof cubin_fields / sizeof cubin_fields[0]; i++) {
        expect_bad(launcher_manifest(NULL, cubin_fields[i]), "is not a field of a launcher manifest");
        expect_bad(launcher_manifest(NULL, cubin_fields[i]), "host code");
    }
    /* Required: format, library, b_layout, accumulator (entry is not). */
    const char *required[] = {"format", "library", "b_layout", "accumulator"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "missing required field \"%s\"", required[i]);
        expect_bad(launcher_manifest(required[i], ""), needle);
    }
    /* Bad values. */
    expect_bad(launcher_manifest("library", ", \"library\": 42"), "\"library\" must be a file name");
    expect_bad(launcher_manifest("library", ", \"library\": \"\""), "\"library\" must be a file name");
    expect_bad(launcher_manifest("library", ", \"library\": {}"), "l.sm_90.so");
    expect_bad(launcher_manifest("library", ", \"library\": [\"l.so\"]"), "library");
    expect_bad(launcher_manifest("library", ", \"library\": {\"gfx90a\": \"l.so\"}"), "gfx90a");
    expect_bad(launcher_manifest("library", ", \"library\": {\"sm_90\": \"\"}"), "\"library\".\"sm_90\"");
    expect_bad(launcher_manifest("library", ", \"library\": {\"sm_90\": \"a.so\", \"sm_90a\": \"b.so\"}"), "twice");
    expect_bad(launcher_manifest(NULL, ", \"entry\": \"\""), "\"entry\" must be a non-empty string");
    expect_bad(launcher_manifest(NULL, ", \"entry\": 3"), "entry");
    expect_bad(launcher_manifest("accumulator", ", \"accumulator\": \"fp64\""), "accumulator");
    expect_bad(launcher_manifest("b_layout", ", \"b_layout\": \"rows\""), "b_layout");
    expect_bad(launcher_manifest(NULL, ", \"padding\": {\"q\": 4}"), "padding");
    expect_bad(launcher_manifest(NULL, ", \"workspace_bytes\": \"M*\""), "workspace_bytes");
    expect_bad(launcher_manifest(NULL, ", \"stream\": \"own\""), "unknown field \"stream\"");
}

static void test_launcher_manifest_kind_errors(void **state)
{
    (void)state;
    quiet();
    expect_bad(launcher_manifest("kind", ", \"kind\": \"Launcher\""), "\"kind\" must be \"cubin\" (the default) or \"launcher\"");
    expect_bad(launcher_manifest("kind", ", \"kind\": \"kernel\""), "\"kind\"");
    expect_bad(launcher_manifest("kind", ", \"kind\": 1"), "\"kind\"");
    expect_bad(launcher_manifest("kind", ", \"kind\": null"), "\"kind\"");
    /* Without "kind" the manifest is a cubin's: "library" is then the other kind's field. */
    expect_bad(launcher_manifest("kind", ""), "\"library\" is not a field of a cubin manifest");
    expect_bad(launcher_manifest("kind", ""), "\"kind\": \"launcher\"");
    expect_bad(launcher_manifest("kind", ", \"kind\": \"cubin\""), "\"library\" is not a field of a cubin manifest");
    /* A cubin manifest still needs its own fields. */
    expect_bad("{\"format\": \"hgemm-bench-candidate/1\", \"cubin\": \"k.cubin\", \"entry\": \"k\", \"block\": [1, 1, 1], "
               "\"dynamic_smem_bytes\": 0, \"b_layout\": \"col\", \"accumulator\": \"fp32\"}",
               "missing required field \"grid\"");
    expect_bad("{\"format\": \"hgemm-bench-candidate/1\", \"cubin\": \"k.cubin\", \"grid\": [1, 1, 1], \"block\": [1, 1, 1], "
               "\"dynamic_smem_bytes\": 0, \"b_layout\": \"col\", \"accumulator\": \"fp32\"}",
               "missing required field \"entry\"");
}

/* --- the plan ----------------------------------------------------------------------------- */

static void test_launcher_plan(void **state)
{
    (void)state;
    quiet();
    hb_manifest *m = parse_ok(launcher_manifest(NULL, ", \"padding\": {\"m\": 128, \"n\": 64, \"k\": 32}, "
                                                      "\"workspace_bytes\": \"M*N*2\""),
                              "m.json");
    hb_launch_plan plan;
    assert_int_equal(hb_launch_plan_make(m, HB_ACC_FP32, 100, 64, 33, &plan), HB_OK);
    assert_int_equal(plan.padded[0], 128);
    assert_int_equal(plan.padded[1], 64);
    assert_int_equal(plan.padded[2], 64);
    assert_int_equal(plan.needs_padding, 1);
    assert_int_equal(plan.grid[0], 0); /* no grid: the launcher launches itself */
    assert_int_equal(plan.workspace_bytes, 128 * 64 * 2);
    assert_int_equal(hb_launch_plan_make(m, HB_ACC_FP16, 128, 64, 32, &plan), HB_ERR_UNSUPPORTED);
    assert_non_null(strstr(hb_last_error(), "accumulator class"));
    m->pad_inputs = 0;
    assert_int_equal(hb_launch_plan_make(m, HB_ACC_FP32, 100, 64, 32, &plan), HB_ERR_UNSUPPORTED);
    assert_non_null(strstr(hb_last_error(), "multiple of 128"));
    free(m);
}

/* --- the fixture libraries ------------------------------------------------------------------ */

/* $HB_BUILD/tests/data/launchers/<name> (make builds them for `make test`). */
static void fixture_path(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/tests/data/launchers/%s", hb_test_build_dir(), name);
    if (access(out, R_OK) != 0)
        fail_msg("no %s: run make test (it builds tests/data/launchers/)", out);
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* A copy of `from`'s ELF header with e_type and e_machine replaced (0: kept). */
static void write_patched_header(const char *from, const char *to, unsigned type, unsigned machine)
{
    FILE *f = fopen(from, "rb");
    assert_non_null(f);
    Elf64_Ehdr header;
    assert_int_equal(fread(&header, 1, sizeof header, f), sizeof header);
    fclose(f);
    if (type)
        header.e_type = (Elf64_Half)type;
    if (machine)
        header.e_machine = (Elf64_Half)machine;
    write_bytes(to, &header, sizeof header);
}

static void expect_library_refused(const char *path, const char *needle)
{
    hb_status status = hb_library_image_check(path, "cands/m.json");
    if (status != HB_ERR_BAD_INPUT || !strstr(hb_last_error(), needle) || !strstr(hb_last_error(), path) ||
        !strstr(hb_last_error(), "cands/m.json"))
        fail_msg("%s: wanted bad input naming it, the manifest and '%s'; got %d, '%s'", path, needle, (int)status,
                 hb_last_error());
}

static void test_launcher_library_image_check(void **state)
{
    (void)state;
    quiet();
    char good[1024], dir[512], path[1100];
    fixture_path("fixture_launcher.so", good, sizeof good);
    assert_int_equal(hb_library_image_check(good, "cands/m.json"), HB_OK);
    fixture_path("fixture_launcher.cxx.so", path, sizeof path);
    assert_int_equal(hb_library_image_check(path, "cands/m.json"), HB_OK);

    hb_test_make_temp_dir("hb-library-image", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/missing.so", dir);
    expect_library_refused(path, "was it built?");
    snprintf(path, sizeof path, "%s/empty.so", dir);
    write_bytes(path, "", 0);
    expect_library_refused(path, "is empty");
    snprintf(path, sizeof path, "%s/text.so", dir);
    write_bytes(path, "not a library\n", 14);
    expect_library_refused(path, "is not a shared library (ELF)");
    expect_library_refused(dir, "not a regular file");
    snprintf(path, sizeof path, "%s/cubin.so", dir);
    write_patched_header(good, path, 0, 190); /* EM_CUDA: what nvcc -cubin writes */
    expect_library_refused(path, "is a cubin, not a shared library");
    snprintf(path, sizeof path, "%s/exec.so", dir);
    write_patched_header(good, path, ET_EXEC, 0);
    expect_library_refused(path, "is an executable, not a shared library");
    snprintf(path, sizeof path, "%s/object.so", dir);
    write_patched_header(good, path, ET_REL, 0);
    expect_library_refused(path, "is an object file, not a shared library");
    snprintf(path, sizeof path, "%s/other_machine.so", dir);
    write_patched_header(good, path, 0, EM_RISCV);
    expect_library_refused(path, "built for ELF machine");
    hb_test_remove_tree(dir);
}

/* The fixture's manifest: kind launcher, `library` (a JSON value) and `extra` fields. */
static hb_manifest *fixture_manifest(const char *library, const char *extra)
{
    char text[4096];
    snprintf(text, sizeof text,
             "{\"format\": \"hgemm-bench-candidate/1\", \"kind\": \"launcher\", \"name\": \"fixture\", \"library\": %s, "
             "\"b_layout\": \"row\", \"accumulator\": \"fp32\"%s}",
             library, extra);
    char origin[1024];
    fixture_path("fixture_launcher.so", origin, sizeof origin);
    *strrchr(origin, '/') = '\0';
    strcat(origin, "/manifest.json"); /* libraries resolve against the fixtures' folder */
    return parse_ok(text, origin);
}

static void expect_open_fails(const hb_manifest *m, int sm, hb_status want, const char *needle)
{
    hb_launcher_library lib;
    hb_status status = hb_launcher_library_open(m, sm, &lib);
    if (status != want || !strstr(hb_last_error(), needle))
        fail_msg("wanted status %d and '%s'; got %d, '%s'", (int)want, needle, (int)status, hb_last_error());
    assert_null(lib.handle);
    assert_int_equal(hb_heartbeat_current_phase(), HB_PHASE_SETUP);
}

static void test_launcher_library_open_errors(void **state)
{
    (void)state;
    quiet();
    hb_manifest *m = fixture_manifest("{\"sm_80\": \"fixture_launcher.so\"}", "");
    expect_open_fails(m, 90, HB_ERR_UNSUPPORTED, "has launcher libraries for sm_80 only; this GPU is sm_90");
    free(m);
    m = fixture_manifest("\"abi_version_2.so\"", "");
    expect_open_fails(m, 90, HB_ERR_BAD_INPUT, "built for launcher ABI version 2; this harness speaks version 1");
    free(m);
    m = fixture_manifest("\"no_abi_version.so\"", "");
    expect_open_fails(m, 90, HB_ERR_BAD_INPUT, "does not export hgemm_launch_abi_version()");
    free(m);
    m = fixture_manifest("\"fixture_launcher.so\"", ", \"entry\": \"no_such_entry\"");
    expect_open_fails(m, 90, HB_ERR_BAD_INPUT, "entry \"no_such_entry\" not found");
    free(m);
    m = fixture_manifest("\"nowhere.so\"", "");
    expect_open_fails(m, 90, HB_ERR_BAD_INPUT, "nowhere.so");
    free(m);
    /* A file dlopen refuses: its words are in the message. */
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-launcher-open", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/text.so", dir);
    write_bytes(path, "not a library\n", 14);
    char library[800];
    snprintf(library, sizeof library, "\"%s\"", path);
    m = fixture_manifest(library, "");
    expect_open_fails(m, 90, HB_ERR_BAD_INPUT, "cannot load launcher library");
    expect_open_fails(m, 90, HB_ERR_BAD_INPUT, path);
    free(m);
    hb_test_remove_tree(dir);
}

static struct hgemm_launch_args fixture_args(long m, char *error, size_t error_size)
{
    struct hgemm_launch_args args;
    memset(&args, 0, sizeof args);
    args.abi_version = HGEMM_LAUNCH_ABI_VERSION;
    args.struct_size = sizeof args;
    args.m = m;
    args.n = 8;
    args.k = 16;
    args.error = error;
    args.error_size = error_size;
    memset(error, '?', error_size); /* the harness clears it before the call */
    return args;
}

/* Each of the fixture's answers as the harness's status and message. */
static void expect_calls(const hb_launcher_library *lib)
{
    char error[64];
    struct hgemm_launch_args args = fixture_args(1, error, sizeof error);
    assert_int_equal(hb_launcher_library_call(lib, &args), HB_OK);
    args = fixture_args(2, error, sizeof error);
    assert_int_equal(hb_launcher_library_call(lib, &args), HB_ERR_UNSUPPORTED);
    assert_non_null(strstr(hb_last_error(), "launcher fixture declines M=2, N=8, K=16: sizes below 64 are not mine"));
    args = fixture_args(3, error, sizeof error);
    assert_int_equal(hb_launcher_library_call(lib, &args), HB_ERR_CANDIDATE_FAULT);
    assert_non_null(strstr(hb_last_error(), "launcher fixture returned 7: line one line two")); /* one line */
    args = fixture_args(4, error, sizeof error);
    assert_int_equal(hb_launcher_library_call(lib, &args), HB_ERR_CANDIDATE_FAULT);
    char filled[80];
    snprintf(filled, sizeof filled, "returned 5: %.*s", (int)sizeof error - 1,
             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    assert_non_null(strstr(hb_last_error(), filled)); /* cut at the buffer's end, not past it */
    args = fixture_args(5, error, sizeof error);
    assert_int_equal(hb_launcher_library_call(lib, &args), HB_ERR_CANDIDATE_FAULT);
    assert_non_null(strstr(hb_last_error(), "returned 9: (no message)"));
}

static void test_launcher_library_calls(void **state)
{
    (void)state;
    quiet();
    const char *const files[] = {"\"fixture_launcher.so\"", "\"fixture_launcher.cxx.so\""}; /* C and C++ */
    for (size_t i = 0; i < 2; i++) {
        hb_manifest *m = fixture_manifest(files[i], "");
        hb_launcher_library lib;
        assert_int_equal(hb_launcher_library_open(m, 90, &lib), HB_OK);
        assert_int_equal(hb_heartbeat_current_phase(), HB_PHASE_SETUP); /* the loader went back to the phase it found */
        expect_calls(&lib);
        hb_launcher_library_close(&lib);
        assert_null(lib.handle);
        hb_launcher_library_close(&lib); /* closing twice is harmless */
        free(m);
    }
    /* Another entry than the default. */
    hb_manifest *m = fixture_manifest("{\"sm_90\": \"fixture_launcher.so\"}", ", \"entry\": \"other_entry\"");
    hb_launcher_library lib;
    assert_int_equal(hb_launcher_library_open(m, 90, &lib), HB_OK);
    char error[16];
    struct hgemm_launch_args args = fixture_args(3, error, sizeof error); /* other_entry returns OK whatever M */
    assert_int_equal(hb_launcher_library_call(&lib, &args), HB_OK);
    hb_launcher_library_close(&lib);
    free(m);
}

/* A manifest in the current folder naming its library without a folder: the
 * file there, not a library dlopen would search LD_LIBRARY_PATH for. */
static void test_launcher_library_relative_name(void **state)
{
    (void)state;
    char fixture[1024], cwd[4096];
    fixture_path("fixture_launcher.so", fixture, sizeof fixture);
    assert_non_null(getcwd(cwd, sizeof cwd));
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", fixture);
    *strrchr(dir, '/') = '\0';
    assert_int_equal(chdir(dir), 0);
    hb_manifest *m = parse_ok("{\"format\": \"hgemm-bench-candidate/1\", \"kind\": \"launcher\", \"library\": "
                              "\"fixture_launcher.so\", \"b_layout\": \"row\", \"accumulator\": \"fp32\"}",
                              "manifest.json");
    hb_launcher_library lib;
    hb_status status = hb_launcher_library_open(m, 90, &lib);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(status, HB_OK);
    hb_launcher_library_close(&lib);
    free(m);
}

/* The runtime's last error a launcher leaves (bench/candidate/launcher_left_error.c):
 * none is no fault; one is the candidate's (crashed, execution), its reason naming
 * the error, the launcher and where it was left; a device that fails to
 * synchronize once the library has loaded is the candidate's too, called
 * sticky. */
static void test_launcher_left_error_verdict(void **state)
{
    (void)state;
    quiet();
    assert_int_equal(hb_launcher_left_error_verdict("L", HB_LAUNCHER_AT_LOAD, cudaSuccess, cudaSuccess), HB_OK);
    assert_int_equal(hb_launcher_left_error_verdict("L", HB_LAUNCHER_AFTER_CALL, cudaSuccess, cudaSuccess), HB_OK);

    assert_int_equal(hb_launcher_left_error_verdict("L", HB_LAUNCHER_AT_LOAD, cudaErrorInvalidValue, cudaSuccess),
                     HB_ERR_CANDIDATE_FAULT);
    const char *why = hb_last_error();
    assert_non_null(strstr(why, "cudaErrorInvalidValue"));
    assert_non_null(strstr(why, "left by the launcher's constructor"));
    assert_non_null(strstr(why, "launcher L "));
    assert_null(strstr(why, "left set after its call"));
    assert_null(strstr(why, "sticky"));

    assert_int_equal(
        hb_launcher_left_error_verdict("L", HB_LAUNCHER_AFTER_CALL, cudaErrorInvalidDeviceFunction, cudaSuccess),
        HB_ERR_CANDIDATE_FAULT);
    why = hb_last_error();
    assert_non_null(strstr(why, "cudaErrorInvalidDeviceFunction"));
    assert_non_null(strstr(why, "left set after its call"));
    assert_null(strstr(why, "constructor"));

    /* Nothing left set, but the device fails: the constructors' work or a sticky error. */
    assert_int_equal(hb_launcher_left_error_verdict("L", HB_LAUNCHER_AT_LOAD, cudaSuccess, cudaErrorIllegalAddress),
                     HB_ERR_CANDIDATE_FAULT);
    why = hb_last_error();
    assert_non_null(strstr(why, "cudaErrorIllegalAddress"));
    assert_non_null(strstr(why, "left by the launcher's constructor"));
    assert_non_null(strstr(why, "sticky"));

    /* Both: the error left set first, the device's after it. */
    assert_int_equal(
        hb_launcher_left_error_verdict("L", HB_LAUNCHER_AT_LOAD, cudaErrorInvalidValue, cudaErrorIllegalAddress),
        HB_ERR_CANDIDATE_FAULT);
    why = hb_last_error();
    const char *left = strstr(why, "cudaErrorInvalidValue"), *device = strstr(why, "cudaErrorIllegalAddress");
    assert_true(left && device && left < device);
}

hb_test_list hb_launcher_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launcher_manifest_good),
        cmocka_unit_test(test_launcher_manifest_bad_fields),
        cmocka_unit_test(test_launcher_manifest_kind_errors),
        cmocka_unit_test(test_launcher_plan),
        cmocka_unit_test(test_launcher_library_image_check),
        cmocka_unit_test(test_launcher_library_open_errors),
        cmocka_unit_test(test_launcher_library_calls),
        cmocka_unit_test(test_launcher_library_relative_name),
        cmocka_unit_test(test_launcher_left_error_verdict),
    };
    return HB_TEST_LIST(tests);
}
