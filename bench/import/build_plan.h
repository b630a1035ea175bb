/* The order the import starts its builds in (docs/importer.md, "Building
 * a whole set").  An import lasts at
 * least as long as its slowest build, and a slow build started last ends
 * last: the builds start costliest first (longest processing time first,
 * which ends within 4/3 of the best order's time), each build's cost
 * predicted from the earlier builds of the same file (the build history,
 * bench/import/build_history.h), else from the earlier builds of files of
 * its kind, scaled by its format's model (bench/import/import_format.h:
 * build_cost_s), else from that model alone.  Plain data: no file is read
 * here. */
#ifndef HB_BUILD_PLAN_H
#define HB_BUILD_PLAN_H

#include <stddef.h>

#include "bench/core/file_digest.h"

/* One earlier build, as the history keeps it. */
typedef struct hb_build_record {
    char source_sha256[HB_SHA256_HEX]; /* the file's content */
    char kind[32];                     /* its format's kind ("adapter") */
    double seconds;                    /* its build's wall time */
    double model_s;                    /* what its format's model said of it (build_cost_s) */
} hb_build_record;

/* Where a prediction came from. */
typedef enum hb_prediction_basis {
    HB_PREDICTED_BY_FILE,  /* an earlier build of the same content: its last time */
    HB_PREDICTED_BY_KIND,  /* the model, scaled by the median of time/model of earlier builds of the kind */
    HB_PREDICTED_BY_HOST,  /* the model, scaled by the median of time/model of every earlier build */
    HB_PREDICTED_BY_MODEL  /* no history: the format's model */
} hb_prediction_basis;

/* A file's predicted build time in seconds, from the `n` records of the
 * history (in the order they were written: a later record of the same
 * file wins), its content's SHA-256, its kind and its model's figure. */
double hb_build_predict_s(const hb_build_record *history, size_t n, const char *source_sha256, const char *kind,
                          double model_s, hb_prediction_basis *basis);

/* order[0..n) := 0..n-1 sorted by predicted time, longest first; equal
 * predictions keep their given order (stable). */
void hb_build_order(const double *predicted_s, size_t n, size_t *order);

#endif
