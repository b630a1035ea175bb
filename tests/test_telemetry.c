#define _POSIX_C_SOURCE 200809L /* nanosleep */
/* Tests of bench/gpu/telemetry.c and bench/result/telemetry_summary.c: the summary, reason names and warning on
 * hand-made samples, the sampling thread on a fake reader, and the NVML
 * sampler (which here, without NVML, must say why instead of failing). */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "bench/core/clock.h"
#include "bench/gpu/telemetry.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"

#define CLOSE(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))
#define GPU_IDLE HB_REASON_GPU_IDLE
#define SW_POWER_CAP HB_REASON_SW_POWER_CAP

/* A busy sample with every reading present and the given reasons. */
static hb_telemetry_sample busy(int sm, unsigned long long reasons)
{
    return (hb_telemetry_sample){.sm_mhz = sm, .mem_mhz = 2619, .temp_c = 50, .power_w = 300, .reasons = reasons,
                                 .reasons_known = 1};
}

static void sleep_s(double seconds)
{
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    int rc;
    while ((rc = nanosleep(&ts, &ts)) != 0 && errno == EINTR)
        ;
    assert_int_equal(rc, 0);
}

static void test_summarize_ranges(void **state)
{
    (void)state;
    hb_telemetry_sample s[4] = {busy(1980, 0), busy(1800, 0), busy(1890, 0), busy(1950, 0)};
    s[0].mem_mhz = 2619, s[1].mem_mhz = 1593, s[2].mem_mhz = -1, s[3].mem_mhz = 2619; /* one unread */
    s[0].temp_c = 40, s[1].temp_c = 60, s[2].temp_c = 71, s[3].temp_c = -1;
    s[0].power_w = 100, s[1].power_w = 450.5, s[2].power_w = -1, s[3].power_w = 200;
    s[3].sm_mhz = -1; /* unread SM clock: out of min, mean and max */
    hb_telemetry_summary out;
    hb_telemetry_summarize(s, 4, 1980, &out);
    assert_int_equal(out.samples, 4);
    assert_int_equal(out.idle_samples, 0);
    assert_int_equal(out.sm_min_mhz, 1800);
    assert_int_equal(out.sm_max_mhz, 1980);
    CLOSE(out.sm_mean_mhz, (1980 + 1800 + 1890) / 3.0, 1e-9);
    assert_int_equal(out.sm_min_busy_mhz, 1800);
    assert_int_equal(out.sm_device_max_mhz, 1980);
    assert_int_equal(out.mem_min_mhz, 1593);
    CLOSE(out.mem_mean_mhz, (2619 + 1593 + 2619) / 3.0, 1e-9);
    assert_int_equal(out.temp_max_c, 71);
    CLOSE(out.temp_mean_c, (40 + 60 + 71) / 3.0, 1e-9);
    CLOSE(out.power_mean_w, (100 + 450.5 + 200) / 3.0, 1e-9);
    CLOSE(out.power_max_w, 450.5, 1e-12);
    assert_int_equal(out.clock_drop, 0); /* 1800 = 0.909 * 1980 */
    assert_int_equal(out.throttled, 0);
}

static void test_summarize_idle_excluded_from_busy_min(void **state)
{
    (void)state;
    hb_telemetry_sample s[4] = {busy(345, GPU_IDLE), busy(1980, 0), busy(1900, 0), busy(210, GPU_IDLE)};
    hb_telemetry_summary out;
    hb_telemetry_summarize(s, 4, 1980, &out);
    assert_int_equal(out.idle_samples, 2);
    assert_int_equal(out.sm_min_mhz, 210);       /* all samples */
    assert_int_equal(out.sm_min_busy_mhz, 1900); /* idle ones left out */
    assert_int_equal(out.clock_drop, 0);         /* an idle GPU's low clock is no drop */
    /* a sample whose reasons are unknown has no evidence of idleness: busy */
    s[3].reasons_known = 0;
    hb_telemetry_summarize(s, 4, 1980, &out);
    assert_int_equal(out.idle_samples, 1);
    assert_int_equal(out.sm_min_busy_mhz, 210);
    assert_int_equal(out.clock_drop, 1);
    /* only idle samples: no busy minimum */
    hb_telemetry_summarize(s, 1, 1980, &out);
    assert_int_equal(out.sm_min_busy_mhz, -1);
    assert_int_equal(out.clock_drop, 0);
}

static void test_summarize_reasons(void **state)
{
    (void)state;
    hb_telemetry_sample s[4] = {busy(1980, GPU_IDLE | HB_REASON_APP_CLOCKS), busy(1980, HB_REASON_SYNC_BOOST),
                                busy(1980, HB_REASON_DISPLAY_CLOCKS), busy(1980, HB_REASON_HW_THERMAL)};
    s[3].reasons_known = 0; /* its bits are garbage from a failed call: ignored */
    hb_telemetry_summary out;
    hb_telemetry_summarize(s, 4, -1, &out);
    assert_true(out.reasons_seen == (GPU_IDLE | HB_REASON_APP_CLOCKS | HB_REASON_SYNC_BOOST | HB_REASON_DISPLAY_CLOCKS));
    assert_true(out.throttle_reasons == 0);
    assert_int_equal(out.throttled, 0); /* benign bits only */
    assert_int_equal(out.sm_device_max_mhz, -1);
    s[3].reasons_known = 1;
    s[1].reasons |= SW_POWER_CAP;
    hb_telemetry_summarize(s, 4, -1, &out);
    assert_true(out.reasons_seen == (GPU_IDLE | HB_REASON_APP_CLOCKS | HB_REASON_SYNC_BOOST | HB_REASON_DISPLAY_CLOCKS |
                                     SW_POWER_CAP | HB_REASON_HW_THERMAL));
    assert_true(out.throttle_reasons == (SW_POWER_CAP | HB_REASON_HW_THERMAL));
    assert_int_equal(out.throttled, 1);
    assert_int_equal(out.clock_drop, 0); /* throttled at a steady clock: no drop */
}

static void test_summarize_clock_drop_boundary(void **state)
{
    (void)state;
    hb_telemetry_sample s[2] = {busy(2000, 0), busy(1800, 0)}; /* exactly 0.9 * 2000: not below */
    hb_telemetry_summary out;
    hb_telemetry_summarize(s, 2, 2000, &out);
    assert_int_equal(out.clock_drop, 0);
    s[1].sm_mhz = 1799;
    hb_telemetry_summarize(s, 2, 2000, &out);
    assert_int_equal(out.clock_drop, 1);
    assert_int_equal(out.sm_min_busy_mhz, 1799);
    /* relative to the window's max, not the device's: a steady 1500 of 2000 is no drop */
    s[0].sm_mhz = 1500, s[1].sm_mhz = 1500;
    hb_telemetry_summarize(s, 2, 2000, &out);
    assert_int_equal(out.clock_drop, 0);
}

static void test_summarize_empty(void **state)
{
    (void)state;
    hb_telemetry_summary out;
    memset(&out, 0x5a, sizeof out); /* garbage everywhere: every field must be written */
    out.available = 1;
    strcpy(out.why, "caller's");
    hb_telemetry_summarize(NULL, 0, 1980, &out);
    assert_int_equal(out.available, 1);
    assert_string_equal(out.why, "caller's");
    assert_int_equal(out.samples, 0);
    assert_int_equal(out.idle_samples, 0);
    assert_int_equal(out.sm_min_mhz, -1);
    assert_int_equal(out.sm_max_mhz, -1);
    CLOSE(out.sm_mean_mhz, -1, 0);
    assert_int_equal(out.sm_min_busy_mhz, -1);
    assert_int_equal(out.sm_device_max_mhz, 1980);
    assert_int_equal(out.mem_min_mhz, -1);
    CLOSE(out.mem_mean_mhz, -1, 0);
    assert_int_equal(out.temp_max_c, -1);
    CLOSE(out.temp_mean_c, -1, 0);
    CLOSE(out.power_mean_w, -1, 0);
    CLOSE(out.power_max_w, -1, 0);
    assert_true(out.reasons_seen == 0 && out.throttle_reasons == 0);
    assert_int_equal(out.clock_drop, 0);
    assert_int_equal(out.throttled, 0);
}

static void test_reason_names_each_bit(void **state)
{
    (void)state;
    const char *expected[] = {"gpu_idle",           "applications_clocks", "sw_power_cap",
                              "hw_slowdown",        "sync_boost",          "sw_thermal_slowdown",
                              "hw_thermal_slowdown", "hw_power_brake",     "display_clocks"};
    char buf[64];
    for (unsigned bit = 0; bit < 9; bit++)
        assert_string_equal(hb_throttle_reason_names(1ULL << bit, buf, sizeof buf), expected[bit]);
    assert_string_equal(hb_throttle_reason_names(0, buf, sizeof buf), "none");
}

static void test_reason_names_combined_and_unknown(void **state)
{
    (void)state;
    char buf[256];
    assert_string_equal(hb_throttle_reason_names(0x40 | 0x4, buf, sizeof buf), "sw_power_cap|hw_thermal_slowdown");
    assert_string_equal(hb_throttle_reason_names(0x1ff, buf, sizeof buf),
                        "gpu_idle|applications_clocks|sw_power_cap|hw_slowdown|sync_boost|sw_thermal_slowdown|"
                        "hw_thermal_slowdown|hw_power_brake|display_clocks");
    assert_string_equal(hb_throttle_reason_names(0x200, buf, sizeof buf), "unknown_0x200");
    assert_string_equal(hb_throttle_reason_names(0x8000000000000008ULL, buf, sizeof buf),
                        "hw_slowdown|unknown_0x8000000000000000");
    /* the returned pointer is the buffer */
    assert_ptr_equal(hb_throttle_reason_names(0x4, buf, sizeof buf), buf);
}

static void test_reason_names_truncate(void **state)
{
    (void)state;
    char full[128], small[10];
    hb_throttle_reason_names(0x44, full, sizeof full);
    memset(small, 'x', sizeof small);
    hb_throttle_reason_names(0x44, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1); /* NUL-terminated, filled */
    assert_memory_equal(small, full, sizeof small - 1); /* a prefix of the whole */
    char one[1] = {'x'};
    assert_string_equal(hb_throttle_reason_names(0x44, one, sizeof one), "");
    char three[3];
    assert_string_equal(hb_throttle_reason_names(0, three, sizeof three), "no");
    /* truncated exactly at a separator */
    char twelve[13];
    assert_string_equal(hb_throttle_reason_names(0x44, twelve, sizeof twelve), "sw_power_cap");
}

static hb_telemetry_summary summary_of(hb_telemetry_sample *s, size_t n)
{
    hb_telemetry_summary out = {.available = 1};
    strcpy(out.why, "ok");
    hb_telemetry_summarize(s, n, 1980, &out);
    return out;
}

static void test_warning(void **state)
{
    (void)state;
    char text[512];
    hb_telemetry_sample s[2] = {busy(1980, 0), busy(1965, HB_REASON_SYNC_BOOST)};
    hb_telemetry_summary steady = summary_of(s, 2);
    memset(text, 'x', sizeof text);
    assert_int_equal(hb_telemetry_warning(&steady, text, sizeof text), 0);
    assert_string_equal(text, "");

    s[1].sm_mhz = 1410;
    hb_telemetry_summary dropped = summary_of(s, 2);
    assert_int_equal(hb_telemetry_warning(&dropped, text, sizeof text), 1);
    assert_non_null(strstr(text, "SM clock dropped"));
    assert_non_null(strstr(text, "1410"));
    assert_non_null(strstr(text, "1980"));
    assert_non_null(strstr(text, "throttle reasons: none"));
    assert_null(strchr(text, '\n'));

    s[1].sm_mhz = 1980, s[1].reasons = SW_POWER_CAP | HB_REASON_HW_THERMAL;
    hb_telemetry_summary throttled = summary_of(s, 2);
    assert_int_equal(hb_telemetry_warning(&throttled, text, sizeof text), 1);
    assert_null(strstr(text, "dropped"));
    assert_non_null(strstr(text, "throttled"));
    assert_non_null(strstr(text, "sw_power_cap|hw_thermal_slowdown"));

    throttled.available = 0; /* not available: never a warning */
    assert_int_equal(hb_telemetry_warning(&throttled, text, sizeof text), 0);
    assert_string_equal(text, "");
}

/* A fake reader: SM clock 1000 + call index, so the summary shows whether
 * every sample was kept, in order, and how many there were. */
typedef struct fake_gpu {
    int calls;
} fake_gpu;

static void read_fake(void *context, hb_telemetry_sample *s)
{
    fake_gpu *gpu = context;
    *s = busy(1000 + gpu->calls++, 0);
}

static void test_sampler_thread_fake_reader(void **state)
{
    (void)state;
    fake_gpu gpu = {0};
    hb_telemetry t;
    assert_int_equal(hb_telemetry_start_reader(&t, read_fake, &gpu, 2000, 0.01), HB_OK);
    sleep_s(0.2);
    hb_telemetry_summary out;
    hb_telemetry_stop(&t, &out);
    assert_int_equal(out.available, 1);
    assert_string_equal(out.why, "ok");
    assert_int_equal((int)out.samples, gpu.calls);
    /* 0.2 s at 10 ms: about 20 ticks + first + last; loose for a loaded machine */
    assert_in_range(out.samples, 8, 24);
    assert_int_equal(out.sm_min_mhz, 1000);
    assert_int_equal(out.sm_max_mhz, 1000 + gpu.calls - 1);
    assert_int_equal(out.sm_device_max_mhz, 2000);
    /* a second stop is harmless and says the sampler is gone */
    hb_telemetry_stop(&t, &out);
    assert_int_equal(out.available, 0);
    assert_int_equal(out.samples, 0);
}

static void test_sampler_stops_promptly(void **state)
{
    (void)state;
    fake_gpu gpu = {0};
    hb_telemetry t;
    assert_int_equal(hb_telemetry_start_reader(&t, read_fake, &gpu, -1, 10.0), HB_OK);
    assert_int_equal(gpu.calls, 1); /* one sample at once; the thread's first is 10 s away */
    sleep_s(0.02);
    double before = hb_now_s();
    hb_telemetry_summary out;
    hb_telemetry_stop(&t, &out);
    assert_true(hb_now_s() - before < 0.5); /* woken, not left to its 10 s tick */
    assert_int_equal(out.samples, 2);       /* the first and the last */
    assert_int_equal(gpu.calls, 2);
}

static void test_sampler_rejects_bad_period(void **state)
{
    (void)state;
    fake_gpu gpu = {0};
    hb_telemetry t;
    assert_int_not_equal(hb_telemetry_start_reader(&t, read_fake, &gpu, -1, 0.0), HB_OK);
    assert_int_equal(gpu.calls, 0);
    hb_telemetry_summary out;
    hb_telemetry_stop(&t, &out); /* safe after a failed start */
    assert_int_equal(out.available, 0);
    assert_true(out.why[0] != '\0');
}

/* NVML for real: the GPU's own UUID where a GPU is usable, else a made-up
 * one (NVML missing or not, it cannot be known: the "why" path). */
static void test_sampler_nvml(void **state)
{
    (void)state;
    int gpu = hb_test_gpu_ready();
    const char *uuid = gpu ? hb_test_device()->uuid : "GPU-00000000-0000-0000-0000-000000000000";
    hb_telemetry t;
    assert_int_equal(hb_telemetry_start(&t, uuid, HB_TELEMETRY_PERIOD_S), HB_OK);
    sleep_s(0.2);
    hb_telemetry_summary out;
    hb_telemetry_stop(&t, &out);
    if (out.available) {
        assert_true(gpu);
        assert_string_equal(out.why, "ok");
        assert_true(out.samples >= 2);
        assert_true(out.sm_max_mhz > 0); /* a real GPU reports its clock */
        assert_true(out.sm_device_max_mhz >= out.sm_max_mhz);
    } else {
        assert_true(out.why[0] != '\0');
        assert_string_not_equal(out.why, "ok");
        assert_int_equal(out.samples, 0);
    }
}

static const struct CMUnitTest telemetry_tests[] = {
    cmocka_unit_test(test_summarize_ranges),
    cmocka_unit_test(test_summarize_idle_excluded_from_busy_min),
    cmocka_unit_test(test_summarize_reasons),
    cmocka_unit_test(test_summarize_clock_drop_boundary),
    cmocka_unit_test(test_summarize_empty),
    cmocka_unit_test(test_reason_names_each_bit),
    cmocka_unit_test(test_reason_names_combined_and_unknown),
    cmocka_unit_test(test_reason_names_truncate),
    cmocka_unit_test(test_warning),
    cmocka_unit_test(test_sampler_thread_fake_reader),
    cmocka_unit_test(test_sampler_stops_promptly),
    cmocka_unit_test(test_sampler_rejects_bad_period),
    cmocka_unit_test(test_sampler_nvml),
};

hb_test_list hb_telemetry_tests(void) { return HB_TEST_LIST(telemetry_tests); }
