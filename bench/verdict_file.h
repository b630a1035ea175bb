/* verdict.json: the machine-readable outcome of a run (protocol section
 * 7), for pipelines that gate generated kernels.  Format documented in
 * docs/gate.md ("hgemm-bench-verdict/1"). */
#ifndef HB_VERDICT_FILE_H
#define HB_VERDICT_FILE_H

#include "config_result.h"

typedef struct hb_verdict_summary {
    const char *command;      /* "run", "check" or "gate" */
    const char *run_id;
    const char *run_path;
    const hb_run_options *options;
    hb_status status;         /* the run's exit status */
    const hb_config_result *results; /* one per configuration evaluated */
    size_t count;
} hb_verdict_summary;

/* Writes the verdict document to `path` (atomically). */
hb_status hb_verdict_file_write(const char *path, const hb_verdict_summary *summary);

/* The overall verdict name for an exit status ("pass", "incorrect", ...). */
const char *hb_overall_verdict(hb_status status, const hb_config_result *results, size_t count);

/* The reason of the first configuration with that status ("" for HB_OK). */
const char *hb_overall_reason(hb_status status, const hb_config_result *results, size_t count);

#endif
