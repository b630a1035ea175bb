/* verdict.json's `profile` of a configuration (docs/results.md): the tool,
 * its version, the pass's seconds and a row per kernel with the metric
 * table's keys (bench/result/kernel_profile.h); null when there is none,
 * profile_note then saying why. */
#ifndef HB_PROFILE_JSON_H
#define HB_PROFILE_JSON_H

#include <jansson.h>

#include "bench/result/kernel_profile.h"

/* A new reference: the object, or JSON null. */
json_t *hb_profile_json(const hb_profile_record *profile);

#endif
