/* What the results record of the baselines' clean-process reference
 * (bench/result/baseline_reference.h): where it came from, and what the
 * judgement in the candidate's process found.  Plain data, read by the
 * writers (summary.csv's baseline_reference columns, verdict.json's
 * `baseline_reference`). */
#ifndef HB_REFERENCE_RECORD_H
#define HB_REFERENCE_RECORD_H

#include <stddef.h>

#include "bench/result/reference_tolerance.h"

typedef enum hb_ref_source {
    HB_REF_NONE,     /* no reference, and `why` says why (check, --no-isolate, the GPU not read) */
    HB_REF_OFF,      /* --baseline-reference off */
    HB_REF_MEASURED, /* measured for this configuration in a clean process */
    HB_REF_CACHED    /* read from the reference cache (measured by an earlier run on this GPU, driver and harness) */
} hb_ref_source;

/* "none", "off", "measured", "cached". */
const char *hb_ref_source_name(hb_ref_source source);

/* The configuration's record (the candidate's row). */
typedef struct hb_reference_record {
    hb_ref_source source;
    char why[200];          /* HB_REF_NONE: why there is none */
    double seconds;         /* HB_REF_MEASURED: the clean process's wall time */
    int judged;             /* the baselines' figures in the candidate's process were judged against it */
    int held;               /* baselines judged */
    double worst_ratio;     /* the largest median over its reference among them */
    char worst[96];         /* whose and which timer: "torch wall" */
    char not_held[256];     /* the baselines not judged, and why */
} hb_reference_record;

/* A baseline's reference medians, microseconds (its row). */
typedef struct hb_ref_medians {
    int held;               /* 1: the figures below are its clean process's */
    double median_us[HB_REF_FIGURES]; /* event, wall, kernel; NaN: not timed */
} hb_ref_medians;

/* The summary's cell: the source's name, "none (why)" where there is none. */
void hb_reference_cell(const hb_reference_record *r, char *out, size_t size);

#endif
