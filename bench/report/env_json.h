/* env.json: where and how a run was made (docs/results.md), so a reader can
 * reproduce it or see why two runs differ. */
#ifndef HB_ENV_JSON_H
#define HB_ENV_JSON_H

#include "bench/report/sink.h"
#include "bench/result/run_record.h"

/* Writes `path` atomically (temporary file, then rename). */
hb_status hb_env_json_write(const char *path, const hb_run_record *run);

/* A sink that writes <run folder>/env.json when the run begins. */
hb_sink hb_env_json_sink(void);

#endif
