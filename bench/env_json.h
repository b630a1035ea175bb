/* env.json: where and how a run was made (protocol section 6), so a reader
 * can reproduce it or see why two runs differ. */
#ifndef HB_ENV_JSON_H
#define HB_ENV_JSON_H

#include "cli.h"
#include "device_info.h"

typedef struct hb_run_context {
    const char *run_id;
    const char *command_line;
    const hb_run_options *options;
    const hb_device_info *device;
    const char *acc_class;
    const char *started_utc;
} hb_run_context;

/* Writes `path` atomically (temporary file, then rename). */
hb_status hb_env_json_write(const char *path, const hb_run_context *ctx);

/* The harness's git commit, baked in at build time ("unknown" outside git). */
const char *hb_harness_commit(void);

#endif
