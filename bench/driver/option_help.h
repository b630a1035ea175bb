/* The flags part of a command's --help, from its rows: each flag it takes,
 * by section, with its default. */
#ifndef HB_OPTION_HELP_H
#define HB_OPTION_HELP_H

#include <stdio.h>

#include "bench/driver/option_row.h"

void hb_option_help_print(FILE *out, const hb_option_group *const *groups);

/* The default a row's --help line names, into `out` ("" when it names none). */
void hb_option_shown_default(const hb_option_row *o, char *out, size_t size);

#endif
