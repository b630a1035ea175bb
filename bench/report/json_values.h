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

/* 1 when `value` is text a JSON file can hold as it is (valid UTF-8). */
int hb_json_text_is_valid(const char *value);

/* Makes `value` valid UTF-8 in place, for a text that must read the same in
 * a JSON file and another (a sweep's journal line and its summary.csv row):
 * a character cut short at the end (snprintf into a fixed field) is dropped;
 * any other invalid text has every byte >= 0x80 made '?', as hb_json_text
 * writes it.  Valid text is left as it is. */
void hb_json_text_repair(char *value);

/* A real, or null where the figure does not apply (NaN or infinite). */
json_t *hb_json_number(double value);

#endif
