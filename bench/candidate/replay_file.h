/* A replay on disk (docs/launchers.md, "The replay form"): a folder with
 * replay.json (`hgemm-bench-replay/1`, the plan of bench/result/replay_plan.h,
 * parameter bytes in hex) and the cubins it names (module-<i>.cubin, each
 * with its SHA-256 in replay.json).  A replay folder is data the harness
 * reads back into the process that times it: every field is checked against
 * the plan's limits and every cubin against its digest, and anything else is
 * HB_ERR_BAD_INPUT naming the file and the field. */
#ifndef HB_REPLAY_FILE_H
#define HB_REPLAY_FILE_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/replay_plan.h"

#define HB_REPLAY_FILE "replay.json"

/* Writes `plan` to folder/replay.json (created; the folder must exist), and
 * each module's bytes (cubins[i], sizes[i]) to folder/<modules[i].file>,
 * filling modules[i].sha256 and .bytes first.  A refused plan is written
 * too (its refusal and reason, no operations): the record of why. */
hb_status hb_replay_write(const char *folder, hb_replay_plan *plan, const void *const *cubins, const size_t *sizes);

/* Reads folder/replay.json into `plan` (from hb_replay_plan_new) and checks
 * every cubin's digest. */
hb_status hb_replay_read(const char *folder, hb_replay_plan *plan);

/* folder/<module's file>. */
void hb_replay_module_path(const char *folder, const hb_replay_module *module, char *out, size_t size);

#endif
