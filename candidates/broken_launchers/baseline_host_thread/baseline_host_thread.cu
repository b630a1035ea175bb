// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: the baselines slowed on the host, no code patched.  After its first
// 16 calls (so that the checks see an honest launcher) it starts a thread of
// its own that, whenever the launcher is not inside its own call (an atomic
// flag), hammers the driver in a tight loop: cudaStreamQuery and
// cudaEventQuery on a stream and an event of its own (made when the library
// loads), so that the harness's event records and the baselines' launches
// wait on the driver's locks inside their timed calls, while its own calls
// run with the driver to themselves.  It computes honestly (one
// cublasGemmEx as torch's).  The thread stops in the library's destructor.
// What must catch it: `check` sees 16 honest calls at most: pass (conduct
// library-kernel).  In a gate, the baselines, held to a reference taken in a
// process that never loaded candidate code, run slower than it: verdict
// "baseline-interference", check "baseline-times" (exit 16), at 64^3 where a
// call is shortest.  Whether the driver's locks slow them measurably is for
// the GPU to show: if not, this is a documented limit, not a verdict.
#include <atomic>
#include <thread>

#include "../launcher_cublas.cuh"

constexpr long kHonestCalls = 16;

static cublas_gemm gemm;
static cudaStream_t own_stream;
static cudaEvent_t own_event;
static int device;
static char failure[200] = "not set up"; // "" once set up
static long calls;
static std::atomic<bool> inside{false}, stop{false};
static std::thread *hammer_thread;

// The driver, queried as fast as it answers, except while the launcher's own call runs.
static void hammer(void)
{
    if (cudaSetDevice(device) != cudaSuccess)
        return;
    while (!stop.load()) {
        if (inside.load()) {
            std::this_thread::yield();
            continue;
        }
        (void)cudaStreamQuery(own_stream); // FAULT: the driver kept busy during the others' calls
        (void)cudaEventQuery(own_event);
    }
}

__attribute__((constructor)) static void set_up(void)
{
    cublas_gemm_setup(&gemm);
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaStreamCreateWithFlags(&own_stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = cudaEventCreateWithFlags(&own_event, cudaEventDisableTiming);
    if (err == cudaSuccess)
        err = cudaEventRecord(own_event, own_stream);
    if (err != cudaSuccess)
        return cuda_failure_text(failure, sizeof failure, "creating its stream and event", err);
    failure[0] = '\0';
}

__attribute__((destructor)) static void tear_down(void)
{
    stop.store(true);
    if (hammer_thread)
        hammer_thread->join();
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (failure[0])
        return launcher_message(args, 2, "%s", failure);
    inside.store(true);
    const int result = cublas_gemm_all(&gemm, args, args->stream);
    if (result == HGEMM_LAUNCH_OK && ++calls > kHonestCalls && !hammer_thread)
        hammer_thread = new std::thread(hammer); // FAULT: a thread left running between its calls
    inside.store(false);
    return result;
}
