/* A stand-in for the CUDA runtime, libcudart.so.N (tests/broken_launchers_cpu.sh):
 * what the cuBLAS broken launchers import from it, on the CPU, where "device
 * memory" is host memory.  Events are opaque pointers and every interval is
 * 4 ms; the device is a compute capability 9.0; copies are memcpy; a stream
 * is a name.  Loose prototypes (ints for enums): the callers pass the real
 * ones' arguments. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
void **__cudaRegisterFatBinary(void *fatbin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void);
int __cudaPopCallConfiguration(void);
int __cudaLaunchKernel(void);
int __cudaGetKernel(void);
int fake_records(void);
int fake_blocking_copies(void);
void *fake_created_stream(void);

static int records, blocking_copies;
static void *created_stream;

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
    (void)attribute, (void)device;
    *value = 9;
    return 0;
}
int cudaMalloc(void **pointer, size_t bytes)
{
    *pointer = calloc(1, bytes);
    return *pointer ? 0 : 2; /* cudaErrorMemoryAllocation */
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
void __cudaRegisterFunction(void) {}
int __cudaPopCallConfiguration(void) { return 1; }
int __cudaLaunchKernel(void) { return 1; }
int __cudaGetKernel(void) { return 1; }
int fake_records(void) { return records; }
int fake_blocking_copies(void) { return blocking_copies; }
void *fake_created_stream(void) { return created_stream; }
