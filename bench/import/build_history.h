/* The build history: a line of JSON per build the imports sharing a cache
 * ran (CACHE/build-history.jsonl, beside the entries), so that a later
 * import can predict what a file costs (bench/import/build_plan.h) even
 * after its entry is gone (--rebuild, another nvcc or CUTLASS, a timeout).
 * A line: {"source_sha256", "file" (M_N_K), "kind", "source_bytes",
 * "seconds", "model_s", "built", "peak_rss_mib", "stages":
 * {"front_end": s, "cicc": s, ...}, "nvcc"}.  The import's parent appends
 * one line with one write(2) as each build ends (O_APPEND: the shards of a
 * reproduction sharing a cache interleave whole lines).  Removing the file
 * only loses the predictions. */
#ifndef HB_BUILD_HISTORY_H
#define HB_BUILD_HISTORY_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/import/build_plan.h"
#include "bench/import/build_stages.h"

#define HB_BUILD_HISTORY_FILE "build-history.jsonl"

/* One build as appended. */
typedef struct hb_build_history_line {
    const char *source_sha256;
    const char *file;       /* "M_N_K" */
    const char *kind;
    size_t source_bytes;
    double seconds;
    double model_s;
    int built;
    double peak_rss_mib;    /* the largest process of the build (getrusage of its children); 0: unknown */
    const hb_build_stages *stages;
    const char *nvcc;       /* nvcc --version's last line */
} hb_build_history_line;

/* The records of `cache_dir`'s history into *records (malloc'd; free it),
 * in the order written; lines that do not read as a record are passed
 * over.  No history is HB_OK with none. */
hb_status hb_build_history_read(const char *cache_dir, hb_build_record **records, size_t *n);

/* Appends one line; HB_ERR_IO naming the file when it cannot. */
hb_status hb_build_history_append(const char *cache_dir, const hb_build_history_line *line);

#endif
