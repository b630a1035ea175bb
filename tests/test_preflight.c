/* Tests of the checks before the GPU (bench/driver/preflight.c) and the
 * pieces they use: bad candidate inputs and unwritable outputs end the
 * driver binary with their own exit code (3, 4 or 7) and a message naming
 * the file, on a machine without a GPU as on one with; a bad manifest shared
 * by several --mnk is reported once.  CPU only: no case here reaches the GPU
 * (but one, which checks what it can either way). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/candidate/kernel_image.h"
#include "bench/candidate/launch_plan.h"
#include "bench/core/status.h"
#include "bench/core/writable.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- fixtures ------------------------------------------------------------------ */

typedef struct fixture {
    char dir[512];
    char out[700];     /* --out */
    char err[700];     /* the binary's stderr */
    char cubin[700];   /* a real cubin, copied in as k.cubin */
    int cubin_sm;      /* its architecture */
} fixture;

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    assert_non_null(in);
    FILE *out = fopen(to, "wb");
    assert_non_null(out);
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, in)) > 0)
        assert_int_equal(fwrite(buffer, 1, n, out), n);
    assert_int_equal(fclose(in), 0);
    assert_int_equal(fclose(out), 0);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static fixture *fixture_new(void)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    hb_test_make_temp_dir("hb-preflight", f->dir, sizeof f->dir);
    snprintf(f->out, sizeof f->out, "%s/out", f->dir);
    snprintf(f->err, sizeof f->err, "%s/stderr.txt", f->dir);
    snprintf(f->cubin, sizeof f->cubin, "%s/k.cubin", f->dir);
    /* Whichever architecture make built (CUDA_ARCHS). */
    static const int archs[] = {90, 80, 100, 120, 89, 86};
    char built[700];
    for (size_t i = 0; i < sizeof archs / sizeof archs[0] && !f->cubin_sm; i++) {
        snprintf(built, sizeof built, "%s/candidates/sample_simple/hgemm_simple.sm_%d.cubin", hb_test_build_dir(),
                 archs[i]);
        if (access(built, R_OK) == 0)
            f->cubin_sm = archs[i];
    }
    if (!f->cubin_sm)
        fail_msg("no sample_simple cubin under %s/candidates/sample_simple: run make", hb_test_build_dir());
    copy_file(built, f->cubin);
    return f;
}

static void fixture_free(fixture *f)
{
    hb_test_remove_tree(f->dir);
    free(f);
}

/* A manifest at dir/name like sample_simple's; `cubin` and `grid` are JSON
 * values, `extra` more fields (", \"x\": 1") or "". */
static void write_manifest(const fixture *f, const char *name, const char *cubin, const char *grid, const char *extra)
{
    char path[800], text[2048];
    snprintf(path, sizeof path, "%s/%s", f->dir, name);
    snprintf(text, sizeof text,
             "{\"format\": \"hgemm-bench-candidate/1\", \"cubin\": %s, \"entry\": \"hgemm_simple\", \"grid\": %s, "
             "\"block\": [16, 16, 1], \"dynamic_smem_bytes\": 0, \"b_layout\": \"col\", \"accumulator\": \"fp32\"%s}\n",
             cubin, grid, extra);
    write_text(path, text);
}

#define GOOD_CUBIN "\"k.cubin\""
#define GOOD_GRID "[\"N/16\", \"M/16\", 1]"

static const char *bench_path(void)
{
    const char *bench = getenv("HB_BENCH");
    return bench && *bench ? bench : "build/hgemm-bench";
}

/* `hgemm-bench check --out OUT --no-progress ARGS`, stderr to f->err; the exit status. */
static int run_check(const fixture *f, const char *args)
{
    char command[4096];
    snprintf(command, sizeof command, "%s check --out '%s' --no-progress %s >'%s/stdout.txt' 2>'%s'", bench_path(),
             f->out, args, f->dir, f->err);
    int rc = system(command);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int count_occurrences(const char *path, const char *needle)
{
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    int count = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        count++;
    free(text);
    return count;
}

/* Runs check with `args` and expects exit `code` with `needle` in one error line. */
static void expect_exit(const fixture *f, const char *args, int code, const char *needle)
{
    int rc = run_check(f, args);
    char *err = hb_test_read_file(f->err);
    if (rc != code || !err || !strstr(err, needle))
        fail_msg("check %s: expected exit %d and '%s' on stderr, got exit %d:\n%s", args, code, needle, rc,
                 err ? err : "(no stderr)");
    free(err);
}

/* --- candidate inputs: exit 3 or 4, the GPU never opened ----------------------------- */

static void test_preflight_bad_manifests_exit_3(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char args[2048], path[800];
    static const struct {
        const char *name, *text, *needle;
    } cases[] = {
        {"not_json.json", "{\"format\": \"hgemm-bench-candidate/1\", \"entry\": ", "not valid JSON"},
        {"empty.json", "", "not valid JSON"},
        {"array.json", "[1, 2, 3]", "top level must be a JSON object"},
        {"unknown.json", NULL, "unknown field \"dynamic_smem\""},
        {"n_over_0.json", NULL, "N/0"},
        {"no_entry.json", "{\"format\": \"hgemm-bench-candidate/1\", \"cubin\": \"k.cubin\"}", "\"entry\""},
    };
    write_manifest(f, "unknown.json", GOOD_CUBIN, GOOD_GRID, ", \"dynamic_smem\": 0");
    write_manifest(f, "n_over_0.json", GOOD_CUBIN, "[\"N/0\", \"M/16\", 1]", "");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", f->dir, cases[i].name);
        if (cases[i].text)
            write_text(path, cases[i].text);
        snprintf(args, sizeof args, "--candidate '%s' --mnk 64,64,64", path);
        expect_exit(f, args, HB_ERR_BAD_INPUT, cases[i].name);
        expect_exit(f, args, HB_ERR_BAD_INPUT, cases[i].needle);
    }
    /* A manifest that is not there at all. */
    snprintf(args, sizeof args, "--candidate '%s/missing.json' --mnk 64,64,64", f->dir);
    expect_exit(f, args, HB_ERR_BAD_INPUT, "missing.json");
    fixture_free(f);
}

static void test_preflight_bad_cubins_exit_3(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char args[2048], path[800];
    snprintf(path, sizeof path, "%s/text.cubin", f->dir);
    write_text(path, "this is not a kernel\n");
    snprintf(path, sizeof path, "%s/empty.cubin", f->dir);
    write_text(path, "");
    snprintf(path, sizeof path, "%s/host.cubin", f->dir);
    copy_file("/bin/sh", path); /* an ELF file, for the host's machine */
    snprintf(path, sizeof path, "%s/folder.cubin", f->dir);
    assert_int_equal(mkdir(path, 0755), 0);
    static const struct {
        const char *cubin, *needle;
    } cases[] = {
        {"\"nowhere.cubin\"", "nowhere.cubin"},
        {"\"text.cubin\"", "text.cubin"},
        {"\"empty.cubin\"", "empty.cubin"},
        {"\"host.cubin\"", "not a CUDA cubin"},
        {"\"folder.cubin\"", "folder.cubin"},
        /* every architecture's file must be there, not only this GPU's */
        {"{\"sm_80\": \"k.cubin\", \"sm_90\": \"gone.sm_90.cubin\"}", "gone.sm_90.cubin"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_manifest(f, "m.json", cases[i].cubin, GOOD_GRID, "");
        snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 64,64,64", f->dir);
        expect_exit(f, args, HB_ERR_BAD_INPUT, cases[i].needle);
        expect_exit(f, args, HB_ERR_BAD_INPUT, "m.json"); /* the manifest that names it */
    }
    fixture_free(f);
}

static void test_preflight_symlinks_exit_3(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char args[2048], a[1100], b[1100], set[800];
    /* A manifest that is a loop of links. */
    snprintf(a, sizeof a, "%s/loop_a.json", f->dir);
    snprintf(b, sizeof b, "%s/loop_b.json", f->dir);
    assert_int_equal(symlink(b, a), 0);
    assert_int_equal(symlink(a, b), 0);
    snprintf(args, sizeof args, "--candidate '%s' --mnk 64,64,64", a);
    expect_exit(f, args, HB_ERR_BAD_INPUT, "loop_a.json");
    /* A cubin that is one. */
    snprintf(a, sizeof a, "%s/loop.cubin", f->dir);
    assert_int_equal(symlink(a, a), 0);
    write_manifest(f, "m.json", "\"loop.cubin\"", GOOD_GRID, "");
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 64,64,64", f->dir);
    expect_exit(f, args, HB_ERR_BAD_INPUT, "loop.cubin");
    /* In a set: a configuration's manifest that is a loop, or a link to
     * nothing, is an error, not a reason to fall back on generic.json. */
    snprintf(set, sizeof set, "%s/set", f->dir);
    assert_int_equal(mkdir(set, 0755), 0);
    snprintf(a, sizeof a, "%s/64_64_64.json", set);
    assert_int_equal(symlink(a, a), 0);
    snprintf(a, sizeof a, "%s/128_128_128.json", set);
    assert_int_equal(symlink("/nonexistent/manifest.json", a), 0);
    snprintf(a, sizeof a, "%s/m.json", f->dir);
    snprintf(b, sizeof b, "%s/generic.json", set);
    copy_file(a, b);
    snprintf(args, sizeof args, "--candidate '%s' --mnk 64,64,64", set);
    expect_exit(f, args, HB_ERR_BAD_INPUT, "64_64_64.json");
    snprintf(args, sizeof args, "--candidate '%s' --mnk 128,128,128", set);
    expect_exit(f, args, HB_ERR_BAD_INPUT, "a symbolic link to nothing");
    fixture_free(f);
}

/* What the manifest asks for at a size: the candidate cannot run it (exit 4). */
static void test_preflight_sizes_exit_4(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char args[2048];
    write_manifest(f, "m.json", GOOD_CUBIN, GOOD_GRID, ", \"padding\": {\"m\": 128}, \"pad_inputs\": false");
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 100,64,64", f->dir);
    expect_exit(f, args, HB_ERR_UNSUPPORTED, "multiple of 128");
    write_manifest(f, "m.json", GOOD_CUBIN, "[\"N/16\", \"M\", 1]", ""); /* grid y = M > 65535 */
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 70000,64,64", f->dir);
    expect_exit(f, args, HB_ERR_UNSUPPORTED, "exceeds 65535");
    write_manifest(f, "m.json", GOOD_CUBIN, GOOD_GRID, ", \"workspace_bytes\": \"M*N*K*1024\"");
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 65536,65536,65536", f->dir);
    expect_exit(f, args, HB_ERR_UNSUPPORTED, "exceeds");
    write_manifest(f, "m.json", GOOD_CUBIN, GOOD_GRID, "");
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 64,64,64 --acc fp16", f->dir);
    expect_exit(f, args, HB_ERR_UNSUPPORTED, "accumulator class");
    /* A set with no manifest for the configuration. */
    snprintf(args, sizeof args, "mkdir '%s/emptyset'", f->dir);
    assert_int_equal(system(args), 0);
    snprintf(args, sizeof args, "--candidate '%s/emptyset' --mnk 64,64,64", f->dir);
    expect_exit(f, args, HB_ERR_UNSUPPORTED, "no manifest for 64,64,64");
    fixture_free(f);
}

static json_t *load_verdict(const char *path)
{
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root)
        fail_msg("%s: %s", path, error.text);
    return root;
}

/* One bad manifest, three configurations: one message, three verdicts in a
 * verdict file, and the GPU untouched (env.json's gpu is null). */
static void test_preflight_reports_a_bad_manifest_once(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char args[2048], path[800];
    write_manifest(f, "m.json", GOOD_CUBIN, "[\"N/0\", \"M/16\", 1]", "");
    snprintf(path, sizeof path, "%s/verdict.json", f->dir);
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 64,64,64 --mnk 128,128,128 --mnk 256,256,256 "
             "--verdict '%s'", f->dir, path);
    expect_exit(f, args, HB_ERR_BAD_INPUT, "m.json");
    assert_int_equal(count_occurrences(f->err, "hgemm-bench: error:"), 1);
    assert_int_equal(count_occurrences(f->err, "N/0"), 1);
    json_t *v = load_verdict(path);
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "bad-input");
    assert_int_equal(json_integer_value(json_object_get(v, "exit_code")), HB_ERR_BAD_INPUT);
    json_t *configs = json_object_get(v, "configs");
    assert_int_equal(json_array_size(configs), 3);
    for (size_t i = 0; i < 3; i++) {
        json_t *c = json_array_get(configs, i);
        assert_string_equal(json_string_value(json_object_get(c, "verdict")), "bad-input");
        assert_non_null(strstr(json_string_value(json_object_get(c, "reason")), "N/0"));
        assert_non_null(strstr(json_string_value(json_object_get(c, "manifest")), "m.json"));
    }
    json_decref(v);
    char run_dir[700], env[800];
    hb_test_find_run_dir(f->out, run_dir, sizeof run_dir);
    snprintf(env, sizeof env, "%s/env.json", run_dir);
    json_t *e = load_verdict(env);
    assert_true(json_is_null(json_object_get(e, "gpu")));
    json_decref(e);
    snprintf(path, sizeof path, "%s/summary.csv", run_dir);
    assert_int_equal(hb_test_count_lines(path), 1 + 3); /* header and a candidate row per configuration */
    fixture_free(f);
}

/* A set whose manifests fail differently: each configuration its own
 * verdict, each message once; one configuration fine: its problem is still
 * named before the GPU is touched, and (with a GPU) the fine one runs. */
static void test_preflight_set_keeps_per_configuration_verdicts(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char args[2048], path[800], set[800];
    snprintf(set, sizeof set, "%s/set", f->dir);
    assert_int_equal(mkdir(set, 0755), 0);
    write_manifest(f, "set/64_64_64.json", "\"../k.cubin\"", "[\"N/0\", \"M/16\", 1]", "");
    write_manifest(f, "set/128_128_128.json", "\"../missing.cubin\"", GOOD_GRID, "");
    snprintf(path, sizeof path, "%s/verdict.json", f->dir);
    snprintf(args, sizeof args, "--candidate '%s' --mnk 64,64,64 --mnk 128,128,128 --mnk 96,96,96 "
             "--mnk 64,64,64 --verdict '%s'", set, path);
    expect_exit(f, args, HB_ERR_BAD_INPUT, "64_64_64.json");
    assert_int_equal(count_occurrences(f->err, "hgemm-bench: error:"), 3);
    json_t *v = load_verdict(path);
    json_t *configs = json_object_get(v, "configs");
    assert_int_equal(json_array_size(configs), 4);
    const char *expected[4] = {"bad-input", "bad-input", "unsupported", "bad-input"};
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(configs, i), "verdict")), expected[i]);
    assert_non_null(strstr(json_string_value(json_object_get(json_array_get(configs, 1), "reason")), "missing.cubin"));
    json_decref(v);

    /* Now 256^3 has a fine manifest: the bad 64^3 is named before the GPU. */
    write_manifest(f, "set/256_256_256.json", "\"../k.cubin\"", GOOD_GRID, "");
    remove(path);
    snprintf(args, sizeof args, "--candidate '%s' --mnk 64,64,64 --mnk 256,256,256 --verdict '%s'", set, path);
    int rc = run_check(f, args);
    char *err = hb_test_read_file(f->err);
    assert_non_null(err);
    const char *named = strstr(err, "N/0");
    assert_non_null(named);
    if (!hb_test_gpu_ready()) {
        assert_int_equal(rc, HB_ERR_CUDA);
        const char *no_gpu = strstr(err, "GPU");
        assert_non_null(no_gpu);
        assert_true(named < no_gpu); /* reported before the GPU was tried */
    } else if (hb_test_device()->sm == f->cubin_sm) { /* the copied cubin is for this GPU */
        assert_int_equal(rc, HB_ERR_BAD_INPUT);
        v = load_verdict(path);
        configs = json_object_get(v, "configs");
        assert_string_equal(json_string_value(json_object_get(json_array_get(configs, 0), "verdict")), "bad-input");
        assert_string_equal(json_string_value(json_object_get(json_array_get(configs, 1), "verdict")), "pass");
        json_decref(v);
    }
    free(err);
    fixture_free(f);
}

/* --- launcher manifests: the same refusals, for libraries ------------------------------- */

/* A launcher manifest at dir/name: `library` a JSON value, `extra` more fields or "". */
static void write_launcher_manifest(const fixture *f, const char *name, const char *library, const char *extra)
{
    char path[800], text[2048];
    snprintf(path, sizeof path, "%s/%s", f->dir, name);
    snprintf(text, sizeof text,
             "{\"format\": \"hgemm-bench-candidate/1\", \"kind\": \"launcher\", \"library\": %s, \"b_layout\": \"col\", "
             "\"accumulator\": \"fp32\"%s}\n",
             library, extra);
    write_text(path, text);
}

/* The fixture launcher (tests/data/launchers/fixture_launcher.c, built by make) as dir/l.so. */
static void copy_fixture_launcher(const fixture *f)
{
    char from[700], to[800];
    snprintf(from, sizeof from, "%s/tests/data/launchers/fixture_launcher.so", hb_test_build_dir());
    if (access(from, R_OK) != 0)
        fail_msg("no %s: run make test (it builds tests/data/launchers/)", from);
    snprintf(to, sizeof to, "%s/l.so", f->dir);
    copy_file(from, to);
}

static void test_preflight_launcher_manifests(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    copy_fixture_launcher(f);
    char args[2048], path[800];
    snprintf(path, sizeof path, "%s/text.so", f->dir);
    write_text(path, "not a library\n");
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 100,64,64", f->dir);
    static const struct {
        const char *library, *extra, *needle;
        int code;
    } cases[] = {
        /* exit 3: a file that is not there or not a library, for any architecture listed */
        {"\"nowhere.so\"", "", "nowhere.so", HB_ERR_BAD_INPUT},
        {"\"text.so\"", "", "is not a shared library (ELF)", HB_ERR_BAD_INPUT},
        {"\"k.cubin\"", "", "is a cubin, not a shared library", HB_ERR_BAD_INPUT},
        {"{\"sm_80\": \"l.so\", \"sm_90\": \"gone.sm_90.so\"}", "", "gone.sm_90.so", HB_ERR_BAD_INPUT},
        /* exit 3: the other kind's fields */
        {"\"l.so\"", ", \"grid\": [1, 1, 1]", "\"grid\" is not a field of a launcher manifest", HB_ERR_BAD_INPUT},
        {"\"l.so\"", ", \"dynamic_smem_bytes\": 0", "dynamic_smem_bytes", HB_ERR_BAD_INPUT},
        {"\"l.so\"", ", \"accumulator_\": 1", "unknown field \"accumulator_\"", HB_ERR_BAD_INPUT},
        /* exit 4: what it asks for at this size (the message names the candidate) */
        {"\"l.so\"", ", \"padding\": {\"m\": 128}, \"pad_inputs\": false", "multiple of 128", HB_ERR_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_launcher_manifest(f, "m.json", cases[i].library, cases[i].extra);
        expect_exit(f, args, cases[i].code, cases[i].needle);
        if (cases[i].code == HB_ERR_BAD_INPUT)
            expect_exit(f, args, cases[i].code, "m.json");
    }
    write_launcher_manifest(f, "m.json", "\"l.so\"", "");
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 64,64,64 --acc fp16", f->dir);
    expect_exit(f, args, HB_ERR_UNSUPPORTED, "accumulator class");
    /* A cubin manifest that names a library. */
    write_manifest(f, "m.json", GOOD_CUBIN, GOOD_GRID, ", \"library\": \"l.so\"");
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 64,64,64", f->dir);
    expect_exit(f, args, HB_ERR_BAD_INPUT, "\"library\" is not a field of a cubin manifest");

    /* A good one passes the checks: without a GPU the run then stops at the
     * device (exit 5); with one, the child loads and calls it, and the
     * fixture's answer at M=64 (9, no message) is the candidate's failure. */
    write_launcher_manifest(f, "m.json", "\"l.so\"", "");
    if (!hb_test_gpu_ready())
        expect_exit(f, args, HB_ERR_CUDA, "no usable CUDA GPU");
    else
        expect_exit(f, args, HB_ERR_CANDIDATE_FAULT, "returned 9: (no message)");
    fixture_free(f);
}

/* --- outputs: exit 7 before anything is created --------------------------------------- */

static void expect_output_error(fixture *f, const char *extra, const char *needle)
{
    char args[2048];
    write_manifest(f, "m.json", GOOD_CUBIN, GOOD_GRID, "");
    snprintf(args, sizeof args, "--candidate '%s/m.json' --mnk 64,64,64 %s", f->dir, extra);
    expect_exit(f, args, HB_ERR_IO, needle);
}

static void test_preflight_unwritable_outputs_exit_7(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char extra[1600], path[800];
    /* --out where no folder can be made, even by root. */
    expect_output_error(f, "--out /proc/hb-preflight-out", "/proc/hb-preflight-out");
    snprintf(path, sizeof path, "%s/a_file", f->dir);
    write_text(path, "x");
    snprintf(extra, sizeof extra, "--out '%s/a_file/results'", f->dir);
    expect_output_error(f, extra, "a_file");
    /* --verdict in a folder that does not exist, in one where no file can be
     * created, or naming a folder. */
    snprintf(extra, sizeof extra, "--verdict '%s/no/such/folder/v.json'", f->dir);
    expect_output_error(f, extra, "no/such/folder");
    expect_output_error(f, "--verdict /proc/self/hb-verdict.json", "/proc/self/hb-verdict.json");
    snprintf(extra, sizeof extra, "--verdict '%s'", f->dir);
    expect_output_error(f, extra, "a folder");
    if (geteuid() != 0) { /* root writes into a read-only folder anyway */
        snprintf(path, sizeof path, "%s/read_only", f->dir);
        assert_int_equal(mkdir(path, 0555), 0);
        snprintf(extra, sizeof extra, "--verdict '%s/v.json'", path);
        expect_output_error(f, extra, "read_only");
    }
    /* Nothing was created: no results folder, no run folder. */
    struct stat st;
    assert_int_equal(stat(f->out, &st), -1);
    fixture_free(f);
}

/* An existing verdict file keeps its contents when the run stops before it
 * starts, and the probes leave nothing beside it. */
static void test_preflight_keeps_existing_verdict_file(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char extra[1600], path[800], listing[1200];
    snprintf(path, sizeof path, "%s/keep/v.json", f->dir);
    snprintf(extra, sizeof extra, "mkdir '%s/keep'", f->dir);
    assert_int_equal(system(extra), 0);
    write_text(path, "{\"previous\": true}\n");
    snprintf(extra, sizeof extra, "--verdict '%s' --out /proc/hb-preflight-out", path);
    expect_output_error(f, extra, "/proc/hb-preflight-out");
    assert_true(hb_test_file_contains(path, "{\"previous\": true}"));
    snprintf(listing, sizeof listing, "test $(ls -A '%s/keep' | wc -l) -eq 1", f->dir);
    assert_int_equal(system(listing), 0);
    fixture_free(f);
}

/* --- the pieces ---------------------------------------------------------------------- */

static void test_kernel_image_formats(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char path[800];
    assert_int_equal(hb_kernel_image_check(f->cubin, "m.json"), HB_OK);
    snprintf(path, sizeof path, "%s/k.fatbin", f->dir);
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    const unsigned char fatbin[8] = {0x50, 0xed, 0x55, 0xba, 1, 0, 0x10, 0};
    assert_int_equal(fwrite(fatbin, 1, sizeof fatbin, out), sizeof fatbin);
    assert_int_equal(fclose(out), 0);
    assert_int_equal(hb_kernel_image_check(path, "m.json"), HB_OK);
    snprintf(path, sizeof path, "%s/k.ptx", f->dir);
    write_text(path, "//\n// Generated by NVIDIA NVVM Compiler\n//\n\n.version 8.5\n.target sm_90\n");
    assert_int_equal(hb_kernel_image_check(path, "m.json"), HB_OK);
    snprintf(path, sizeof path, "%s/k.txt", f->dir);
    write_text(path, "hello\n");
    assert_int_equal(hb_kernel_image_check(path, "m.json"), HB_ERR_BAD_INPUT);
    assert_int_equal(hb_kernel_image_check(f->dir, "m.json"), HB_ERR_BAD_INPUT);
    fixture_free(f);
}

static void test_writable_checks_leave_nothing(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    char path[800], listing[1200];
    snprintf(path, sizeof path, "%s/a/b/c", f->dir);
    assert_int_equal(hb_check_folder_creatable(path, "results folder"), HB_OK);
    snprintf(path, sizeof path, "%s/a", f->dir);
    struct stat st;
    assert_int_equal(stat(path, &st), -1); /* not created by the check */
    snprintf(path, sizeof path, "%s/v.json", f->dir);
    assert_int_equal(hb_check_file_writable(path, "verdict file"), HB_OK);
    assert_int_equal(hb_check_folder_creatable(f->dir, "results folder"), HB_OK);
    snprintf(listing, sizeof listing, "test $(ls -A '%s' | grep -c probe) -eq 0", f->dir);
    assert_int_equal(system(listing), 0);
    assert_int_equal(hb_check_folder_creatable("", "results folder"), HB_ERR_IO);
    assert_int_equal(hb_check_file_writable("", "verdict file"), HB_ERR_IO);
    assert_int_equal(hb_check_folder_creatable("relative-results-folder-never-made", "results folder"), HB_OK);
    fixture_free(f);
}

static void test_launch_plan(void **state)
{
    (void)state;
    hb_manifest m;
    memset(&m, 0, sizeof m);
    snprintf(m.name, sizeof m.name, "plan");
    char why[256];
    assert_int_equal(hb_dim_expr_parse("N/16", &m.grid[0], why, sizeof why), HB_OK);
    assert_int_equal(hb_dim_expr_parse("M/16", &m.grid[1], why, sizeof why), HB_OK);
    hb_dim_expr_literal(1, &m.grid[2]);
    hb_dim_expr_literal(0, &m.workspace_bytes);
    m.pad[0] = 32;
    m.pad[1] = m.pad[2] = 1;
    m.pad_inputs = 1;
    hb_launch_plan plan;
    assert_int_equal(hb_launch_plan_make(&m, HB_ACC_FP32, 100, 64, 8, &plan), HB_OK);
    assert_int_equal(plan.padded[0], 128);
    assert_int_equal(plan.needs_padding, 1);
    assert_int_equal(plan.grid[0], 4);
    assert_int_equal(plan.grid[1], 8);
    assert_int_equal(plan.grid[2], 1);
    assert_int_equal(plan.workspace_bytes, 0);
    assert_int_equal(hb_launch_plan_make(&m, HB_ACC_FP16, 100, 64, 8, &plan), HB_ERR_UNSUPPORTED);
    m.pad_inputs = 0;
    assert_int_equal(hb_launch_plan_make(&m, HB_ACC_FP32, 100, 64, 8, &plan), HB_ERR_UNSUPPORTED);
    assert_int_equal(hb_launch_plan_make(&m, HB_ACC_FP32, 128, 64, 8, &plan), HB_OK);
    assert_int_equal(plan.needs_padding, 0);
}

hb_test_list hb_preflight_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_preflight_bad_manifests_exit_3),
        cmocka_unit_test(test_preflight_bad_cubins_exit_3),
        cmocka_unit_test(test_preflight_symlinks_exit_3),
        cmocka_unit_test(test_preflight_sizes_exit_4),
        cmocka_unit_test(test_preflight_reports_a_bad_manifest_once),
        cmocka_unit_test(test_preflight_set_keeps_per_configuration_verdicts),
        cmocka_unit_test(test_preflight_launcher_manifests),
        cmocka_unit_test(test_preflight_unwritable_outputs_exit_7),
        cmocka_unit_test(test_preflight_keeps_existing_verdict_file),
        cmocka_unit_test(test_kernel_image_formats),
        cmocka_unit_test(test_writable_checks_leave_nothing),
        cmocka_unit_test(test_launch_plan),
    };
    return HB_TEST_LIST(tests);
}
