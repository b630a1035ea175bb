/* Words laid out in lines of a width, for --help texts. */
#ifndef HB_TEXT_WRAP_H
#define HB_TEXT_WRAP_H

#include <stdio.h>

/* Prints `text` in lines of at most `width` columns (a longer word gets a
 * line of its own), each line after the first indented by `indent` spaces;
 * the first starts where the cursor is, `first_column` columns in.  Ends
 * with a newline. */
void hb_print_wrapped(FILE *out, const char *text, int first_column, int indent, int width);

#endif
