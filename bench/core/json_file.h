/* Writing a JSON document to disk atomically: a reader (a pipeline polling
 * for verdict.json) sees the old file or the whole new one, never half. */
#ifndef HB_JSON_FILE_H
#define HB_JSON_FILE_H

#include <jansson.h>

#include "bench/core/status.h"

/* Writes `root` (indented, keys in insertion order) to path.tmp, then
 * renames it to path.  Does not take ownership of root. */
hb_status hb_json_write_file(const char *path, const json_t *root);

#endif
