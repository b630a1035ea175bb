/* A replay plan as the JSON of replay.json (`hgemm-bench-replay/1`,
 * bench/candidate/replay_file.h): the plan's every field, byte arrays
 * (parameters, launch attribute values, TMA descriptors) in lowercase hex,
 * targets and refusals by name.  The reader is strict: a replay folder is
 * untrusted data read into the process that times it. */
#ifndef HB_REPLAY_JSON_H
#define HB_REPLAY_JSON_H

#include <jansson.h>

#include "bench/core/status.h"
#include "bench/result/replay_plan.h"

/* The document of `plan` (a refused plan: its refusal, reason and
 * configuration, with empty tables); NULL when out of memory. */
json_t *hb_replay_plan_to_json(const hb_replay_plan *plan);

/* `root` into `plan` (zeroed by the caller), every field checked against
 * the plan's limits and every index against its table; HB_ERR_BAD_INPUT
 * naming `file` and the field otherwise.  Cubins are not read here. */
hb_status hb_replay_plan_from_json(const json_t *root, const char *file, hb_replay_plan *plan);

/* Whether `name` may name a module file beside replay.json: a plain name,
 * no '/', no "..", not hidden, shorter than hb_replay_module.file. */
int hb_replay_module_name_ok(const char *name);

#endif
