/* A text cell of a CSV file the harness writes, safe to open in a
 * spreadsheet (docs/results.md, "Text cells"): a cell whose text starts
 * with = + - @, a tab, a carriage return or a line feed is read by
 * spreadsheet programs as a formula (CSV injection: =HYPERLINK(...),
 * @SUM(...), -2+3), so it is written after a single quote, which they take
 * as "this is text".  A text that starts with a quote itself gets one more,
 * so that taking one leading quote off (hb_csv_text_unguard) gives back
 * exactly the text that was written, whatever it was.
 *
 * Only text cells are guarded: a number the harness formats ("-0.25",
 * "+12.34") is a number to a spreadsheet too, and is written as it is. */
#ifndef HB_CSV_TEXT_H
#define HB_CSV_TEXT_H

#include <stddef.h>

/* 1: `text` is written after a single quote. */
int hb_csv_text_guarded(const char *text);

/* A cell as read back: past the guard's quote where there is one (a quote
 * followed by a formula's first character or by another quote), else the
 * cell itself.  A cell of an older harness, never guarded, reads as it is. */
const char *hb_csv_text_unguard(const char *cell);

/* The same for a cell of `length` bytes that need not end in a NUL (a
 * parser's field): how many bytes the guard takes, 1 or 0. */
size_t hb_csv_text_guard_bytes(const char *cell, size_t length);

#endif
