/* Every option row of this binary's commands, each once, in the order of
 * the commands that first take it (the order of docs/cli.md's table); who
 * takes a row or a flag; and the settings every row's default gives. */
#ifndef HB_OPTION_INDEX_H
#define HB_OPTION_INDEX_H

#include <stddef.h>

#include "bench/driver/command_line.h"
#include "bench/driver/option_row.h"

/* The number of rows, and the i-th (NULL past the last). */
size_t hb_option_count(void);
const hb_option_row *hb_option_row_at(size_t i);
/* The i-th row's flag (without "--"), NULL past the last. */
const char *hb_option_flag(size_t i);
/* 1 if `command` takes the i-th row. */
int hb_option_applies(size_t i, hb_command command);
/* 1 if `command` takes `flag` (by any row). */
int hb_option_flag_applies(const char *flag, hb_command command);
/* The i-th row's value in `run` as a child command line would write it (""
 * for a switch that is on); 0 if it has none there, or no single value (--mnk, --qps). */
int hb_option_value_text(size_t i, const hb_run_options *run, char *out, size_t size);

/* The commands that take `row` ("run, check, gate"), or, with row NULL, the
 * flag `flag` by any row; "" when none does. */
void hb_option_takers(const hb_option_row *row, const char *flag, char *out, size_t size);
/* The row of another command with the short form `-letter`, or NULL. */
const hb_option_row *hb_option_short_anywhere(char letter);

/* The settings before any flag: every row's default, parsed by its own
 * parser (so the default --help names is the one that applies). */
const hb_run_options *hb_option_defaults(void);

#endif
