/* The output watch's verdict on one round (bench/measure/output_watch.h),
 * without a GPU: which count fails whom, with which status, check name and
 * reason.  The scan itself: tests/test_gpu_output_scan.c. */
#include <string.h>

#include "bench/core/diag.h"
#include "bench/measure/output_watch.h"
#include "tests/test_registry.h"

/* A candidate and two baselines: the judge reads names and roles only. */
typedef struct trio {
    hb_participant storage[3];
    hb_participant *parts[3];
} trio;

static void trio_init(trio *t)
{
    memset(t, 0, sizeof *t);
    static const char *const names[3] = {"candidate", "torch", "cublas-nn"};
    for (int i = 0; i < 3; i++) {
        strcpy(t->storage[i].name, names[i]);
        t->storage[i].is_candidate = i == 0;
        t->parts[i] = &t->storage[i];
    }
}

static void test_unwritten_reason_says_window_round_and_count(void **state)
{
    (void)state;
    char reason[256];
    hb_unwritten_reason(reason, sizeof reason, (hb_watch_round){1, 37}, 4096, 4096);
    assert_string_equal(reason, "a timed call (round 37 of the timed window) left 4096 of 4096 output elements "
                                "unwritten or non-finite (the poison 0xFFFF, NaN or Inf)");
    hb_unwritten_reason(reason, sizeof reason, (hb_watch_round){0, 3}, 17, 268435456);
    assert_string_equal(reason, "a warm-up call (round 3 of the warm-up) left 17 of 268435456 output elements "
                                "unwritten or non-finite (the poison 0xFFFF, NaN or Inf)");
}

static void test_watch_judge_clean_round_passes(void **state)
{
    (void)state;
    trio t;
    trio_init(&t);
    const uint64_t found[3] = {0, 0, 0};
    hb_check_failure failure = {"", ""};
    assert_int_equal(hb_output_watch_judge(t.parts, found, 3, 4096, (hb_watch_round){1, 1}, &failure), HB_OK);
    assert_string_equal(failure.check, "");
}

static void test_watch_judge_candidate_is_incorrect(void **state)
{
    (void)state;
    trio t;
    trio_init(&t);
    const uint64_t found[3] = {4096, 0, 0};
    hb_check_failure failure = {"", ""};
    assert_int_equal(hb_output_watch_judge(t.parts, found, 3, 4096, (hb_watch_round){1, 37}, &failure),
                     HB_ERR_INCORRECT);
    assert_string_equal(failure.check, HB_CHECK_UNWRITTEN_OUTPUT);
    assert_string_equal(failure.check, "unwritten-output");
    assert_non_null(strstr(failure.reason, "a timed call (round 37 of the timed window) left 4096 of 4096"));
}

/* A baseline's count is the harness's error, named, whatever the
 * candidate's: no verdict can rest on a round whose reference failed. */
static void test_watch_judge_baseline_is_harness_error(void **state)
{
    (void)state;
    trio t;
    trio_init(&t);
    const uint64_t found[3] = {12, 0, 1};
    hb_check_failure failure = {"", ""};
    assert_int_equal(hb_output_watch_judge(t.parts, found, 3, 4096, (hb_watch_round){0, 2}, &failure), HB_ERR_CUDA);
    assert_string_equal(failure.check, ""); /* no candidate verdict */
    assert_non_null(strstr(hb_last_error(), "baseline cublas-nn: a warm-up call (round 2 of the warm-up) left 1 of "
                                            "4096"));
}

hb_test_list hb_output_watch_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unwritten_reason_says_window_round_and_count),
        cmocka_unit_test(test_watch_judge_clean_round_passes),
        cmocka_unit_test(test_watch_judge_candidate_is_incorrect),
        cmocka_unit_test(test_watch_judge_baseline_is_harness_error),
    };
    return HB_TEST_LIST(tests);
}
