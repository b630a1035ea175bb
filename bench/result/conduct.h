/* A participant's conduct inside its calls, as the call monitor saw them
 * (docs/results.md, "Conduct"): what its host code did beside computing the
 * product, one finding per kind.  And the kernel-only time of its calls, the
 * third timer beside CUDA events and the host wall clock.  Plain data: the
 * trace layer fills it (bench/trace/), the writers and the gate read it. */
#ifndef HB_CONDUCT_H
#define HB_CONDUCT_H

#include <stddef.h>

/* The kinds of finding, in the order results list them.  Names are stable:
 * `gate --forbid` takes them and verdict.json carries them. */
typedef enum hb_finding {
    HB_FINDING_OTHER_STREAM,  /* a kernel, copy or set on a stream other than the timed one */
    HB_FINDING_ALLOC,         /* device or host allocation or free inside the call */
    HB_FINDING_SYNC,          /* device, stream or event synchronization inside the call */
    HB_FINDING_CREATE,        /* a stream, event or graph created or destroyed inside the call */
    HB_FINDING_FIRST_CALL,    /* the first call launched other kernels than the later calls (first-call tuning) */
    HB_FINDING_DEVICE_STATE,  /* the call changed device state the harness relies on (reset by the harness) */
    HB_FINDING_THREAD,        /* a thread of its own ran during the timed window (bench/core/thread_watch.h) */
    HB_FINDING_MULTI_KERNEL,  /* more than one kernel per call (informational) */
    HB_FINDING_HOST_TIME,     /* host time outside any kernel, wall - kernel span (informational) */
    HB_FINDING_LIBRARY_KERNEL, /* its kernels are cuBLAS's or cuBLASLt's (informational; --forbid takes it) */
    /* Read from the candidate's file, not from its calls (bench/result/mma_audit.h): */
    HB_FINDING_FP16_MMA_ONLY,  /* claims fp32, but every MMA of its SASS accumulates in fp16 (informational) */
    HB_FINDING_FP16_SIMT_ONLY, /* claims fp32, has no MMA, and its only arithmetic is fp16 (HFMA2; informational) */
    HB_N_FINDINGS
} hb_finding;

#define HB_FINDING_BIT(f) (1u << (unsigned)(f))

/* "other-stream", "alloc", "sync", "create", "first-call", "device-state",
 * "thread", "multi-kernel", "host-time", "library-kernel", "fp16-mma-only",
 * "fp16-simt-only". */
const char *hb_finding_name(hb_finding finding);

/* 1 and *out set when `name` is a finding's name. */
int hb_finding_parse(const char *name, hb_finding *out);

/* The findings `gate --strict` forbids: every kind that moves work or cost
 * outside the timed kernel (all but multi-kernel, host-time, library-kernel
 * and the static ones, which describe a call or a file rather than fault it). */
unsigned hb_finding_strict_mask(void);

/* The findings read from the candidate's file (fp16-mma-only,
 * fp16-simt-only): they stand without a trace. */
unsigned hb_finding_static_mask(void);

/* A comma-separated list of finding names (`--forbid`) as a mask; 0 and
 * `bad` pointing at the first unknown name on error. */
int hb_finding_parse_list(const char *list, unsigned *mask, char *bad, size_t bad_size);

#define HB_CONDUCT_LINE 256

/* The candidate's findings, one line each in results and verdict.json. */
typedef struct hb_conduct {
    int traced;                           /* 1: the call monitor watched and judged this configuration */
    int calls;                            /* calls judged, every kind, the first included */
    unsigned found;                       /* HB_FINDING_BIT of each finding */
    char line[HB_N_FINDINGS][HB_CONDUCT_LINE]; /* indexed by hb_finding; "" when not found */
} hb_conduct;

/* Kernel-only time of one participant (microseconds): over its timed calls
 * when it was timed, else over its calls after the first. */
typedef struct hb_kernel_time {
    int traced;                 /* 1: figures below are measured; 0: no trace (no CUPTI, --no-trace, failed) */
    int calls;                  /* calls the medians below are over */
    int from_timed;             /* 1: the timed calls (paired with their event and wall samples) */
    double span_us;             /* median: first kernel start to last kernel end of a call */
    double span_p10_us, span_p90_us; /* its spread */
    double sum_us;              /* median: sum of the kernels' durations */
    double first_span_us;       /* the first call's span */
    double wall_us;             /* median wall time of the same calls */
    double host_us;             /* wall_us - span_us: host time outside any kernel */
    int kernels_per_call;       /* kernels of a later call (the largest count among them) */
    int first_call_kernels;     /* kernels of the first call */
} hb_kernel_time;

/* The finding `f` with its line (printf-style), replacing an earlier one. */
void hb_conduct_add(hb_conduct *conduct, hb_finding f, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The findings of `mask` by name, "a,b" (the first `size` bytes); "" for none. */
void hb_finding_names(unsigned mask, char *out, size_t size);

/* The lines of the findings found in `mask`, joined by `separator` (as much as fits). */
void hb_conduct_lines(const hb_conduct *conduct, unsigned mask, const char *separator, char *out, size_t size);

#endif
