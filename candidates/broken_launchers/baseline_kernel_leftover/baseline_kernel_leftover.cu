// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: work of its own left running beside the baselines, no code
// patched.  After its first 16 calls (so that the checks see an honest
// launcher), each call ends by launching, on a non-blocking stream of its
// own never joined to the timed one, a kernel that holds every SM for 20 us:
// one block of 1024 threads per SM, each with all the shared memory a block
// may have, spinning on %globaltimer, so that no other kernel's block fits
// beside it.  The harness synchronizes the whole device after every call,
// which would absorb that one kernel into the launcher's own wall time, so
// a thread of its own (started then) launches the next as soon as the last
// has ended (a flag the kernel writes to mapped host memory: no CUDA call to
// poll), for as long as the launcher is not inside its own call: the
// participants that run after it in the round, the baselines, share the GPU
// with it in their timed calls.  It computes honestly (one cublasGemmEx as
// torch's).  The thread stops in the library's destructor.  The spin's
// shared-memory limit is raised at its first launch, not in the
// constructor: a library's constructor runs before the one nvcc adds to the
// same file to register its kernels with the runtime (both sit in
// .init_array, in the order the file defines them), so the runtime does not
// know the kernel there.  A CUDA call of its own that fails leaves no error
// set for the harness to find (cudaGetLastError()): its call reports it.
// What must catch it: `check` sees 16 honest calls at most: pass (conduct
// library-kernel).  In a gate, its first kernel lies on another stream
// inside its own call (conduct other-stream; its headline moves to the wall
// clock, which counts the kernel); and the baselines, held to a reference
// taken in a process that never loaded candidate code, run a kernel that
// reference lacks inside their calls (a kernel belongs to the call in whose
// window it starts, whichever thread launched it), and run slower than it:
// verdict "baseline-interference", check "baseline-kernels" (exit 16).
#include <atomic>
#include <mutex>
#include <thread>

#include "../launcher_cublas.cuh"

constexpr unsigned long long kSpinNs = 20000;
constexpr long kHonestCalls = 16;

static cublas_gemm gemm;
static cudaStream_t own_stream;
static volatile unsigned *done; // mapped host memory: the sequence number of the last spin ended
static unsigned launched;       // the sequence number of the last spin launched, under launch_lock
static bool spin_ready;         // its shared-memory limit raised (at the first spin), under launch_lock
static std::mutex launch_lock;
static int device, sms;
static size_t shared_bytes;
static char failure[200] = "not set up"; // "" once set up
static long calls;
static std::atomic<bool> inside{false}, stop{false};
static std::thread *spinner_thread;

// One block per SM (the shared memory it asks for lets no other block in)
// spinning for `ns` of the global timer; block 0 then writes `seq` to `done`.
__global__ void __launch_bounds__(1024) leftover_spin(unsigned long long ns, volatile unsigned *done, unsigned seq)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < ns);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        __threadfence_system();
        *done = seq;
    }
}

// The next spin on its own stream, the kernel's shared-memory limit raised
// first the first time; under launch_lock.  A failure is cleared from the
// runtime's last error (cudaGetLastError) and returned.
static cudaError_t launch_spin(void)
{
    if (!spin_ready) {
        const cudaError_t err =
            cudaFuncSetAttribute(leftover_spin, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared_bytes);
        if (err != cudaSuccess) {
            (void)cudaGetLastError();
            return err;
        }
        spin_ready = true;
    }
    leftover_spin<<<sms, 1024, shared_bytes, own_stream>>>(kSpinNs, done, ++launched); // FAULT: beside the others
    return cudaGetLastError();
}

// Keeps a spin in flight while the launcher is not inside its own call.
static void keep_spinning(void)
{
    if (cudaSetDevice(device) != cudaSuccess)
        return;
    while (!stop.load()) {
        {
            std::lock_guard<std::mutex> hold(launch_lock);
            if (!inside.load() && *done == launched && launch_spin() != cudaSuccess)
                return;
        }
        std::this_thread::yield();
    }
}

__attribute__((constructor)) static void set_up(void)
{
    cublas_gemm_setup(&gemm);
    int optin = 0;
    void *flag = nullptr;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (err == cudaSuccess)
        err = cudaStreamCreateWithFlags(&own_stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = cudaHostAlloc(&flag, sizeof(unsigned), cudaHostAllocMapped);
    if (err != cudaSuccess) {
        (void)cudaGetLastError(); // its calls report the failure; the runtime keeps no error of it
        return cuda_failure_text(failure, sizeof failure, "setting up the spinning kernel", err);
    }
    done = static_cast<volatile unsigned *>(flag);
    *done = 0;
    shared_bytes = (size_t)optin;
    failure[0] = '\0';
}

__attribute__((destructor)) static void tear_down(void)
{
    stop.store(true);
    if (spinner_thread)
        spinner_thread->join();
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (failure[0])
        return launcher_message(args, 2, "%s", failure);
    inside.store(true);
    int result = cublas_gemm_all(&gemm, args, args->stream);
    if (result == HGEMM_LAUNCH_OK && ++calls > kHonestCalls) {
        std::lock_guard<std::mutex> hold(launch_lock);
        const cudaError_t err = launch_spin();
        if (err != cudaSuccess)
            result = launcher_cuda_failure(args, "launching leftover_spin", err);
        else if (!spinner_thread)
            spinner_thread = new std::thread(keep_spinning); // FAULT: launches outside its calls
    }
    inside.store(false);
    return result;
}
