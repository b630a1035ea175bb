/* hgemm_launch.h -- the launcher candidate's interface, ABI version 1
 * (docs/launchers.md).
 *
 * A launcher is a candidate whose host code comes with it: a shared library
 * (built with nvcc -shared -Xcompiler -fPIC) that exports one entry point,
 *
 *     int hgemm_launch(const struct hgemm_launch_args *args);
 *
 * which enqueues one product C = A * B on args->stream and returns.  The
 * harness times each call as it times a kernel (Listing 1: synchronize,
 * event, the call, event, synchronize), so everything the entry does inside
 * the call -- host code, allocations, synchronizations, several kernels -- is
 * charged to it.  The library also exports hgemm_launch_abi_version(), which
 * the harness calls once when it loads the library and refuses a library
 * built against another version of this header.
 *
 * This header depends only on <stddef.h>, <stdint.h> and <cuda_runtime_api.h>
 * and compiles as C11 and as C++11 or later, with the same layout (make
 * builds tests/data/launchers/ both ways with -pedantic-errors). */
#ifndef HGEMM_LAUNCH_H
#define HGEMM_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

/* Version of the layout and meaning of struct hgemm_launch_args and of the
 * return codes.  It changes when a field changes place or meaning; a field
 * added at the end of the struct leaves it as it is (struct_size tells a
 * library which fields the harness filled in). */
#define HGEMM_LAUNCH_ABI_VERSION 1

/* The names the harness looks up in the library (dlsym). */
#define HGEMM_LAUNCH_ABI_VERSION_SYMBOL "hgemm_launch_abi_version"
#define HGEMM_LAUNCH_DEFAULT_ENTRY "hgemm_launch" /* the manifest's "entry" may name another */

/* The accumulator class the manifest claims (docs/methodology.md, "Participants"). */
enum { HGEMM_LAUNCH_ACC_FP32 = 0, HGEMM_LAUNCH_ACC_FP16 = 1 };

/* What the entry returns.  HGEMM_LAUNCH_UNSUPPORTED: it declines this size or
 * this device (the configuration's verdict is "unsupported", exit 4).  Any
 * other nonzero value is a failure (verdict "crashed", check "execution",
 * exit 8, with the value and the message in the reason).  Put a one-line
 * message into args->error for either. */
enum { HGEMM_LAUNCH_OK = 0, HGEMM_LAUNCH_UNSUPPORTED = 1 };

/* One call's product.  Every pointer is device memory the harness owns
 * (cudaMalloc'd, 256-byte aligned, guard bands around it); fp16 elements,
 * rows tightly packed. */
struct hgemm_launch_args {
    uint32_t abi_version;   /* HGEMM_LAUNCH_ABI_VERSION of the harness */
    uint32_t struct_size;   /* sizeof(struct hgemm_launch_args) in the harness, bytes */
    const void *a;          /* A, M x K, row-major (leading dimension K); read only */
    const void *b;          /* B, K x N, row-major (leading dimension N); read only */
    const void *b_col;      /* the same B, column-major (leading dimension K); read only */
    void *c;                /* C, M x N, row-major (leading dimension N): the output, C = A * B */
    int64_t m, n, k;        /* the dimensions of a, b, b_col and c: rounded up to the manifest's padding */
    void *workspace;        /* workspace_bytes of scratch the manifest asks for, or NULL */
    size_t workspace_bytes; /* bytes */
    cudaStream_t stream;    /* the timed stream: enqueue everything here (it may be cudaStreamLegacy) */
    int accumulator;        /* HGEMM_LAUNCH_ACC_*: the class the manifest claims */
    char *error;            /* error_size bytes for a NUL-terminated one-line message on a nonzero return */
    size_t error_size;      /* bytes */
};

typedef int (*hgemm_launch_fn)(const struct hgemm_launch_args *args);
typedef int (*hgemm_launch_abi_version_fn)(void);

#ifdef __cplusplus
#define HGEMM_LAUNCH_EXTERN_C extern "C"
#else
#define HGEMM_LAUNCH_EXTERN_C
#endif

/* Exported even from a library built with -fvisibility=hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define HGEMM_LAUNCH_EXPORT __attribute__((visibility("default")))
#else
#define HGEMM_LAUNCH_EXPORT
#endif

HGEMM_LAUNCH_EXTERN_C HGEMM_LAUNCH_EXPORT int hgemm_launch_abi_version(void);

/* Defines hgemm_launch_abi_version() in the library, once, at file scope:
 *     HGEMM_LAUNCH_DEFINE_ABI_VERSION();
 * (the trailing declaration takes the semicolon, which ISO C forbids after a
 * function body at file scope). */
#define HGEMM_LAUNCH_DEFINE_ABI_VERSION()                                                                      \
    HGEMM_LAUNCH_EXTERN_C HGEMM_LAUNCH_EXPORT int hgemm_launch_abi_version(void) { return HGEMM_LAUNCH_ABI_VERSION; } \
    HGEMM_LAUNCH_EXTERN_C int hgemm_launch_abi_version(void)

/* The entry's head, unmangled and exported:
 *     HGEMM_LAUNCH_ENTRY(hgemm_launch) { ... return HGEMM_LAUNCH_OK; } */
#define HGEMM_LAUNCH_ENTRY(name) HGEMM_LAUNCH_EXTERN_C HGEMM_LAUNCH_EXPORT int name(const struct hgemm_launch_args *args)

#endif
