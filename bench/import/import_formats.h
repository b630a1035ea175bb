/* The one table of import formats (bench/import/import_format.h): a row
 * per format, each format's code in bench/import/<format>/.  `import` and
 * `reproduce` take a format's name as their operand and look it up here. */
#ifndef HB_IMPORT_FORMATS_H
#define HB_IMPORT_FORMATS_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/import/import_format.h"

/* The rows, NULL-terminated. */
extern const hb_import_format *const hb_import_formats[];

/* The format named `name`, or NULL. */
const hb_import_format *hb_import_format_find(const char *name);

/* The format `name` names for `command` ("import", "reproduce"); an unknown
 * or missing name is HB_ERR_USAGE naming the nearest known one, if one is
 * near, and every format with its description. */
hb_status hb_import_format_lookup(const char *command, const char *name, const hb_import_format **out);

#endif
