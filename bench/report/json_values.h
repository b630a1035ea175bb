/* The values every JSON writer of the results makes the same way (verdict.json,
 * trace.json, the profile object): text that never makes its key vanish, and
 * numbers that are null where they do not apply. */
#ifndef HB_JSON_VALUES_H
#define HB_JSON_VALUES_H

#include <jansson.h>

/* A JSON string of `value`; bytes that are not valid UTF-8 (a path, a
 * reason or a kernel name cut mid-character) become '?' rather than the
 * string failing and its key going missing.  NULL only when out of memory. */
json_t *hb_json_text(const char *value);

/* A real, or null where the figure does not apply (NaN or infinite). */
json_t *hb_json_number(double value);

#endif
