/* What the launch recorder saw: the record the stand-in runtime
 * (record_runtime.c, built as build/libhb_record_cudart.so) fills while a
 * CUDA-L2 launcher runs on the CPU, and the recorder program
 * (record_main.c, build/hgemm-l2-record) reads back and writes out as JSON.
 * Shared by those two only; the importer reads the JSON
 * (bench/import/launch_recording.h). */
#ifndef HB_RECORDING_H
#define HB_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#include "bench/import/kernel_signature.h"

#define HB_REC_MAX_LAUNCHES 16
#define HB_REC_MAX_CALLS 64
#define HB_REC_NAME_MAX 8192 /* CuTe kernels' mangled names run to thousands of characters */

/* One kernel launch, whichever API made it. */
typedef struct hb_recorded_launch {
    char api[32];                  /* "<<<>>>", "cudaLaunchKernel", "cudaLaunchKernelEx", "cudaLaunchCooperativeKernel" */
    char kernel[HB_REC_NAME_MAX];  /* the device name registered for it (mangled), or "?" */
    char demangled[HB_REC_NAME_MAX];
    unsigned grid[3], block[3];
    unsigned cluster[3];           /* 0 0 0: no cluster attribute */
    uint64_t smem;                 /* dynamic shared memory, bytes */
    uintptr_t stream;              /* the cudaStream_t, as a number */
    hb_kernel_signature signature; /* from the demangled name; count 0 and no types for extern "C" */
    int have_signature;
    uint64_t value[HB_SIGNATURE_MAX_PARAMS]; /* each plain argument's value, zero-extended */
} hb_recorded_launch;

/* A runtime call other than a launch, with a detail ("MaxDynamicSharedMemorySize=98304"); repeats counted. */
typedef struct hb_recorded_call {
    char name[48];
    char detail[96];
    unsigned count;
} hb_recorded_call;

/* The device the stand-in describes when host code asks. */
typedef struct hb_recorded_device {
    int sm;                        /* 10*major + minor */
    int sms;                       /* multiprocessors */
    size_t smem_per_block_optin;   /* bytes */
    size_t smem_per_sm;            /* bytes */
    size_t l2_bytes;
} hb_recorded_device;

typedef struct hb_recording {
    int active;                    /* 1 while the entry runs: calls outside (constructors) are not listed */
    hb_recorded_device device;
    hb_recorded_launch launches[HB_REC_MAX_LAUNCHES];
    size_t n_launches;             /* all launches; only the first HB_REC_MAX_LAUNCHES are kept */
    hb_recorded_call calls[HB_REC_MAX_CALLS];
    size_t n_calls;
    size_t device_queries;         /* calls that asked about the device (SM count, shared memory, ...) */
    uint64_t next_alloc;           /* the stand-in's next fake device address */
} hb_recording;

/* The stand-in's record (exported by libhb_record_cudart.so). */
hb_recording *hb_recording_state(void);
/* Forgets the launches and calls (not the registrations) before a new call. */
void hb_recording_clear(void);

#endif
