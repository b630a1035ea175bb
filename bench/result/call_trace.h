/* What the call monitor saw of a participant's calls (docs/trace.md): for
 * each call the kernels it ran, its copies and sets, and the CUDA runtime
 * and driver API calls of the classes that make conduct (bench/result/
 * api_class.h) made inside it; and the judge that turns a participant's
 * calls into its kernel-only time and its conduct findings
 * (bench/result/conduct.h, bench/result/conduct_tally.h).  Plain data, no
 * CUDA: the trace layer (bench/trace/) fills it, the trace file
 * (bench/report/trace_file.h) and the results read it.  Times are CUPTI
 * timestamps, nanoseconds, one clock for host and device records. */
#ifndef HB_CALL_TRACE_H
#define HB_CALL_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/result/api_class.h"
#include "bench/result/conduct.h"

#define HB_TRACE_MAX_CALLS 8         /* calls of one participant kept whole for trace.json, the first included */
#define HB_TRACE_MAX_KERNELS 128     /* kernels kept per call (an autotuning first call runs many) */
#define HB_TRACE_MAX_COPIES 32       /* copies and sets kept per call */
#define HB_TRACE_MAX_API 256         /* API calls kept per call */
#define HB_TRACE_KERNEL_NAME 256     /* bytes of a kernel's (mangled) name kept */
#define HB_TRACE_DISPLAY_NAME 80     /* bytes of a kernel's short name, for the lines of the findings */
#define HB_TRACE_API_NAME 64

/* One kernel as CUPTI's kernel record describes it. */
typedef struct hb_traced_kernel {
    char name[HB_TRACE_KERNEL_NAME]; /* mangled, as the module names it; cut at HB_TRACE_KERNEL_NAME - 1 bytes */
    char display_name[HB_TRACE_DISPLAY_NAME]; /* demangled, no return type, template arguments or parameters
                                                 ("fill_normal_kernel"); "": use name */
    int grid[3], block[3];
    unsigned cluster[3];             /* 0 0 0: launched without a cluster */
    int registers;                   /* per thread */
    int static_smem, dynamic_smem;   /* bytes per block */
    uint32_t stream_id;              /* CUPTI's stream id (not a cudaStream_t) */
    uint32_t correlation_id;         /* the API call that launched it */
    uint64_t start_ns, end_ns;       /* 0 0: CUPTI could not time it */
} hb_traced_kernel;

typedef enum hb_copy_kind {
    HB_COPY_UNKNOWN, HB_COPY_HTOD, HB_COPY_DTOH, HB_COPY_DTOD, HB_COPY_HTOH, HB_COPY_PEER,
    HB_COPY_ARRAY, /* to or from a CUDA array */
    HB_COPY_MEMSET,
    HB_N_COPY_KINDS
} hb_copy_kind;

/* "unknown", "HtoD", "DtoH", "DtoD", "HtoH", "peer", "array", "memset". */
const char *hb_copy_kind_name(hb_copy_kind kind);

/* One copy or set. */
typedef struct hb_traced_copy {
    hb_copy_kind kind;
    uint64_t bytes;
    uint32_t stream_id, correlation_id;
    uint64_t start_ns, end_ns;
} hb_traced_copy;

typedef enum hb_api_domain { HB_API_RUNTIME, HB_API_DRIVER } hb_api_domain;

/* One CUDA runtime or driver API call. */
typedef struct hb_traced_api {
    char name[HB_TRACE_API_NAME]; /* hb_api_display_name of CUPTI's callback name */
    hb_api_class api_class;       /* hb_api_classify(name) */
    hb_api_domain domain;
    unsigned cbid;                /* CUPTI's callback id in its domain */
    uint32_t thread_id;           /* CUPTI's thread id: the caller's thread */
    uint32_t correlation_id;      /* its kernels, copies and sets carry it */
    uint32_t return_value;        /* cudaError_t or CUresult */
    int nested;                   /* 1: made inside another API call of the same thread (cudaMalloc's cuMemAlloc_v2):
                                     the judge counts the outer call only */
    uint64_t start_ns, end_ns;
} hb_traced_api;

/* Which of the harness's calls it was: the correctness battery's, the
 * warm-up window's or the timed window's (spot-checked rounds included),
 * or one of a timed round CUPTI also read the events of (cross-checked:
 * left out of the statistics; bench/measure/cross_check_rounds.h).  Only
 * the harness knows the kind: the participant's code is called alike. */
typedef enum hb_call_kind { HB_CALL_CHECK, HB_CALL_WARMUP, HB_CALL_TIMED, HB_CALL_CROSS_CHECKED } hb_call_kind;

/* "check", "warm-up", "timed", "cross-checked". */
const char *hb_call_kind_name(hb_call_kind kind);

/* One call: launch(p, io, timed_stream) and the device work it made.  The
 * device is idle at window_start (the harness synchronized it) and again at
 * window_end, so every kernel, copy and set that starts inside the window is
 * the call's; an API call is the call's when the participant's own code made
 * it (on the harness's thread between launch_start and launch_end) or when
 * another thread made it inside the window. */
typedef struct hb_call_trace {
    int index;                  /* 0: the participant's first call in the process */
    hb_call_kind kind;
    long sample;                /* a timed call's index among its participant's timed samples, a cross-checked one's
                                   among the cross-checked rounds; -1 otherwise */
    double wall_us;             /* window_end - window_start: the call from before its start event to after the
                                   device synchronize */
    uint64_t window_start_ns;   /* CUPTI clock before the start event */
    uint64_t launch_start_ns;   /* just before the participant's own code */
    uint64_t launch_end_ns;     /* just after it returned */
    uint64_t window_end_ns;     /* just after the device synchronize that ends the call */
    uint32_t timed_stream_id;   /* CUPTI's id of the stream the harness passed */
    uint64_t event_start_ns, event_stop_ns; /* the device timestamps CUPTI read of the harness's start and stop
                                               events (0: not seen): a clock apart from cudaEventElapsedTime */
    double event_us;            /* what cudaEventElapsedTime read of the same pair; NaN: not a timed call */
    int n_kernels, n_copies, n_api;                  /* kept, in start order */
    int kernels_dropped, copies_dropped, api_dropped; /* attributed but not kept: the arrays were full */
    hb_traced_kernel kernels[HB_TRACE_MAX_KERNELS];
    hb_traced_copy copies[HB_TRACE_MAX_COPIES];
    hb_traced_api api[HB_TRACE_MAX_API];
} hb_call_trace;

/* One participant's first calls, kept whole.  About 650 KB (82 KB a call):
 * allocate it, do not put it on the stack. */
typedef struct hb_participant_trace {
    char name[64];                         /* the participant's name */
    uint32_t timed_stream_id;              /* CUPTI's id of the stream the harness passed to launch */
    int calls;                             /* calls in call[] */
    unsigned long long records_dropped;    /* CUPTI records lost (buffers full or refused): findings may miss them */
    char device_state[200];                /* the participant's device_state after the calls ("" when nothing) */
    hb_call_trace call[HB_TRACE_MAX_CALLS];
} hb_participant_trace;

/* The name the lines of the findings use: display_name, else name. */
const char *hb_kernel_display_name(const hb_traced_kernel *kernel);

/* Kernels of a call, those not kept included. */
int hb_call_kernel_count(const hb_call_trace *call);

/* First kernel start to last kernel end, and the sum of the kernels'
 * durations, over the kept kernels CUPTI timed (microseconds; 0 without any). */
double hb_call_kernel_span_us(const hb_call_trace *call);
double hb_call_kernel_sum_us(const hb_call_trace *call);

/* The device's time between the harness's start and stop events as CUPTI
 * read them, microseconds; NaN when CUPTI did not report both. */
double hb_call_event_device_us(const hb_call_trace *call);

/* 1 when the API call started inside the call's window (start to end). */
int hb_call_api_inside(const hb_call_trace *call, const hb_traced_api *api);

/* 1 when two calls ran the same kernels: same names, grids and blocks, in the same order. */
int hb_calls_same_kernels(const hb_call_trace *a, const hb_call_trace *b);

/* The judge over the calls of one trace (bench/result/conduct_tally.h does
 * the work, over as many calls as the monitor sees): the kernel-only time
 * (medians over the later calls, the first call apart; with one call, that
 * call) and one line per finding (docs/trace.md, "Findings").  Pure. */
void hb_judge_conduct(const hb_participant_trace *trace, hb_kernel_time *time, hb_conduct *conduct);

#endif
