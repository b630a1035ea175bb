/* A stand-in for the CUDA driver, libcuda.so.1 (tests/broken_launchers_cpu.sh):
 * the entry points the broken launchers that attack the driver look up and
 * patch (cuEventRecord*, cuEventElapsedTime*, cuLaunchKernel*), each a real
 * function of more than the 12 bytes a patch writes (built at -O0, each
 * does some bookkeeping).  Events are opaque pointers and every interval is
 * 4 ms; a launch is logged (function, stream, its first parameter's first
 * 8 bytes).  Loose prototypes: the callers pass the real ones' arguments. */
#include <stdint.h>
#include <string.h>

typedef struct fake_launch {
    const void *function, *stream;
    unsigned long long first_param;
} fake_launch;

typedef struct fake_launch_config { /* CUlaunchConfig's first members, as cuda.h lays them out */
    unsigned grid[3], block[3], shared;
    void *stream;
} fake_launch_config;

int cuEventRecord(void *event, void *stream);
int cuEventRecord_ptsz(void *event, void *stream);
int cuEventRecordWithFlags(void *event, void *stream, unsigned flags);
int cuEventRecordWithFlags_ptsz(void *event, void *stream, unsigned flags);
int cuEventElapsedTime(float *ms, void *start, void *stop);
int cuEventElapsedTime_v2(float *ms, void *start, void *stop);
int cuLaunchKernel(const void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void *stream, void **params, void **extra);
int cuLaunchKernel_ptsz(const void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra);
int cuLaunchKernelEx(const fake_launch_config *config, const void *f, void **params, void **extra);
int cuLaunchKernelEx_ptsz(const fake_launch_config *config, const void *f, void **params, void **extra);
int fake_driver_records(void);
int fake_driver_intervals(void);
int fake_driver_launches(void);
fake_launch fake_driver_launch(int i);

enum { LOGGED = 64 };
static volatile int records, intervals, launches;
static fake_launch logged[LOGGED];

static int record(void *event, void *stream)
{
    (void)event, (void)stream;
    records++;
    return 0;
}

static int interval(float *ms, void *start, void *stop)
{
    (void)start, (void)stop;
    intervals++;
    *ms = 4.0f;
    return 0;
}

static int launch(const void *f, void *stream, void **params)
{
    if (launches < LOGGED) {
        logged[launches].function = f;
        logged[launches].stream = stream;
        logged[launches].first_param = 0;
        if (params && params[0])
            memcpy(&logged[launches].first_param, params[0], sizeof logged[launches].first_param);
    }
    launches++;
    return 0;
}

int cuEventRecord(void *event, void *stream) { return record(event, stream); }
int cuEventRecord_ptsz(void *event, void *stream) { return record(event, stream); }
int cuEventRecordWithFlags(void *event, void *stream, unsigned flags) { return (void)flags, record(event, stream); }
int cuEventRecordWithFlags_ptsz(void *event, void *stream, unsigned flags)
{
    return (void)flags, record(event, stream);
}
int cuEventElapsedTime(float *ms, void *start, void *stop) { return interval(ms, start, stop); }
int cuEventElapsedTime_v2(float *ms, void *start, void *stop) { return interval(ms, start, stop); }
int cuLaunchKernel(const void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void *stream, void **params, void **extra)
{
    (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)extra;
    return launch(f, stream, params);
}
int cuLaunchKernel_ptsz(const void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra)
{
    (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)extra;
    return launch(f, stream, params);
}
int cuLaunchKernelEx(const fake_launch_config *config, const void *f, void **params, void **extra)
{
    return (void)extra, launch(f, config->stream, params);
}
int cuLaunchKernelEx_ptsz(const fake_launch_config *config, const void *f, void **params, void **extra)
{
    return (void)extra, launch(f, config->stream, params);
}
int fake_driver_records(void) { return records; }
int fake_driver_intervals(void) { return intervals; }
int fake_driver_launches(void) { return launches; }
fake_launch fake_driver_launch(int i) { return logged[i]; }
