/* results/<run-id>/: one folder per run, never reused, so no run can
 * overwrite another's results. */
#ifndef HB_RUN_DIR_H
#define HB_RUN_DIR_H

#include "bench/core/status.h"

#define HB_RUN_ID_MAX 64

/* Creates `parent` if needed and a fresh `parent/<run-id>` in it, where
 * run-id is the UTC start time plus a suffix that makes it unique
 * ("20261121T101500Z-3f2a").  Writes both the id and the folder path. */
hb_status hb_run_dir_create(const char *parent, unsigned long long salt, char run_id[HB_RUN_ID_MAX],
                            char *path, unsigned path_size);

#endif
