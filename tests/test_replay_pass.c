/* The replay pass's decisions before any GPU work (bench/driver/replay_pass.h):
 * which candidates are recorded, and what --no-isolate records.  No GPU:
 * every case here decides before the device is opened. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/driver/replay_pass.h"
#include "bench/result/config_result.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static const char cubin_manifest[] =
    "{\"format\": \"hgemm-bench-candidate/1\", \"cubin\": {\"sm_90\": \"k.sm_90.cubin\"}, \"entry\": \"k\", "
    "\"grid\": [\"N/128\", \"M/128\", 1], \"block\": [256, 1, 1], \"b_layout\": \"row\", \"accumulator\": \"fp32\"}";
static const char launcher_manifest[] =
    "{\"format\": \"hgemm-bench-candidate/1\", \"kind\": \"launcher\", \"library\": {\"sm_90\": \"l.sm_90.so\"}, "
    "\"b_layout\": \"row\", \"accumulator\": \"fp32\"}";

static hb_run_options *new_options(const char *candidate)
{
    hb_run_options *o = calloc(1, sizeof *o);
    assert_non_null(o);
    o->candidate_path = candidate;
    o->isolate = 1;
    o->sandbox = 1;
    o->form = HB_FORM_CHOICE_REPLAY;
    o->n_configs = 1;
    o->configs[0] = (hb_mnk){256, 256, 256};
    return o;
}

static void write_manifest(const char *dir, const char *name, const char *text, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Only a launcher under --form replay, without --aa, is recorded; under --no-isolate it is refused instead. */
static void test_replay_decide(void **state)
{
    (void)state;
    hb_run_options *o = new_options("c.json");
    assert_int_equal(hb_replay_decide(o, HB_CANDIDATE_LAUNCHER), HB_REPLAY_RECORD);
    assert_int_equal(hb_replay_decide(o, HB_CANDIDATE_CUBIN), HB_REPLAY_SKIP);
    o->form = HB_FORM_CHOICE_LAUNCHER;
    assert_int_equal(hb_replay_decide(o, HB_CANDIDATE_LAUNCHER), HB_REPLAY_SKIP);
    o->form = HB_FORM_CHOICE_REPLAY;
    o->aa = "cublas-nn";
    assert_int_equal(hb_replay_decide(o, HB_CANDIDATE_LAUNCHER), HB_REPLAY_SKIP);
    o->aa = NULL;
    o->isolate = 0;
    assert_int_equal(hb_replay_decide(o, HB_CANDIDATE_LAUNCHER), HB_REPLAY_NO_ISOLATE);
    assert_int_equal(hb_replay_decide(o, HB_CANDIDATE_CUBIN), HB_REPLAY_SKIP);
    free(o);
}

/* hb_replay_prepare on a configuration: r->replay and the folder it hands the evaluation. */
static void prepare(const hb_run_options *o, hb_config_result *r, char *folder, size_t size)
{
    hb_config_result_init(r, &o->configs[0]);
    int cut = 1;
    snprintf(folder, size, "stale");
    assert_int_equal(hb_replay_prepare(o, NULL, NULL, 0, NULL, r, folder, size, &cut), HB_OK);
    assert_int_equal(cut, 0);
    assert_string_equal(folder, "");
}

/* A cubin and --form launcher record nothing (the evaluation sets the form);
 * --no-isolate records the refusal and the launcher's own form. */
static void test_replay_prepare_without_gpu(void **state)
{
    (void)state;
    char dir[512], cubin[700], launcher[700], folder[4096];
    hb_test_make_temp_dir("hb-replay-pass", dir, sizeof dir);
    write_manifest(dir, "cubin.json", cubin_manifest, cubin, sizeof cubin);
    write_manifest(dir, "launcher.json", launcher_manifest, launcher, sizeof launcher);
    static hb_config_result r;

    hb_run_options *o = new_options(cubin);
    prepare(o, &r, folder, sizeof folder);
    assert_int_equal(r.replay.recorded, 0);
    assert_int_equal(r.replay.form, HB_FORM_NONE);

    o->candidate_path = launcher;
    o->form = HB_FORM_CHOICE_LAUNCHER;
    prepare(o, &r, folder, sizeof folder);
    assert_int_equal(r.replay.recorded, 0);
    assert_int_equal(r.replay.form, HB_FORM_NONE);

    o->form = HB_FORM_CHOICE_REPLAY;
    o->isolate = 0;
    prepare(o, &r, folder, sizeof folder);
    assert_int_equal(r.replay.recorded, 1);
    assert_int_equal(r.replay.refusal, HB_REFUSE_UNSUPPORTED);
    assert_string_equal(r.replay.reason, HB_REPLAY_NO_ISOLATE_REASON);
    assert_int_equal(r.replay.form, HB_FORM_LAUNCHER);
    assert_string_equal(r.replay.folder, "");
    free(o);
    hb_test_remove_tree(dir);
}

/* Only a launcher timed as itself puts candidate host code where the baselines are timed: it alone takes the
 * baselines' clean-process reference; a cubin, a replay, --aa and an unreadable manifest do not. */
static void test_host_code_timed_only_for_a_launcher_as_itself(void **state)
{
    (void)state;
    char dir[512], cubin[700], launcher[700];
    hb_test_make_temp_dir("hb-host-code", dir, sizeof dir);
    write_manifest(dir, "c.json", cubin_manifest, cubin, sizeof cubin);
    write_manifest(dir, "l.json", launcher_manifest, launcher, sizeof launcher);
    hb_replay_record none = {0}, replayed = {.form = HB_FORM_REPLAY}, refused = {.form = HB_FORM_LAUNCHER};
    hb_run_options *o = new_options(cubin);
    assert_false(hb_host_code_timed(o, 0, &none));
    o->candidate_path = launcher;
    assert_false(hb_host_code_timed(o, 0, &replayed));
    assert_true(hb_host_code_timed(o, 0, &refused));
    o->form = HB_FORM_CHOICE_LAUNCHER;
    assert_true(hb_host_code_timed(o, 0, &none));
    o->aa = "cublas-nn";
    assert_false(hb_host_code_timed(o, 0, &none));
    o->aa = NULL;
    o->candidate_path = "/nonexistent/manifest.json";
    assert_false(hb_host_code_timed(o, 0, &none));
    free(o);
    hb_test_remove_tree(dir);
}

hb_test_list hb_replay_pass_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_decide),
        cmocka_unit_test(test_replay_prepare_without_gpu),
        cmocka_unit_test(test_host_code_timed_only_for_a_launcher_as_itself),
    };
    return HB_TEST_LIST(tests);
}
