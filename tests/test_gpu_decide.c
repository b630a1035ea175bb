/* GPU tests of gate --decide (docs/gate.md, "A verdict in seconds"): an A/A
 * pair is not shown to differ, and the sample candidate against a threshold
 * far below its speed is decided above within the first looks, long before
 * the cap.  Each runs the driver binary; each skips without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* `gate ARGS` into a fresh folder; its exit status, and its verdict.json's first configuration in *config. */
static int gate(const char *args, char *out, size_t out_size, json_t **root, json_t **config)
{
    char full[1536], run_dir[1024], path[1200];
    hb_test_make_temp_dir("hb-decide", out, out_size);
    snprintf(full, sizeof full, "%s --autotune-cache %s/cache.tsv", args, out);
    int rc = hb_test_run_bench("gate", full, out);
    hb_test_find_run_dir(out, run_dir, sizeof run_dir);
    snprintf(path, sizeof path, "%s/verdict.json", run_dir);
    *root = hb_test_load_json(path);
    assert_non_null(*root);
    *config = json_array_get(json_object_get(*root, "configs"), 0);
    assert_non_null(*config);
    return rc;
}

static const char *text_of(json_t *object, const char *key)
{
    const char *text = json_string_value(json_object_get(object, key));
    return text ? text : "(missing)";
}

/* Two instances of cublas-nn at threshold 0 with alpha 0.001: a pass (or a
 * decision below) would happen at most 0.05 % of the time if the pair were
 * identical.  The window is short (0.3 s): two instances of one call can
 * differ by a few tenths of a percent offline (docs/validation.md), which a
 * long window would rightly decide. */
static void test_gpu_decide_aa_pair_is_undecided(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512];
    json_t *root, *config;
    int rc = gate("--aa cublas-nn --vs cublas-nn --min-speedup 0 --decide --decide-alpha 0.001 --mnk 64,64,64 "
                  "--warmup-s 0.2 --time-s 0.3", out, sizeof out, &root, &config);
    json_t *decision = json_object_get(config, "decision");
    printf("  A/A: exit %d, verdict %s, decision %s at round %lld\n", rc, text_of(config, "verdict"),
           text_of(decision, "state"), (long long)json_integer_value(json_object_get(decision, "rounds")));
    assert_int_equal(rc, 9);
    assert_string_equal(text_of(config, "verdict"), "undecided");
    assert_string_equal(text_of(config, "check"), "speedup");
    assert_string_equal(text_of(decision, "state"), "undecided");
    assert_string_equal(text_of(decision, "vs"), "cublas-nn");
    assert_true(json_integer_value(json_object_get(decision, "looks")) >= 1);
    /* the cap's look is over every round the window kept */
    assert_int_equal(json_integer_value(json_object_get(decision, "rounds")),
                     json_integer_value(json_object_get(json_object_get(config, "speedup"), "rounds")));
    assert_true(json_number_value(json_object_get(decision, "low")) < 0);
    assert_true(json_number_value(json_object_get(decision, "high")) > 0);
    assert_non_null(strstr(text_of(root, "candidate"), "aa:cublas-nn"));
    json_decref(root);
    hb_test_remove_tree(out);
}

/* The sample is faster than cuBLAS at 64^3 (+34 % over torch on an H200);
 * against -50 % over cublas-max it is decided above at an early look,
 * seconds before the 10 s cap. */
static void test_gpu_decide_sample_decided_above_quickly(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], args[1200];
    json_t *root, *config;
    snprintf(args, sizeof args, "--candidate %s/candidates/sample_mma --vs cublas-max --min-speedup -0.5 --decide "
             "--mnk 64,64,64 --warmup-s 0.2 --time-s 10", hb_test_build_dir());
    int rc = gate(args, out, sizeof out, &root, &config);
    json_t *decision = json_object_get(config, "decision");
    double seconds = json_number_value(json_object_get(decision, "seconds"));
    long long rounds = json_integer_value(json_object_get(decision, "rounds"));
    printf("  sample vs -50%%: exit %d, %s at round %lld (look %lld, %.3f s)\n", rc, text_of(decision, "state"), rounds,
           (long long)json_integer_value(json_object_get(decision, "look")), seconds);
    assert_int_equal(rc, 0);
    assert_string_equal(text_of(config, "verdict"), "pass");
    assert_string_equal(text_of(decision, "state"), "above");
    assert_true(json_number_value(json_object_get(decision, "low")) > -0.5);
    assert_true(seconds < 5);         /* far from the cap */
    assert_true(rounds < 100000);     /* a few looks, not the window's tens of thousands of rounds */
    assert_int_equal(json_integer_value(json_object_get(json_object_get(config, "speedup"), "rounds")), rounds);
    json_decref(root);
    hb_test_remove_tree(out);
}

static const struct CMUnitTest gpu_decide_tests[] = {
    cmocka_unit_test(test_gpu_decide_aa_pair_is_undecided),
    cmocka_unit_test(test_gpu_decide_sample_decided_above_quickly),
};

hb_test_list hb_gpu_decide_tests(void) { return HB_TEST_LIST(gpu_decide_tests); }
