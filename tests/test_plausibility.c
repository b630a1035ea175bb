/* Tests of the peak table (bench/result/peak_throughput.c), the plausibility
 * judgement (bench/result/plausibility.c), the run's pass over it
 * (bench/driver/plausibility_pass.c) and what the writers make of an
 * implausible time, on hand-built results: CPU only. */
#define _POSIX_C_SOURCE 200809L

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/driver/plausibility_pass.h"
#include "bench/report/report_table.h"
#include "bench/report/summary_columns.h"
#include "bench/report/verdict_file.h"
#include "bench/result/gate.h"
#include "bench/result/peak_throughput.h"
#include "bench/result/plausibility.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- fixtures ------------------------------------------------------------------------- */

/* An H100 SXM as the device query reports it: sm_90, 132 SMs, 1980 MHz. */
static hb_device_info h100(void)
{
    hb_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
    d.sm = 90;
    d.sm_count = 132;
    d.max_sm_clock_mhz = 1980;
    d.nvml_max_sm_clock_mhz = 1980;
    return d;
}

/* A passed, measured 4096^3 configuration: the candidate's event median
 * `median_ms`, torch's twice that; NVML saw the SM clock at up to `clock_mhz`. */
static void fill_measured(hb_config_result *r, double median_ms, int clock_mhz)
{
    memset(r, 0, sizeof *r);
    r->mnk = (hb_mnk){4096, 4096, 4096};
    r->status = HB_OK;
    r->verdict = HB_VERDICT_PASS;
    r->measured = 1;
    r->rounds = 50;
    r->count = 2;
    snprintf(r->participants[0].name, sizeof r->participants[0].name, "candidate");
    r->participants[0].is_candidate = 1;
    r->participants[0].event_ms.median = median_ms;
    r->participants[0].event_ms.n = 50;
    snprintf(r->participants[1].name, sizeof r->participants[1].name, "torch");
    r->participants[1].event_ms.median = 2 * median_ms;
    r->participants[1].event_ms.n = 50;
    r->participants[1].speedup_event = (hb_speedup_summary){.n = 50, .geomean = 1.0, .ci95_low = 0.99,
                                                            .ci95_high = 1.01, .paper = 1.0};
    r->telemetry.available = 1;
    r->telemetry.sm_max_mhz = clock_mhz;
    r->telemetry.sm_device_max_mhz = 1980;
}

/* 2*4096^3 FLOP at `tflops` TFLOP/s, in milliseconds. */
static double ms_at(double tflops)
{
    return 2.0 * 4096.0 * 4096.0 * 4096.0 / (tflops * 1e12) * 1e3;
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

/* --- the table ---------------------------------------------------------------------------- */

static void test_peak_table_entries(void **state)
{
    (void)state;
    static const struct { int sm, flop; } expected[] = {
        {70, 1024}, {75, 1024}, {80, 2048}, {86, 1024}, {89, 1024}, {90, 4096}, {100, 8192}, {120, 1024}};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const hb_peak_entry *e = hb_peak_entry_for(expected[i].sm);
        assert_non_null(e);
        assert_int_equal(e->sm, expected[i].sm);
        assert_int_equal(e->flop_per_clock_per_sm, expected[i].flop);
        assert_true(strlen(e->source) > 10); /* the figure it comes from */
    }
    assert_int_equal(hb_peak_entry_count(), (int)(sizeof expected / sizeof expected[0]));
    /* architectures it does not know: no entry, never a guess */
    const int unknown[] = {0, 60, 61, 72, 87, 103, 110, 121, 999};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        assert_null(hb_peak_entry_for(unknown[i]));
    for (int i = 0; i < hb_peak_entry_count(); i++)
        assert_ptr_equal(hb_peak_entry_for(hb_peak_entry_at(i)->sm), hb_peak_entry_at(i));
    assert_null(hb_peak_entry_at(-1));
    assert_null(hb_peak_entry_at(hb_peak_entry_count()));
}

/* The published figures the table is derived from, recomputed from it:
 * SMs x FLOP/clk/SM x clock lands within 0.5 % of each datasheet's TFLOPS. */
static void test_peak_table_reproduces_datasheets(void **state)
{
    (void)state;
    static const struct { int sm, sms, mhz; double tflops; } sheets[] = {
        {70, 80, 1530, 125.0},   /* V100 SXM2 */
        {75, 40, 1590, 65.0},    /* T4 */
        {80, 108, 1410, 312.0},  /* A100 SXM4 */
        {86, 82, 1695, 142.0},   /* RTX 3090, fp16 accumulate */
        {89, 128, 2520, 330.3},  /* RTX 4090, fp16 accumulate */
        {90, 132, 1830, 989.4},  /* H100 SXM5 */
        {100, 148, 1856, 2250},  /* B200 */
        {120, 170, 2407, 419.0}, /* RTX 5090 */
    };
    for (size_t i = 0; i < sizeof sheets / sizeof sheets[0]; i++) {
        const double peak = sheets[i].sms * (double)hb_peak_entry_for(sheets[i].sm)->flop_per_clock_per_sm *
                            sheets[i].mhz * 1e6 * 1e-12;
        if (fabs(peak / sheets[i].tflops - 1) > 0.005)
            fail_msg("sm_%d: %.1f TFLOP/s from the table, %.1f published", sheets[i].sm, peak, sheets[i].tflops);
    }
}

/* --- the peak ------------------------------------------------------------------------------- */

/* H100 at 1980 MHz: 132 x 4096 x 1.98e9 = 1070.5 TFLOP/s. */
static void test_peak_h100_at_window_clock(void **state)
{
    (void)state;
    hb_device_info d = h100();
    hb_telemetry_summary t = {.available = 1, .sm_max_mhz = 1980, .sm_device_max_mhz = 1980};
    hb_plausibility p;
    hb_peak_for(&d, &t, 0, &p);
    assert_int_equal(p.source, HB_PEAK_TABLE);
    assert_true(near(p.peak_tflops, 132.0 * 4096 * 1.98e9 * 1e-12));
    assert_true(fabs(p.peak_tflops - 1070.5) < 0.05);
    assert_int_equal(p.clock_mhz, 1980);
    assert_string_equal(p.clock_source, HB_CLOCK_WINDOW_MAX);
    assert_int_equal(p.sm_count, 132);
    assert_int_equal(p.flop_per_clock_per_sm, 4096);
    assert_string_equal(hb_peak_source_name(p.source), "table");

    /* a window that ran at 1410 MHz: the peak at that clock, not the device's maximum */
    t.sm_max_mhz = 1410;
    hb_peak_for(&d, &t, 0, &p);
    assert_true(near(p.peak_tflops, 132.0 * 4096 * 1.41e9 * 1e-12));
}

/* No telemetry: the device's maximum SM clock, the highest of those read. */
static void test_peak_falls_back_to_device_clock(void **state)
{
    (void)state;
    hb_device_info d = h100();
    d.max_sm_clock_mhz = 1755;     /* cudaDevAttrClockRate */
    d.nvml_max_sm_clock_mhz = -1;  /* NVML missing */
    hb_telemetry_summary t = {.available = 0, .sm_max_mhz = -1, .sm_device_max_mhz = -1};
    hb_plausibility p;
    hb_peak_for(&d, &t, 0, &p);
    assert_int_equal(p.source, HB_PEAK_TABLE);
    assert_int_equal(p.clock_mhz, 1755);
    assert_string_equal(p.clock_source, HB_CLOCK_DEVICE_MAX);
    d.nvml_max_sm_clock_mhz = 1980;
    hb_peak_for(&d, &t, 0, &p);
    assert_int_equal(p.clock_mhz, 1980);
    /* no clock at all: no peak, no verdict */
    d.max_sm_clock_mhz = 0;
    d.nvml_max_sm_clock_mhz = -1;
    hb_peak_for(&d, &t, 0, &p);
    assert_int_equal(p.source, HB_PEAK_UNKNOWN_CLOCK);
    assert_true(p.peak_tflops == 0);
}

static void test_peak_flag_overrides_table(void **state)
{
    (void)state;
    hb_device_info d = h100();
    d.sm = 61; /* even where the table has nothing */
    hb_telemetry_summary t = {.available = 1, .sm_max_mhz = 1980};
    hb_plausibility p;
    hb_peak_for(&d, &t, 850.5, &p);
    assert_int_equal(p.source, HB_PEAK_FLAG);
    assert_true(p.peak_tflops == 850.5);
    assert_int_equal(p.clock_mhz, 0);
    assert_string_equal(hb_peak_source_name(p.source), "flag");
}

/* --- the verdict ------------------------------------------------------------------------------ */

/* Faster than 1070.5 TFLOP/s on that H100: implausible, times kept, speedups gone. */
static void test_plausibility_faster_than_peak_is_implausible(void **state)
{
    (void)state;
    hb_device_info d = h100();
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    fill_measured(r, ms_at(2542.0), 1980);
    hb_plausibility_apply(r, &d, 0);
    assert_int_equal(r->status, HB_ERR_IMPLAUSIBLE);
    assert_int_equal(r->verdict, HB_VERDICT_IMPLAUSIBLE);
    assert_string_equal(hb_verdict_name(r->verdict), "implausible");
    assert_string_equal(r->check, "peak-throughput");
    assert_non_null(strstr(r->reason, "2542.0 TFLOP/s at the event median"));
    assert_non_null(strstr(r->reason, "peak of 1070.5 TFLOP/s"));
    assert_non_null(strstr(r->reason, "132 SMs x 4096 FLOP/clk x 1980 MHz"));
    assert_true(fabs(r->plausibility.achieved_tflops - 2542.0) < 1e-6);
    assert_int_equal(r->measured, 1); /* the times stay, for diagnosis */
    assert_int_equal(hb_result_has_speedups(r), 0);
    /* the gate leaves it: an implausible time never becomes pass or too-slow */
    hb_gate_apply(r, "torch", -1);
    assert_int_equal(r->status, HB_ERR_IMPLAUSIBLE);
    free(r);
}

static void test_plausibility_below_peak_passes(void **state)
{
    (void)state;
    hb_device_info d = h100();
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    fill_measured(r, ms_at(700.0), 1980);
    hb_plausibility_apply(r, &d, 0);
    assert_int_equal(r->status, HB_OK);
    assert_int_equal(r->verdict, HB_VERDICT_PASS);
    assert_string_equal(r->check, "");
    assert_int_equal(r->plausibility.source, HB_PEAK_TABLE);
    assert_true(fabs(r->plausibility.achieved_tflops - 700.0) < 1e-6);
    assert_int_equal(hb_result_has_speedups(r), 1);
    /* just below the peak passes, just above does not: the bound is strict */
    fill_measured(r, ms_at(1070.5 * 0.9999), 1980);
    hb_plausibility_apply(r, &d, 0);
    assert_int_equal(r->status, HB_OK);
    fill_measured(r, ms_at(1070.5 * 1.0001), 1980);
    hb_plausibility_apply(r, &d, 0);
    assert_int_equal(r->status, HB_ERR_IMPLAUSIBLE);
    /* a zero median is an infinite rate */
    fill_measured(r, 0, 1980);
    hb_plausibility_apply(r, &d, 0);
    assert_int_equal(r->status, HB_ERR_IMPLAUSIBLE);
    free(r);
}

/* The flag: any real kernel is slower than 0.0001 TFLOP/s allows. */
static void test_plausibility_with_the_flag(void **state)
{
    (void)state;
    hb_device_info d = h100();
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    fill_measured(r, ms_at(3.0), 1980);
    hb_plausibility_apply(r, &d, 0.0001);
    assert_int_equal(r->status, HB_ERR_IMPLAUSIBLE);
    assert_non_null(strstr(r->reason, "--peak-tflops"));
    assert_non_null(strstr(r->reason, "0.0001 TFLOP/s"));
    free(r);
}

/* Results that were not timed, or failed before, are left as they are. */
static void test_plausibility_only_judges_passed_timed_results(void **state)
{
    (void)state;
    hb_device_info d = h100();
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    fill_measured(r, ms_at(5000.0), 1980);
    r->measured = 0; /* check: nothing timed */
    hb_plausibility_apply(r, &d, 0);
    assert_int_equal(r->status, HB_OK);
    assert_int_equal(r->plausibility.source, HB_PEAK_NOT_JUDGED);
    fill_measured(r, ms_at(5000.0), 1980);
    r->status = HB_ERR_INCORRECT;
    r->verdict = HB_VERDICT_INCORRECT;
    hb_plausibility_apply(r, &d, 0);
    assert_int_equal(r->status, HB_ERR_INCORRECT);
    assert_int_equal(r->plausibility.source, HB_PEAK_NOT_JUDGED);
    free(r);
}

/* An architecture the table lacks: no verdict, whatever the time, and one warning per run. */
static void test_plausibility_unknown_arch_warns_once(void **state)
{
    (void)state;
    hb_device_info d = h100();
    d.sm = 61;
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    hb_plausibility_warnings once = {0};
    fill_measured(r, ms_at(1e6), 1980);
    assert_int_equal(hb_plausibility_pass(&once, r, &d, 0), 1);
    assert_int_equal(r->status, HB_OK);
    assert_int_equal(r->plausibility.source, HB_PEAK_UNKNOWN_ARCH);
    assert_string_equal(hb_peak_source_name(r->plausibility.source), "unknown-arch");
    fill_measured(r, ms_at(1e6), 1980);
    assert_int_equal(hb_plausibility_pass(&once, r, &d, 0), 0); /* said already */
    assert_int_equal(r->status, HB_OK);
    /* with the flag it is judged after all */
    fill_measured(r, ms_at(1e6), 1980);
    assert_int_equal(hb_plausibility_pass(&once, r, &d, 500), 0);
    assert_int_equal(r->status, HB_ERR_IMPLAUSIBLE);
    /* a known architecture never warns */
    hb_plausibility_warnings fresh = {0};
    d.sm = 90;
    fill_measured(r, ms_at(100), 1980);
    assert_int_equal(hb_plausibility_pass(&fresh, r, &d, 0), 0);
    assert_int_equal(r->status, HB_OK);
    free(r);
}

/* --- what the writers make of it ------------------------------------------------------------- */

static hb_cell cell_of(const hb_config_result *r, size_t participant, const char *column)
{
    hb_row row = {"run", "fp32", r, &r->participants[participant]};
    const hb_column *c = hb_summary_column_find(column);
    if (!c)
        fail_msg("summary.csv has no column %s", column);
    return c->value(&row);
}

static void test_plausibility_in_summary_and_verdict_file(void **state)
{
    (void)state;
    hb_device_info d = h100();
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    fill_measured(r, ms_at(2542.0), 1980);
    r->module_state = (hb_module_state){.scanned = 1, .global_bytes = 16};
    hb_plausibility_apply(r, &d, 0);

    hb_cell c = cell_of(r, 0, "verdict");
    assert_string_equal(hb_cell_text(&c), "implausible");
    c = cell_of(r, 0, "event_median_us"); /* the time stays */
    assert_int_equal(c.kind, HB_CELL_NUMBER);
    assert_true(near(c.number, ms_at(2542.0) * 1e3));
    c = cell_of(r, 0, "tflops_event_median"); /* the same figure the judgement used */
    assert_true(fabs(c.number - 2542.0) < 1e-6);
    c = cell_of(r, 1, "speedup_geomean"); /* no speedup */
    assert_int_equal(c.kind, HB_CELL_EMPTY);
    c = cell_of(r, 0, "peak_tflops");
    assert_true(fabs(c.number - 1070.5) < 0.05);
    c = cell_of(r, 0, "peak_clock_mhz");
    assert_true(c.number == 1980);
    c = cell_of(r, 0, "peak_source");
    assert_string_equal(hb_cell_text(&c), "table");
    c = cell_of(r, 0, "peak_clock_source");
    assert_string_equal(hb_cell_text(&c), "window-max");
    c = cell_of(r, 0, "module_global_bytes");
    assert_true(c.number == 16);
    c = cell_of(r, 0, "device_malloc");
    assert_true(c.number == 0);
    c = cell_of(r, 1, "peak_tflops"); /* the candidate's row only */
    assert_int_equal(c.kind, HB_CELL_EMPTY);

    /* stdout: the times, no speedups, and why */
    hb_test_capture capture;
    FILE *stream = hb_test_capture_open(&capture);
    hb_report_config(stream, r);
    char *text = hb_test_capture_close(&capture);
    assert_non_null(strstr(text, "implausible / peak-throughput"));
    assert_non_null(strstr(text, "no speedups"));
    assert_null(strstr(text, "+100.00%"));
    free(text);

    /* verdict.json: implausible, exit 10, no speedup */
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-plaus", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/verdict.json", dir);
    hb_run_options *o = calloc(1, sizeof *o);
    assert_non_null(o);
    o->candidate_path = "c";
    o->vs = "torch";
    o->gate = 1;
    hb_run_record run = {.command = "gate", .run_id = "id", .run_path = dir, .options = o};
    hb_run_outcome outcome = {.status = HB_ERR_IMPLAUSIBLE, .results = r, .count = 1};
    assert_int_equal(hb_verdict_file_write(path, &run, &outcome), HB_OK);
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "verdict")), "implausible");
    assert_int_equal(json_integer_value(json_object_get(root, "exit_code")), 10);
    json_t *config = json_array_get(json_object_get(root, "configs"), 0);
    assert_string_equal(json_string_value(json_object_get(config, "check")), "peak-throughput");
    assert_true(json_is_null(json_object_get(config, "speedup")));
    json_decref(root);
    hb_test_remove_tree(dir);
    free(o);
    free(r);
}

hb_test_list hb_plausibility_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_peak_table_entries),
        cmocka_unit_test(test_peak_table_reproduces_datasheets),
        cmocka_unit_test(test_peak_h100_at_window_clock),
        cmocka_unit_test(test_peak_falls_back_to_device_clock),
        cmocka_unit_test(test_peak_flag_overrides_table),
        cmocka_unit_test(test_plausibility_faster_than_peak_is_implausible),
        cmocka_unit_test(test_plausibility_below_peak_passes),
        cmocka_unit_test(test_plausibility_with_the_flag),
        cmocka_unit_test(test_plausibility_only_judges_passed_timed_results),
        cmocka_unit_test(test_plausibility_unknown_arch_warns_once),
        cmocka_unit_test(test_plausibility_in_summary_and_verdict_file),
    };
    return HB_TEST_LIST(tests);
}
