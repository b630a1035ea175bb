/* verdict.json: the machine-readable outcome of a run, for pipelines that
 * gate generated kernels.  Format documented in docs/gate.md
 * ("hgemm-bench-verdict/1"). */
#ifndef HB_VERDICT_FILE_H
#define HB_VERDICT_FILE_H

#include <jansson.h>

#include "bench/report/sink.h"
#include "bench/result/run_record.h"

/* Writes the verdict document to `path` (atomically). */
hb_status hb_verdict_file_write(const char *path, const hb_run_record *run, const hb_run_outcome *outcome);

/* One configuration's item of the document's "configs" (a new reference):
 * what --json prints per line too.  `forbidden`: the conduct findings the
 * gate refuses (hb_gate_forbidden_findings), to mark them in "conduct". */
json_t *hb_verdict_config_json(const hb_config_result *r, const char *vs, unsigned forbidden);

/* A sink that writes <run folder>/verdict.json when the run ends, and the
 * same document to `extra_path` (--verdict) unless it is NULL. */
hb_sink hb_verdict_sink(const char *extra_path);

#endif
