/* The report's small judgements, without a binary: whether a
 * configuration's timing is in doubt and why (bench/analysis/timing_doubt.h,
 * on a result set's entry),
 * the flags a protocol line reads from a command line
 * (bench/analysis/run_protocol.h), the figures' fitted axes and outlier
 * fences (bench/analysis/figure_extent.h), and --timer's names. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/analysis/figure_extent.h"
#include "bench/analysis/result_set.h"
#include "bench/analysis/run_protocol.h"
#include "bench/analysis/timing_doubt.h"
#include "tests/test_registry.h"

/* An entry as summary.csv's candidate row gives it (trace_note NULL: the file has no such column). */
static hb_config_entry entry(const char *trace_note, const char *timer_reason, const char *headline)
{
    hb_config_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.verdict, sizeof e.verdict, "pass");
    e.timers.trace_recorded = trace_note != NULL;
    e.timers.candidate_called = 1;
    snprintf(e.timers.trace_note, sizeof e.timers.trace_note, "%s", trace_note ? trace_note : "");
    snprintf(e.timers.timer_reason, sizeof e.timers.timer_reason, "%s", timer_reason);
    snprintf(e.timers.headline_timer, sizeof e.timers.headline_timer, "%s", headline);
    return e;
}

static void test_a_traced_configuration_on_events_is_not_in_doubt(void **state)
{
    (void)state;
    hb_config_entry e = entry("", "", "event");
    char why[512] = "x";
    assert_int_equal(hb_config_in_doubt(&e, why, sizeof why), 0);
    assert_string_equal(why, "");
    assert_true(hb_config_traced(&e));
}

static void test_an_untraced_configuration_is_in_doubt(void **state)
{
    (void)state;
    hb_config_entry e = entry("--no-trace", "", "event");
    char why[512];
    assert_int_equal(hb_config_in_doubt(&e, why, sizeof why), 1);
    assert_string_equal(why, "not traced: --no-trace");
    assert_false(hb_config_traced(&e));
    /* a summary.csv without the column (a harness before the call monitor): never traced */
    hb_config_entry old = entry(NULL, "", "");
    assert_int_equal(hb_config_in_doubt(&old, why, sizeof why), 1);
    assert_non_null(strstr(why, "not traced: summary.csv has no trace_note column"));
    assert_false(hb_config_traced(&old));
}

/* A configuration that ended before its candidate's first call (no
 * manifest, no GPU, a build that failed) has an empty trace_note in a
 * summary.csv of an older harness, yet nothing watched it: not traced. */
static void test_a_configuration_never_called_is_not_traced(void **state)
{
    (void)state;
    hb_config_entry e = entry("", "", "");
    snprintf(e.verdict, sizeof e.verdict, "unsupported");
    e.timers.candidate_called = 0;
    assert_false(hb_config_traced(&e));
    e.timers.candidate_called = 1;
    assert_true(hb_config_traced(&e));
}

/* Work that left the events moves the headline to the wall clock: in doubt,
 * with both reasons said where both hold; NULL why is fine. */
static void test_work_that_left_the_events_is_in_doubt(void **state)
{
    (void)state;
    hb_config_entry e = entry("", "other-stream", "wall");
    char why[512];
    assert_int_equal(hb_config_in_doubt(&e, why, sizeof why), 1);
    assert_string_equal(why, "wall headline: other-stream");
    assert_true(hb_config_traced(&e));
    assert_int_equal(hb_config_in_doubt(&e, NULL, 0), 1);
    hb_config_entry both = entry("--no-isolate runs no call monitor", "host-gap", "wall");
    assert_int_equal(hb_config_in_doubt(&both, why, sizeof why), 1);
    assert_string_equal(why, "wall headline: host-gap; not traced: --no-isolate runs no call monitor");
}

static void test_timer_names(void **state)
{
    (void)state;
    hb_timer t = HB_TIMER_EVENT;
    assert_true(hb_timer_parse("kernel", &t));
    assert_int_equal(t, HB_TIMER_KERNEL);
    assert_true(hb_timer_parse("wall", &t));
    assert_int_equal(t, HB_TIMER_WALL);
    assert_true(hb_timer_parse("event", &t));
    assert_int_equal(t, HB_TIMER_EVENT);
    assert_false(hb_timer_parse("kernels", &t));
    assert_false(hb_timer_parse("", &t));
}

static void test_command_line_flags(void **state)
{
    (void)state;
    char value[64];
    const char *line = "hgemm-bench sweep --candidate sets/h100 --grid paper --sample 200 --seed=7 --no-trace";
    assert_true(hb_command_line_flag(line, "sample", value, sizeof value));
    assert_string_equal(value, "200");
    assert_true(hb_command_line_flag(line, "seed", value, sizeof value));
    assert_string_equal(value, "7");
    assert_true(hb_command_line_flag(line, "grid", value, sizeof value));
    assert_string_equal(value, "paper");
    assert_false(hb_command_line_flag(line, "m", value, sizeof value)); /* not --mnk's prefix, nor --modes' */
    assert_false(hb_command_line_flag(line, "sam", value, sizeof value));
    assert_false(hb_command_line_flag(NULL, "sample", value, sizeof value));
    /* the last one given wins, as the option parser takes it */
    assert_true(hb_command_line_flag("x --sample 5 --sample 9", "sample", value, sizeof value));
    assert_string_equal(value, "9");
}

/* The figure: data in 0.5..4.5 drawn on a fixed 0.1..10.  Now the
 * axis is the data's, 10 % wider, with 1 inside; an outlier is fenced off. */
static void test_the_figure_axis_fits_the_data(void **state)
{
    (void)state;
    double ratios[40];
    for (size_t i = 0; i < 40; i++)
        ratios[i] = 0.9 + 0.01 * (double)i; /* 0.9 .. 1.29 */
    ratios[0] = 0.5;
    ratios[39] = 4.5;
    hb_figure_extent e;
    assert_int_equal(hb_figure_extent_of(ratios, 40, &e), HB_OK);
    assert_true(fabs(e.low - 0.5 / 1.1) < 1e-12);
    assert_true(fabs(e.high - 4.5 * 1.1) < 1e-12);
    assert_true(hb_figure_outlier(&e, 4.5));
    assert_true(hb_figure_outlier(&e, 0.5));
    assert_false(hb_figure_outlier(&e, 1.1));
    /* all above 1: the axis still holds the line r = 1 */
    double above[] = {1.5, 2.0, 3.0};
    assert_int_equal(hb_figure_extent_of(above, 3, &e), HB_OK);
    assert_true(e.low <= 1.0 / 1.1 + 1e-12 && e.high >= 3.0);
    assert_false(hb_figure_outlier(&e, 100.0)); /* fewer than 4 points: no fences */
    char tics[256];
    hb_figure_log_tics(0.45, 4.95, tics, sizeof tics);
    assert_string_equal(tics, "(0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3)");
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_a_traced_configuration_on_events_is_not_in_doubt),
    cmocka_unit_test(test_an_untraced_configuration_is_in_doubt),
    cmocka_unit_test(test_a_configuration_never_called_is_not_traced),
    cmocka_unit_test(test_work_that_left_the_events_is_in_doubt),
    cmocka_unit_test(test_timer_names),
    cmocka_unit_test(test_command_line_flags),
    cmocka_unit_test(test_the_figure_axis_fits_the_data),
};

hb_test_list hb_timing_doubt_tests(void)
{
    return (hb_test_list){tests, sizeof tests / sizeof tests[0]};
}
