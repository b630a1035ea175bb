/* docs/cli.md's table of flags, made from the option rows (`hgemm-bench
 * help --markdown`): a row per option row, with the commands that take it,
 * its default and its meaning; tests/test_options.c holds the file to it. */
#ifndef HB_OPTION_DOC_H
#define HB_OPTION_DOC_H

#include <stdio.h>

/* The lines around the table in docs/cli.md, printed with it. */
#define HB_OPTION_DOC_BEGIN "<!-- options:begin: made by `hgemm-bench help --markdown`; edit the rows, not this -->"
#define HB_OPTION_DOC_END "<!-- options:end -->"

/* The table, between its marker lines: the rows in the order of the
 * commands that first take them, those of every command (--verbose) last. */
void hb_option_doc_print(FILE *out);

#endif
