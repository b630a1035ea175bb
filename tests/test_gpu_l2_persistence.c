#define _POSIX_C_SOURCE 200809L
/* The timed stream's access-policy window and the persisting L2 lines
 * (bench/gpu/l2_persistence.h, bench/gpu/device_state.h), on the GPU: a
 * window left on a stream is found, named and cleared after a launcher's
 * call; the legacy stream's answer is read without leaving an error; and
 * what a call's check costs, printed for docs/methodology.md. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/clock.h"
#include "bench/gpu/device_state.h"
#include "bench/gpu/l2_persistence.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"

/* Skips unless this device takes access-policy windows (Ampere on). */
static void require_windows(void)
{
    int largest = 0;
    assert_int_equal(cudaDeviceGetAttribute(&largest, cudaDevAttrMaxAccessPolicyWindowSize, hb_test_device()->ordinal),
                     cudaSuccess);
    if (largest <= 0)
        skip();
}

static void set_window(cudaStream_t stream, void *base, size_t bytes)
{
    cudaStreamAttrValue value;
    memset(&value, 0, sizeof value);
    value.accessPolicyWindow.base_ptr = base;
    value.accessPolicyWindow.num_bytes = bytes;
    value.accessPolicyWindow.hitRatio = 1.0f;
    value.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    value.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    assert_int_equal(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value), cudaSuccess);
}

/* A window left on the stream a call was given: the restore after the call
 * names it in the note, clears it and resets the persisting lines; a second
 * restore finds nothing. */
static void test_gpu_window_found_and_cleared(void **state)
{
    (void)state;
    REQUIRE_GPU();
    require_windows();
    hb_device_state want;
    assert_int_equal(hb_device_state_read(&want), HB_OK);
    cudaStream_t stream;
    assert_int_equal(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    void *buffer = NULL;
    assert_int_equal(cudaMalloc(&buffer, 1 << 20), cudaSuccess);
    set_window(stream, buffer, 1 << 20);

    char note[200];
    assert_int_equal(hb_device_state_restore(&want, -1, stream, note, sizeof note), HB_OK);
    if (!strstr(note, "access-policy window 1048576 B") || !strstr(note, "hits persisting") ||
        !strstr(note, "on the timed stream (cleared)"))
        fail_msg("the note after a window was left: '%s'", note);
    hb_access_window now;
    assert_int_equal(hb_stream_window_read(stream, &now), HB_OK);
    assert_int_equal(now.bytes, 0);
    assert_int_equal(hb_device_state_restore(&want, -1, stream, note, sizeof note), HB_OK);
    assert_string_equal(note, "");
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    cudaFree(buffer);
    cudaStreamDestroy(stream);
}

/* Whether the legacy stream (the default timed stream) has a window to read
 * is the runtime's to say; either answer leaves no error behind, and what it
 * was is printed for the docs. */
static void test_gpu_legacy_stream_window_readable(void **state)
{
    (void)state;
    REQUIRE_GPU();
    int readable = -1;
    assert_int_equal(hb_stream_window_readable(cudaStreamLegacy, &readable), HB_OK);
    assert_true(readable == 0 || readable == 1);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    printf("  the legacy stream's access-policy window is %sreadable\n", readable ? "" : "not ");
    if (readable) {
        hb_access_window window;
        assert_int_equal(hb_stream_window_read(cudaStreamLegacy, &window), HB_OK);
        assert_int_equal(window.bytes, 0); /* nothing in this process sets one */
    }
}

/* What the check after each launcher call adds, untimed: one window read
 * (cudaStreamGetAttribute) and one reset of the persisting lines
 * (cudaCtxResetPersistingL2Cache), microseconds a call, printed; each well
 * under a millisecond, the bound a call's check must keep to not lengthen a
 * round of small products many times over. */
static void test_gpu_window_check_cost(void **state)
{
    (void)state;
    REQUIRE_GPU();
    require_windows();
    enum { CALLS = 2000 };
    hb_access_window window;
    double start = hb_now_s();
    for (int i = 0; i < CALLS; i++)
        assert_int_equal(hb_stream_window_read(hb_test_stream(), &window), HB_OK);
    const double read_us = (hb_now_s() - start) / CALLS * 1e6;
    int persisting = 0;
    assert_int_equal(hb_l2_persisting_supported(&persisting), HB_OK);
    double reset_us = 0;
    if (persisting) {
        assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
        start = hb_now_s();
        for (int i = 0; i < CALLS; i++)
            assert_int_equal(hb_l2_persisting_reset(), HB_OK);
        reset_us = (hb_now_s() - start) / CALLS * 1e6;
    }
    printf("  cudaStreamGetAttribute(access-policy window): %.3f us a call; cudaCtxResetPersistingL2Cache: %.3f us "
           "a call%s\n", read_us, reset_us, persisting ? "" : " (no persisting L2: not called)");
    assert_true(read_us < 1000);
    assert_true(reset_us < 1000);
}

hb_test_list hb_gpu_l2_persistence_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_window_found_and_cleared),
        cmocka_unit_test(test_gpu_legacy_stream_window_readable),
        cmocka_unit_test(test_gpu_window_check_cost),
    };
    return HB_TEST_LIST(tests);
}
