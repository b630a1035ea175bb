/* Writing a JSON document to disk atomically: a reader (a pipeline polling
 * for verdict.json) sees the old file or the whole new one, never half; and
 * never through a link or into a FIFO planted at the path or beside it
 * (bench/core/out_file.h). */
#ifndef HB_JSON_FILE_H
#define HB_JSON_FILE_H

#include <jansson.h>

#include "bench/core/status.h"

/* Writes `root` (indented, keys in insertion order) to a
 * fresh temporary beside `path`, then renames it over `path`.  HB_ERR_IO
 * (a full disk included) leaves `path` as it was.  Does not take ownership
 * of root. */
hb_status hb_json_write_file(const char *path, const json_t *root);

#endif
