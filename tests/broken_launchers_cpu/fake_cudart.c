/* A stand-in for the CUDA runtime, libcudart.so.N (tests/broken_launchers_cpu.sh):
 * what the cuBLAS broken launchers import from it, on the CPU, where "device
 * memory" is host memory.  Events are opaque pointers and every interval is
 * 4 ms; the device is a compute capability 9.0 (every attribute reads 9);
 * copies are memcpy; a stream is a name; a kernel launch (<<<...>>>) is
 * logged, never run; the queries are counted, from any thread; the last
 * cudaHostAlloc is kept, for a test to play the GPU's writes into it.  As
 * the real runtime, it knows a library's kernels only once the library's
 * registration (the constructor nvcc adds to each file, __cudaRegisterFunction
 * per kernel) has run: before that, a lookup, an attribute or a launch of
 * one fails with cudaErrorInvalidDeviceFunction; and a failed call sets the
 * calling thread's last error until cudaGetLastError reads it.  Loose
 * prototypes (ints for enums): the callers pass the real ones' arguments. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct fake_dim3 { /* dim3, passed by value as the C++ one is */
    unsigned x, y, z;
} fake_dim3;

typedef struct fake_kernel_launch {
    void *stream;
    unsigned grid_x, block_x;
    size_t shared;
} fake_kernel_launch;

int cudaEventRecord(void *event, void *stream);
int cudaEventElapsedTime(float *ms, void *start, void *stop);
int cudaGetDevice(int *device);
int cudaDeviceGetAttribute(int *value, int attribute, int device);
int cudaMalloc(void **pointer, size_t bytes);
int cudaStreamCreateWithFlags(void **stream, unsigned flags);
int cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind);
int cudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, void *stream);
const char *cudaGetErrorName(int error);
const char *cudaGetErrorString(int error);
int cudaSetDevice(int device);
int cudaStreamQuery(void *stream);
int cudaEventQuery(void *event);
int cudaEventCreateWithFlags(void **event, unsigned flags);
int cudaGetFuncBySymbol(void **function, const void *symbol);
int cudaFuncSetAttribute(const void *function, int attribute, int value);
int cudaHostAlloc(void **pointer, size_t bytes, unsigned flags);
int cudaGetLastError(void);
unsigned __cudaPushCallConfiguration(fake_dim3 grid, fake_dim3 block, size_t shared, void *stream);
int __cudaPopCallConfiguration(fake_dim3 *grid, fake_dim3 *block, size_t *shared, void **stream);
int __cudaLaunchKernel(const void *kernel, fake_dim3 grid, fake_dim3 block, void **args, size_t shared, void *stream);
void **__cudaRegisterFatBinary(void *fatbin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *host_function, char *device_function, const char *device_name,
                            int thread_limit, void *tid, void *bid, void *block, void *grid, int *warp_size);
int __cudaGetKernel(const void **kernel, const void *host_function);
int fake_records(void);
long fake_queries(void);
int fake_kernel_launches(void);
fake_kernel_launch fake_kernel_launch_at(int i);
void *fake_host_memory(void);
int fake_blocking_copies(void);
void *fake_created_stream(void);

enum { LOGGED = 16, REGISTERED = 64 };
enum { INVALID_VALUE = 1, MEMORY_ALLOCATION = 2, INVALID_DEVICE_FUNCTION = 98, INVALID_DEVICE = 101 }; /* cudaError_t's */
enum { LAST_ATTRIBUTE = 200, MOST_SHARED_BYTES = 227 * 1024 }; /* past any cudaDeviceAttr; an H100's opt-in */
static int records, blocking_copies, kernel_launches;
static const void *registered[REGISTERED]; /* the host stubs of the kernels registered so far */
static int registered_count;
static __thread int last_error; /* per thread, as the runtime's */
static long queries; /* cudaStreamQuery and cudaEventQuery calls, from any thread */
static void *created_stream, *host_memory;
static fake_kernel_launch pushed, launched[LOGGED]; /* the <<<...>>> configuration, then each launch */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* A call's result: a failure is kept as the thread's last error. */
static int result(int error)
{
    if (error)
        last_error = error;
    return error;
}

/* 0 when `host_function` is a registered kernel's stub, else the runtime's error for it. */
static int known_kernel(const void *host_function)
{
    pthread_mutex_lock(&lock);
    int found = 0;
    for (int i = 0; i < registered_count && !found; i++)
        found = registered[i] == host_function;
    pthread_mutex_unlock(&lock);
    return found ? 0 : INVALID_DEVICE_FUNCTION;
}

int cudaEventRecord(void *event, void *stream)
{
    (void)event, (void)stream;
    records++;
    return 0;
}
int cudaEventElapsedTime(float *ms, void *start, void *stop)
{
    (void)start, (void)stop;
    *ms = 4.0f;
    return 0;
}
int cudaGetDevice(int *device) { return *device = 0; }
int cudaDeviceGetAttribute(int *value, int attribute, int device)
{
    (void)device;
    if (attribute < 0 || attribute > LAST_ATTRIBUTE)
        return result(INVALID_VALUE);
    *value = 9;
    return 0;
}
int cudaMalloc(void **pointer, size_t bytes)
{
    *pointer = calloc(1, bytes);
    return result(*pointer ? 0 : MEMORY_ALLOCATION);
}
int cudaStreamCreateWithFlags(void **stream, unsigned flags)
{
    (void)flags;
    *stream = created_stream = (void *)(uintptr_t)0x5170;
    return 0;
}
int cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind)
{
    (void)kind;
    blocking_copies++;
    for (size_t row = 0; row < height; row++)
        memcpy((char *)dst + row * dpitch, (const char *)src + row * spitch, width);
    return 0;
}
int cudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, void *stream)
{
    (void)kind, (void)stream;
    memcpy(dst, src, bytes);
    return 0;
}
const char *cudaGetErrorName(int error) { return error ? "cudaErrorFake" : "cudaSuccess"; }
const char *cudaGetErrorString(int error) { return error ? "fake error" : "no error"; }
void **__cudaRegisterFatBinary(void *fatbin)
{
    static void *handle;
    handle = fatbin;
    return &handle;
}
void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }
void __cudaUnregisterFatBinary(void **handle) { (void)handle; }
void __cudaRegisterFunction(void **handle, const char *host_function, char *device_function, const char *device_name,
                            int thread_limit, void *tid, void *bid, void *block, void *grid, int *warp_size)
{
    (void)handle, (void)device_function, (void)device_name, (void)thread_limit, (void)tid, (void)bid, (void)block;
    (void)grid, (void)warp_size;
    pthread_mutex_lock(&lock);
    if (registered_count < REGISTERED)
        registered[registered_count++] = host_function;
    pthread_mutex_unlock(&lock);
}
int cudaSetDevice(int device) { return result(device == 0 ? 0 : INVALID_DEVICE); }
int cudaStreamQuery(void *stream)
{
    (void)stream;
    pthread_mutex_lock(&lock);
    queries++;
    pthread_mutex_unlock(&lock);
    return 0;
}
int cudaEventQuery(void *event) { return cudaStreamQuery(event); }
int cudaEventCreateWithFlags(void **event, unsigned flags)
{
    (void)flags;
    *event = (void *)(uintptr_t)0xE7E7;
    return 0;
}
int cudaGetFuncBySymbol(void **function, const void *symbol)
{
    if (known_kernel(symbol))
        return result(INVALID_DEVICE_FUNCTION);
    *function = (void *)symbol; /* the driver's function is the host stub's address here */
    return 0;
}
int cudaFuncSetAttribute(const void *function, int attribute, int value)
{
    (void)attribute;
    if (known_kernel(function))
        return result(INVALID_DEVICE_FUNCTION);
    return result(value < 0 || value > MOST_SHARED_BYTES ? INVALID_VALUE : 0);
}
int cudaHostAlloc(void **pointer, size_t bytes, unsigned flags)
{
    (void)flags;
    *pointer = host_memory = calloc(1, bytes);
    return result(*pointer ? 0 : MEMORY_ALLOCATION);
}
int cudaGetLastError(void)
{
    const int error = last_error;
    last_error = 0;
    return error;
}
/* A kernel launch (<<<...>>>): the configuration pushed, popped by the stub,
 * then launched with the handle __cudaGetKernel gave: logged, never run. */
unsigned __cudaPushCallConfiguration(fake_dim3 grid, fake_dim3 block, size_t shared, void *stream)
{
    pushed = (fake_kernel_launch){stream, grid.x, block.x, shared};
    return 0;
}
int __cudaPopCallConfiguration(fake_dim3 *grid, fake_dim3 *block, size_t *shared, void **stream)
{
    *grid = (fake_dim3){pushed.grid_x, 1, 1};
    *block = (fake_dim3){pushed.block_x, 1, 1};
    *shared = pushed.shared;
    *stream = pushed.stream;
    return 0;
}
int __cudaLaunchKernel(const void *kernel, fake_dim3 grid, fake_dim3 block, void **args, size_t shared, void *stream)
{
    (void)args;
    if (known_kernel(kernel))
        return result(INVALID_DEVICE_FUNCTION);
    pthread_mutex_lock(&lock);
    if (kernel_launches < LOGGED)
        launched[kernel_launches] = (fake_kernel_launch){stream, grid.x, block.x, shared};
    kernel_launches++;
    pthread_mutex_unlock(&lock);
    return 0;
}
/* A kernel's handle for the launch stub (its first launch): the host stub's address here. */
int __cudaGetKernel(const void **kernel, const void *host_function)
{
    if (known_kernel(host_function))
        return result(INVALID_DEVICE_FUNCTION);
    *kernel = host_function;
    return 0;
}
int fake_records(void) { return records; }
long fake_queries(void)
{
    pthread_mutex_lock(&lock);
    const long n = queries;
    pthread_mutex_unlock(&lock);
    return n;
}
int fake_kernel_launches(void)
{
    pthread_mutex_lock(&lock);
    const int n = kernel_launches;
    pthread_mutex_unlock(&lock);
    return n;
}
fake_kernel_launch fake_kernel_launch_at(int i) { return launched[i]; }
void *fake_host_memory(void) { return host_memory; }
int fake_blocking_copies(void) { return blocking_copies; }
void *fake_created_stream(void) { return created_stream; }
