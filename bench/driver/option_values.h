/* The kinds of value a flag takes, each a parser and a writer for
 * bench/driver/option_row.h's rows (as git's OPT_STRING, OPT_INTEGER, ...),
 * and the macros a row names them by.  A value of one flag alone (--forbid,
 * --vs) has its parser beside its row. */
#ifndef HB_OPTION_VALUES_H
#define HB_OPTION_VALUES_H

#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/driver/option_row.h"

/* A text, not empty: the field is a const char * into the command line. */
hb_status hb_opt_parse_text(const hb_option_row *o, const char *text, hb_run_options *run);
int hb_opt_format_text(const hb_option_row *o, const hb_run_options *run, char *out, size_t size);
/* A whole number in [low, high] into an int. */
hb_status hb_opt_parse_count(const hb_option_row *o, const char *text, hb_run_options *run);
int hb_opt_format_int(const hb_option_row *o, const hb_run_options *run, char *out, size_t size);
/* Seconds, or a number, in [low, high]; a number in (low, high] (positive). */
hb_status hb_opt_parse_seconds(const hb_option_row *o, const char *text, hb_run_options *run);
hb_status hb_opt_parse_number(const hb_option_row *o, const char *text, hb_run_options *run);
hb_status hb_opt_parse_positive(const hb_option_row *o, const char *text, hb_run_options *run);
int hb_opt_format_double(const hb_option_row *o, const hb_run_options *run, char *out, size_t size);
/* A number that is off at 0, its default: written only when set. */
int hb_opt_format_positive(const hb_option_row *o, const hb_run_options *run, char *out, size_t size);
/* Percent on the command line in (low, high], a fraction in the field (0.01 = 1 %); 0: off. */
hb_status hb_opt_parse_percent(const hb_option_row *o, const char *text, hb_run_options *run);
int hb_opt_format_percent(const hb_option_row *o, const hb_run_options *run, char *out, size_t size);
/* Bytes, or a whole number of KiB, MiB or GiB, up to 16 GiB, into a size_t. */
hb_status hb_opt_parse_bytes(const hb_option_row *o, const char *text, hb_run_options *run);
int hb_opt_format_bytes(const hb_option_row *o, const hb_run_options *run, char *out, size_t size);
/* A seed: a non-negative integer; written only when one was given (a
 * command's default seed is its own: the clock, or a fixed one). */
hb_status hb_opt_parse_seed(const hb_option_row *o, const char *text, hb_run_options *run);
int hb_opt_format_seed(const hb_option_row *o, const hb_run_options *run, char *out, size_t size);
/* A switch: the field (an int) becomes the row's `sets`. */
hb_status hb_opt_parse_switch(const hb_option_row *o, const char *text, hb_run_options *run);
int hb_opt_format_switch(const hb_option_row *o, const hb_run_options *run, char *out, size_t size);

/* For the parsers of one flag: a finite decimal number in [low, high]
 * ((low, high] when low_open), 1 if `text` is one; the same as a usage error
 * calling the value `noun` ("seconds") otherwise. */
int hb_opt_real(const char *text, double low, int low_open, double high, double *out);
hb_status hb_opt_range(const hb_option_row *o, const char *text, int low_open, const char *noun, double *out);
/* "A,B": two finite numbers >= 0, one comma between them. */
int hb_opt_number_pair(const char *text, double *first, double *second);
/* The row's field in `run`. */
void *hb_opt_field(const hb_option_row *o, hb_run_options *run);
const void *hb_opt_field_in(const hb_option_row *o, const hb_run_options *run);

/* Parses "M,N,K" strictly: three positive decimal integers <= HB_MAX_DIM. */
hb_status hb_parse_mnk(const char *text, hb_mnk *out);

/* A row's value kind, as its initializer names it. */
#define HB_OPT_TEXT .parse = hb_opt_parse_text, .format = hb_opt_format_text
#define HB_OPT_COUNT(lo, hi) .parse = hb_opt_parse_count, .format = hb_opt_format_int, .low = (lo), .high = (hi)
#define HB_OPT_SECONDS(lo, hi) .parse = hb_opt_parse_seconds, .format = hb_opt_format_double, .low = (lo), .high = (hi)
#define HB_OPT_NUMBER(lo, hi) .parse = hb_opt_parse_number, .format = hb_opt_format_double, .low = (lo), .high = (hi)
#define HB_OPT_PERCENT(hi) .parse = hb_opt_parse_percent, .format = hb_opt_format_percent, .low = 0, .high = (hi)
#define HB_OPT_SEED .parse = hb_opt_parse_seed, .format = hb_opt_format_seed, .field = offsetof(hb_run_options, seed)
#define HB_OPT_SWITCH(on) .parse = hb_opt_parse_switch, .format = hb_opt_format_switch, .sets = (on)

#endif
