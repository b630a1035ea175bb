/* A participant's conduct over all of its calls, folded one call at a time
 * (docs/trace.md, "Findings"): the call monitor sees every call of every
 * participant, checked, warm-up and timed (a 30 s window at 64^3 makes about
 * a million), so it keeps counts and a few names rather than the calls
 * themselves; the first call is kept whole, as first-call compares it with
 * the later ones.  The judge turns a tally into one line per finding.  Plain
 * data, no CUDA: tests fold made-up calls. */
#ifndef HB_CONDUCT_TALLY_H
#define HB_CONDUCT_TALLY_H

#include <stdint.h>

#include "bench/result/call_trace.h"
#include "bench/result/conduct.h"
#include "bench/result/library_kernel.h"

#define HB_TALLY_NAMES 8   /* distinct names a line lists; more are counted as "+N more" */
#define HB_TALLY_STREAMS 8 /* distinct other streams listed */
#define HB_TALLY_KERNELS 16 /* distinct kernel names kept whole (library-kernel) */

/* Distinct names in order of first sight, with their counts. */
typedef struct hb_name_tally {
    int n, more;
    char name[HB_TALLY_NAMES][HB_TRACE_DISPLAY_NAME];
    int count[HB_TALLY_NAMES];
} hb_name_tally;

/* The calls of one API class (alloc, sync, create) made inside the calls. */
typedef struct hb_class_tally {
    int with;              /* calls that made at least one */
    int uniform;           /* every call so far made the same list as the first */
    hb_name_tally first;   /* the first call's list */
    hb_name_tally total;   /* over every call */
} hb_class_tally;

typedef struct hb_conduct_tally {
    int calls;                    /* calls folded, the first included */
    int timed_calls;
    unsigned long long records_dropped;
    /* other-stream */
    long long kernels, other_kernels, copies, other_copies;
    int other_stream_calls;       /* calls with work on another stream */
    hb_name_tally other_names;
    int n_streams, more_streams;
    uint32_t streams[HB_TALLY_STREAMS];
    uint32_t timed_stream_id;     /* the first call's */
    /* alloc, sync, create: indexed by hb_api_class */
    hb_class_tally api[HB_N_API_CLASSES];
    /* first-call */
    hb_call_trace *first;         /* the first call, kept whole (owned; hb_conduct_tally_free) */
    int first_matched;            /* a later call ran the same kernels as the first */
    hb_name_tally second_kernels; /* the second call's kernels, for the line */
    int second_kernel_count;
    /* multi-kernel */
    int max_kernels;              /* kernels of a later call, the largest count */
    hb_name_tally max_kernel_names;
    /* library-kernel: distinct kernel names, kept whole */
    int n_kernel_names, more_kernel_names;
    char kernel_name[HB_TALLY_KERNELS][HB_TRACE_KERNEL_NAME];
    long long kernel_name_count[HB_TALLY_KERNELS];
} hb_conduct_tally;

void hb_conduct_tally_init(hb_conduct_tally *tally);
void hb_conduct_tally_free(hb_conduct_tally *tally);

/* Folds one call (calls in order: the first call first).  0, or -1 when the
 * first call cannot be kept (out of memory). */
int hb_conduct_tally_add(hb_conduct_tally *tally, const hb_call_trace *call);

/* The candidate's findings from its tally (`time` for host-time, `device_state`
 * as after_call left it, `library` the kernel names the baselines ran). */
void hb_judge_tally(const hb_conduct_tally *tally, const hb_kernel_time *time, const char *device_state,
                    const hb_library_names *library, hb_conduct *conduct);

/* The kernel-only time from per-call spans, sums and wall times
 * (microseconds, NaN where a call had no timed kernel), the first call's
 * span and the calls' largest kernel count.  traced 0 when n is 0. */
void hb_kernel_time_of(const double *span_us, const double *sum_us, const double *wall_us, int n, int from_timed,
                       const hb_conduct_tally *tally, hb_kernel_time *time);

#endif
