/* What the two files of the fake harness share (fake_harness.c: the cuBLAS
 * launchers' modes and main; fake_harness_driver.c: the modes of the
 * launchers that attack the driver and the process): a problem on host
 * memory, its launch, and what the stand-in libraries report. */
#ifndef FAKE_HARNESS_H
#define FAKE_HARNESS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "bench/candidate/hgemm_launch.h"

typedef struct fake_call {
    void *stream;
    int m, n, k;
} fake_call;

/* fake_cudart.c, fake_cublas.c */
int fake_records(void);
int fake_blocking_copies(void);
void *fake_created_stream(void);
int fake_gemm_ex_calls(void);
int fake_gemm_ex_refused(void);
fake_call fake_gemm_ex_call(int i);
int fake_lt_matmul_calls(void);

#define TIMED_STREAM ((cudaStream_t)(uintptr_t)0x57AB)

/* One problem: A, B, B_col, C and the reference, host memory, fp16. */
typedef struct problem {
    int m, n, k;
    _Float16 *a, *b, *b_col, *c, *ref;
    char error[512];
    struct hgemm_launch_args args;
} problem;

void reference(problem *p);
/* New inputs (values in [-3, 3] / 4), the reference, and C poisoned (0xFFFF). */
void fresh_inputs(problem *p);
void make_problem(problem *p, int m, int n, int k);
/* 1 when C is the reference, bit for bit; 0 when it is not; -1 when C is all poison. */
int c_state(const problem *p);
/* The launcher's call; 1 when it returned 0 (else its message is printed). */
int launch_ok(hgemm_launch_fn launch, problem *p);
double now_us(void);

/* fake_harness_driver.c: what the process holds before the launcher loads
 * (a pipe, as hgemm-bench's evaluating child has one to its parent); then
 * `mode` when it is one of its own (*ok: whether it went as the launcher's
 * fault says), 0 when it is not. */
void driver_attack_prepare(void);
int driver_attack_mode(const char *mode, void *lib, hgemm_launch_fn launch, int *ok);

#endif
