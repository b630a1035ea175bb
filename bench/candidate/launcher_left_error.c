#include "bench/candidate/launcher_left_error.h"

#include <stdio.h>

#include "bench/core/diag.h"

static const char *moment_words(hb_launcher_moment when)
{
    return when == HB_LAUNCHER_AT_LOAD ? "left by the launcher's constructor" : "left set after its call";
}

static const char *moment_story(hb_launcher_moment when)
{
    return when == HB_LAUNCHER_AT_LOAD ? "once its library was loaded (dlopen runs its constructors)"
                                       : "after a call that returned success";
}

hb_status hb_launcher_left_error_verdict(const char *launcher, hb_launcher_moment when, cudaError_t left,
                                         cudaError_t device)
{
    if (left == cudaSuccess && device == cudaSuccess)
        return HB_OK;
    if (left == cudaSuccess)
        return hb_fail(HB_ERR_CANDIDATE_FAULT,
                       "%s (%s) %s: launcher %s left the device failing %s: cudaDeviceSynchronize returns it (an "
                       "error of work it left running, or a sticky error: the device's context is unusable)",
                       cudaGetErrorName(device), cudaGetErrorString(device), moment_words(when), launcher,
                       moment_story(when));
    char device_words[200] = "";
    if (device != cudaSuccess)
        snprintf(device_words, sizeof device_words,
                 "; the device fails too: cudaDeviceSynchronize returns %s (sticky, or work it left running)",
                 cudaGetErrorName(device));
    return hb_fail(HB_ERR_CANDIDATE_FAULT,
                   "%s (%s) %s: launcher %s left the CUDA runtime's last error set %s, a CUDA call of its own that "
                   "failed and was not cleared with cudaGetLastError()%s",
                   cudaGetErrorName(left), cudaGetErrorString(left), moment_words(when), launcher, moment_story(when),
                   device_words);
}

hb_status hb_launcher_take_left_error(const char *launcher, hb_launcher_moment when)
{
    const cudaError_t left = cudaGetLastError();
    /* After a call the caller has synchronized the device and judged it
     * (bench/measure/sample_timer.c, verify/checked_call.c): not again. */
    const cudaError_t device = when == HB_LAUNCHER_AT_LOAD ? cudaDeviceSynchronize() : cudaSuccess;
    if (device != cudaSuccess)
        (void)cudaGetLastError(); /* reported here: no later check of the harness's must find it again */
    return hb_launcher_left_error_verdict(launcher, when, left, device);
}

void hb_launcher_clear_last_error(void)
{
    /* One still set here is not the launcher's: the harness checks each of
     * its own calls where it makes it, so this one was seen already (a limit
     * this device lacks, say, which the call's return value reported). */
    (void)cudaGetLastError();
}
