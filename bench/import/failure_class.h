/* Why a file did not build, as one word for import.csv's failure_class
 * column: timeout, toolkit-api-change, compile-error, link-error,
 * record-failed or build-process-failed, and for toolkit-api-change the API
 * that changed.  A toolkit API change is a file written for another CUDA
 * (CUDA-L2's were written for CUDA 12: two of them call
 * cudaMemPrefetchAsync with an int device, which CUDA 13 takes as a
 * cudaMemLocation); it builds with that toolkit (--nvcc, CUDA_HOME), so it
 * is not the file's fault the way a compile error is. */
#ifndef HB_FAILURE_CLASS_H
#define HB_FAILURE_CLASS_H

#include <stddef.h>

#include "bench/import/build_job.h"

typedef struct hb_failure_class {
    const char *name; /* "" when the build did not fail */
    char api[200];    /* toolkit-api-change: the API and the change; else "" */
} hb_failure_class;

/* From a failed outcome and its build log (`log_path`, may be NULL or
 * unreadable: the outcome's first error line is read instead). */
void hb_failure_classify(const hb_build_outcome *outcome, const char *log_path, hb_failure_class *out);

/* The API change an error line names, from the table; NULL when none. */
const char *hb_toolkit_api_change(const char *error_line);

#endif
