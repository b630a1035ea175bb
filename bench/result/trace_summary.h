/* What a configuration's trace pass hands back to the run (docs/results.md,
 * "Kernel time and conduct"): each participant's kernel-only time and the
 * candidate's conduct, or why there is none.  The pass runs in a child of
 * its own (bench/driver/trace_pass.c); this is the plain data that crosses
 * the pipe, and its merge into the configuration's result.  No CUDA. */
#ifndef HB_TRACE_SUMMARY_H
#define HB_TRACE_SUMMARY_H

#include <stddef.h>

#include "bench/result/conduct.h"
#include "bench/result/config_result.h"
#include "bench/result/participant_desc.h"

typedef struct hb_trace_summary {
    int ran;                                   /* 1: the pass traced every participant */
    char note[256];                            /* when it did not: why ("CUPTI not found: ...", "--no-trace") */
    char file[4096];                           /* the trace file, every traced call (hgemm-bench-trace/1) */
    size_t count;
    char name[HB_MAX_PARTICIPANTS][64];        /* participant names, as in the result */
    hb_kernel_time kernel[HB_MAX_PARTICIPANTS];
    hb_conduct conduct;                        /* the candidate's */
} hb_trace_summary;

/* Records into `r`: every participant's kernel time (a -max row takes its
 * variant's), the speedup on kernel time of the candidate over each baseline
 * (t_b / t_c - 1 on the medians of the later calls' kernel spans), the
 * candidate's conduct, and the note.  Participants the trace does not name
 * keep no kernel time. */
void hb_trace_summary_apply(hb_config_result *r, const hb_trace_summary *trace);

/* The kernel-time speedup of participant `p` in `r`; NaN when either side
 * was not traced or the candidate's span is 0. */
double hb_kernel_speedup(const hb_config_result *r, const hb_participant_result *p);

#endif
