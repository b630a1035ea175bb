/* The modes of the fake harness (fake_harness.c) for the broken launchers
 * that attack the CUDA driver or the process around them: the launcher is
 * loaded beside a stand-in of libcuda.so.1 (fake_cuda.c, linked by the
 * harness, as hgemm-bench has the driver loaded before any candidate), and
 * each fault is checked as its file says, on the CPU: the driver's code
 * detoured only in the guessed timed window, written through /proc/self/mem
 * and put back, mapped over by a memfd; a sleeping kernel before every
 * launch; a thread that queries the driver, one that keeps a kernel in
 * flight, both stopped when the library is closed; a helper that writes
 * through ptrace; a seccomp filter over the harness's writes; the harness's
 * pipe replaced.  The window modes expect `--warmup-s 0 --time-s 2` after
 * the mode: the window is guessed at [1, 2) s after the first call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/broken_launchers_cpu/fake_harness.h"

/* fake_cuda.c: the driver's entry points, as the runtime would call them. */
typedef struct fake_launch {
    const void *function, *stream;
    unsigned long long first_param;
} fake_launch;
typedef struct fake_launch_config {
    unsigned grid[3], block[3], shared;
    void *stream;
} fake_launch_config;
int cuEventRecord(void *event, void *stream);
int cuEventElapsedTime(float *ms, void *start, void *stop);
int cuEventElapsedTime_v2(float *ms, void *start, void *stop);
int cuLaunchKernel(const void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void *stream, void **params, void **extra);
int cuLaunchKernelEx(const fake_launch_config *config, const void *f, void **params, void **extra);
int fake_driver_records(void);
int fake_driver_launches(void);
fake_launch fake_driver_launch(int i);

/* fake_cudart.c */
typedef struct fake_kernel_launch {
    void *stream;
    unsigned grid_x, block_x;
    size_t shared;
} fake_kernel_launch;
long fake_queries(void);
int fake_kernel_launches(void);
fake_kernel_launch fake_kernel_launch_at(int i);
void *fake_host_memory(void);

#define PATCH_BYTES 12 /* what ../../candidates/broken_launchers/detour.h writes */
#define SHORT_MS (4.0f - 0.003f) /* the fake's 4 ms, read 3 us short */

static int result_pipe[2] = {-1, -1}; /* the harness's channel to its parent, as hgemm-bench's child has one */
static ino_t result_inode;

static void *const start_event = (void *)(uintptr_t)0x1000, *const stop_event = (void *)(uintptr_t)0x2000;

static void sleep_s(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* The interval of the last pair, through the _v2 entry point (or the legacy one). */
static float interval(int legacy)
{
    float ms = -1;
    int r = legacy ? cuEventElapsedTime(&ms, start_event, stop_event)
                   : cuEventElapsedTime_v2(&ms, start_event, stop_event);
    return r == 0 ? ms : -1;
}

/* One sample as the harness takes one: start event, the call (none for a
 * baseline's sample: `launch` NULL), stop event, the interval. */
static float sample(hgemm_launch_fn launch, problem *p, int legacy, int *launched)
{
    cuEventRecord(start_event, TIMED_STREAM);
    if (launch)
        *launched &= launch_ok(launch, p);
    cuEventRecord(stop_event, TIMED_STREAM);
    return interval(legacy);
}

static int same_code(const void *function, const unsigned char *bytes)
{
    return !memcmp(function, bytes, PATCH_BYTES);
}

static int driver_detour_timed(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 16, 16, 16);
    unsigned char record_code[PATCH_BYTES], elapsed_code[PATCH_BYTES];
    memcpy(record_code, (const void *)cuEventRecord, PATCH_BYTES);
    memcpy(elapsed_code, (const void *)cuEventElapsedTime_v2, PATCH_BYTES);
    const double t0 = now_us();
    int launched = 1;
    const float before = sample(launch, &p, 0, &launched); /* its first call: the clock starts */
    const int untouched_before = same_code((const void *)cuEventRecord, record_code);
    sleep_s(1.3 - (now_us() - t0) * 1e-6);
    const float first_in = sample(launch, &p, 0, &launched); /* detoured at its entry: the start was not seen */
    const float baseline = sample(NULL, &p, 0, &launched);
    const float own = sample(launch, &p, 0, &launched), own_legacy = sample(launch, &p, 1, &launched);
    const int detoured = !same_code((const void *)cuEventRecord, record_code) &&
                         !same_code((const void *)cuEventElapsedTime_v2, elapsed_code);
    sleep_s(2.3 - (now_us() - t0) * 1e-6);
    const float after = sample(launch, &p, 0, &launched); /* put back at its entry */
    const int restored = same_code((const void *)cuEventRecord, record_code) &&
                         same_code((const void *)cuEventElapsedTime_v2, elapsed_code);
    printf("  before the window %.3f ms (code %s); in it: first call %.3f, baseline %.3f, own %.3f (legacy %.3f), "
           "code %s; after it %.3f, code %s; %d records reached the driver\n",
           before, untouched_before ? "untouched" : "CHANGED", first_in, baseline, own, own_legacy,
           detoured ? "detoured" : "NOT DETOURED", after, restored ? "restored" : "NOT RESTORED",
           fake_driver_records());
    return launched && c_state(&p) == 1 && before == 4.0f && untouched_before && first_in == 4.0f &&
           baseline == 4.0f && own == SHORT_MS && own_legacy == SHORT_MS && detoured && after == 4.0f && restored &&
           fake_driver_records() == 12;
}

static int proc_mem_patch(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 16, 16, 16);
    unsigned char code[PATCH_BYTES];
    memcpy(code, (const void *)cuEventElapsedTime_v2, PATCH_BYTES);
    const double t0 = now_us();
    int launched = 1;
    const float before = sample(launch, &p, 0, &launched);
    const int untouched_before = same_code((const void *)cuEventElapsedTime_v2, code);
    sleep_s(1.3 - (now_us() - t0) * 1e-6);
    cuEventRecord(start_event, TIMED_STREAM);
    launched &= launch_ok(launch, &p);
    cuEventRecord(stop_event, TIMED_STREAM);
    const int written = !same_code((const void *)cuEventElapsedTime_v2, code);
    const float own = interval(0);
    const int put_back = same_code((const void *)cuEventElapsedTime_v2, code);
    const float again = interval(0), baseline = sample(NULL, &p, 0, &launched);
    sleep_s(2.3 - (now_us() - t0) * 1e-6);
    const float after = sample(launch, &p, 0, &launched);
    const int untouched_after = same_code((const void *)cuEventElapsedTime_v2, code);
    printf("  before the window %.3f ms (code %s); in it: code %s after its call, its pair %.3f, code %s, the same "
           "pair again %.3f, baseline %.3f; after it %.3f (code %s)\n",
           before, untouched_before ? "untouched" : "CHANGED", written ? "written" : "NOT WRITTEN", own,
           put_back ? "put back" : "NOT PUT BACK", again, baseline, after, untouched_after ? "untouched" : "CHANGED");
    return launched && c_state(&p) == 1 && before == 4.0f && untouched_before && written && own == SHORT_MS &&
           put_back && again == 4.0f && baseline == 4.0f && after == 4.0f && untouched_after;
}

/* Whether /proc/self/maps names `what`. */
static int maps_name(const char *what)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    int found = 0;
    while (maps && !found && fgets(line, sizeof line, maps))
        found = strstr(line, what) != NULL;
    if (maps)
        fclose(maps);
    return found;
}

static int maps_over(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 16, 16, 16);
    const int mapped_before = maps_name("memfd:maps_over");
    int launched = 1;
    cuEventRecord(start_event, TIMED_STREAM);
    launched &= launch_ok(launch, &p); /* its first call maps the page over */
    cuEventRecord(stop_event, TIMED_STREAM);
    const unsigned char *code = (const unsigned char *)cuEventElapsedTime_v2;
    const int jumps = code[0] == 0x48 && code[1] == 0xB8, mapped = maps_name("memfd:maps_over");
    const float own = interval(0), again = interval(0), baseline = sample(NULL, &p, 0, &launched);
    const float next = sample(launch, &p, 0, &launched);
    printf("  memfd mapping before its first call %s, after it %s, the entry point %s; its pair %.3f ms, the same "
           "pair again %.3f, baseline %.3f, its next call %.3f\n",
           mapped_before ? "PRESENT" : "absent", mapped ? "present" : "ABSENT", jumps ? "jumps" : "DOES NOT JUMP",
           own, again, baseline, next);
    return launched && c_state(&p) == 1 && !mapped_before && mapped && jumps && own == SHORT_MS && again == 4.0f &&
           baseline == 4.0f && next == SHORT_MS;
}

/* A baseline's launch before the launcher's first call goes alone (its
 * sleeper is looked up in that call: the runtime registers the library's
 * kernels after its constructor has run); after it, each of theirs, plain
 * or Ex, on whatever stream, comes after a 5 us sleeper on that stream. */
static int baseline_kernel_detour(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 16, 16, 16);
    const void *const theirs = (const void *)(uintptr_t)0xF00D, *const theirs_ex = (const void *)(uintptr_t)0xBEEF;
    void *const other_stream = (void *)(uintptr_t)0x0A0A;
    cuLaunchKernel(theirs, 1, 1, 1, 32, 1, 1, 0, TIMED_STREAM, NULL, NULL); /* a baseline's launch, before its call */
    const int launched = launch_ok(launch, &p);
    cuLaunchKernel(theirs, 1, 1, 1, 32, 1, 1, 0, TIMED_STREAM, NULL, NULL); /* and after it */
    const fake_launch_config config = {{1, 1, 1}, {32, 1, 1}, 0, other_stream};
    cuLaunchKernelEx(&config, theirs_ex, NULL, NULL);
    enum { WANT = 5 };
    const int n = fake_driver_launches();
    fake_launch l[WANT] = {{0}};
    for (int i = 0; i < n && i < WANT; i++)
        l[i] = fake_driver_launch(i);
    printf("  %d launches reached the driver: ", n);
    for (int i = 0; i < n && i < WANT; i++)
        printf("%s%s on %s (param %llu)", i ? ", " : "",
               l[i].function == theirs ? "theirs" : l[i].function == theirs_ex ? "theirs (Ex)" : "another",
               l[i].stream == (void *)TIMED_STREAM ? "timed" : l[i].stream == other_stream ? "theirs" : "?",
               l[i].first_param);
    printf("\n");
    const int alone_before = l[0].function == theirs && l[0].stream == (void *)TIMED_STREAM;
    const int sleeper_after = l[1].function != theirs && l[1].function == l[3].function &&
                              l[1].stream == (void *)TIMED_STREAM && l[1].first_param == 5000 &&
                              l[3].stream == other_stream && l[3].first_param == 5000;
    return launched && c_state(&p) == 1 && n == WANT && alone_before && sleeper_after && l[2].function == theirs &&
           l[2].stream == (void *)TIMED_STREAM && l[4].function == theirs_ex && l[4].stream == other_stream;
}

/* Its first 16 calls, then the 17th; 1 when all returned 0. */
static int seventeen_calls(hgemm_launch_fn launch, problem *p, long *queries_after_16, int *launches_after_16)
{
    int launched = 1;
    for (int call = 1; call <= 16; call++)
        launched &= launch_ok(launch, p);
    sleep_s(0.05);
    *queries_after_16 = fake_queries();
    *launches_after_16 = fake_kernel_launches();
    return launched && launch_ok(launch, p);
}

static int baseline_host_thread(void *lib, hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 16, 16, 16);
    long honest = 0;
    int kernels = 0;
    const int launched = seventeen_calls(launch, &p, &honest, &kernels);
    sleep_s(0.05);
    const long hammering = fake_queries();
    const int closed = dlclose(lib) == 0;
    const long at_close = fake_queries();
    sleep_s(0.05);
    const long later = fake_queries();
    printf("  queries after 16 calls %ld, 50 ms after the 17th %ld; library closed %s, queries %ld then %ld\n",
           honest, hammering, closed ? "yes" : "NO", at_close, later);
    return launched && c_state(&p) == 1 && honest == 0 && hammering > 100 && closed && later == at_close;
}

static int baseline_kernel_leftover(void *lib, hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 16, 16, 16);
    long queries = 0;
    int honest = 0;
    const int launched = seventeen_calls(launch, &p, &queries, &honest);
    const int in_call = fake_kernel_launches();
    const fake_kernel_launch first = fake_kernel_launch_at(0);
    sleep_s(0.05);
    const int while_running = fake_kernel_launches(); /* the fake GPU has not ended the spin */
    volatile unsigned *done = fake_host_memory();
    if (done)
        *done = 1; /* the GPU's write at the spin's end */
    for (int i = 0; i < 100 && fake_kernel_launches() < 2; i++)
        sleep_s(0.01);
    const int after_end = fake_kernel_launches();
    const fake_kernel_launch second = fake_kernel_launch_at(1);
    const int closed = dlclose(lib) == 0;
    if (done)
        *done = 2;
    sleep_s(0.05);
    const int after_close = fake_kernel_launches();
    printf("  kernels after 16 calls %d, after the 17th %d (grid %u x %u threads, %zu B shared, on %s), 50 ms on %d; "
           "once the spin ended %d (on %s); library closed %s, then %d\n",
           honest, in_call, first.grid_x, first.block_x, first.shared,
           first.stream == fake_created_stream() ? "its own stream" : "ANOTHER", while_running, after_end,
           second.stream == fake_created_stream() ? "its own stream" : "ANOTHER", closed ? "yes" : "NO", after_close);
    return launched && c_state(&p) == 1 && honest == 0 && in_call == 1 && first.stream == fake_created_stream() &&
           first.grid_x == 9 && first.block_x == 1024 && first.shared == 9 && while_running == 1 && after_end == 2 &&
           second.stream == fake_created_stream() && closed && after_close == 2;
}

static int ptrace_helper(void *lib, hgemm_launch_fn launch)
{
    int (*end)(void) = (int (*)(void))dlsym(lib, "broken_ptrace_helper_end");
    const int status = end ? end() : -2;
    problem p;
    make_problem(&p, 16, 16, 16);
    const int launched = launch_ok(launch, &p);
    const int wrote = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    const int refused = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 1;
    printf("  the helper %s (wait status %d)\n",
           wrote     ? "attached, read the word and wrote it back"
           : refused ? "could not attach: this machine refuses ptrace (the write is not exercised)"
                     : "FAILED",
           status);
    return launched && c_state(&p) == 1 && (wrote || refused);
}

static int own_seccomp(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 16, 16, 16);
    const int launched = launch_ok(launch, &p);
    errno = 0;
    const ssize_t to_pipe = write(result_pipe[1], "R", 1);
    const int pipe_errno = errno;
    const ssize_t to_stderr = write(2, "", 0);
    printf("  write to the harness's pipe: %zd (%s); to stderr: %zd\n", to_pipe, strerror(pipe_errno), to_stderr);
    return launched && c_state(&p) == 1 && to_pipe == -1 && pipe_errno == EPIPE && to_stderr == 0;
}

static int dup_result(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 16, 16, 16);
    const int launched = launch_ok(launch, &p);
    struct stat now;
    const int replaced = fstat(result_pipe[1], &now) == 0 && S_ISFIFO(now.st_mode) && now.st_ino != result_inode;
    printf("  the harness's pipe descriptor %d %s\n", result_pipe[1],
           replaced ? "is another pipe now" : "IS STILL THE HARNESS'S");
    return launched && c_state(&p) == 1 && replaced;
}

void driver_attack_prepare(void)
{
    struct stat st;
    if (pipe(result_pipe) == 0 && fstat(result_pipe[1], &st) == 0)
        result_inode = st.st_ino;
}

int driver_attack_mode(const char *mode, void *lib, hgemm_launch_fn launch, int *ok)
{
    if (!strcmp(mode, "driver_detour_timed"))
        *ok = driver_detour_timed(launch);
    else if (!strcmp(mode, "proc_mem_patch"))
        *ok = proc_mem_patch(launch);
    else if (!strcmp(mode, "maps_over"))
        *ok = maps_over(launch);
    else if (!strcmp(mode, "baseline_kernel_detour"))
        *ok = baseline_kernel_detour(launch);
    else if (!strcmp(mode, "baseline_host_thread"))
        *ok = baseline_host_thread(lib, launch);
    else if (!strcmp(mode, "baseline_kernel_leftover"))
        *ok = baseline_kernel_leftover(lib, launch);
    else if (!strcmp(mode, "ptrace_helper"))
        *ok = ptrace_helper(lib, launch);
    else if (!strcmp(mode, "own_seccomp"))
        *ok = own_seccomp(launch);
    else if (!strcmp(mode, "dup_result"))
        *ok = dup_result(launch);
    else
        return 0;
    return 1;
}
