/* Which of a command's flags a typed long option names: the flag itself, or
 * a prefix of one flag alone (as getopt_long takes them: --warm for
 * --warmup-s); for one that names none, or several, the words of the
 * message: the flags it could be, or the nearest to a typo ("did you mean
 * --warmup-s?", by git's weighted edit distance and its threshold). */
#ifndef HB_OPTION_MATCH_H
#define HB_OPTION_MATCH_H

#include <stddef.h>

#include "bench/driver/option_row.h"

typedef enum hb_option_match_kind {
    HB_MATCH_NONE,      /* no flag is or begins with it */
    HB_MATCH_FLAG,      /* *row: the flag, or the one it begins */
    HB_MATCH_HELP,      /* --help, which every command takes */
    HB_MATCH_AMBIGUOUS, /* it begins several flags */
} hb_option_match_kind;

/* `name`: the typed word without "--" and without any "=VALUE". */
hb_option_match_kind hb_option_match(const hb_option_group *const *groups, const char *name,
                                     const hb_option_row **row);
/* The flags `name` begins, as a message lists them: "--time-s or --timeout-s". */
void hb_option_prefixed(const hb_option_group *const *groups, const char *name, char *out, size_t size);
/* The flags nearest to `name`, which matches none, as a message lists them
 * ("--warmup-s", "--a or --b"); "" when none is near enough to suggest. */
void hb_option_nearest(const hb_option_group *const *groups, const char *name, char *out, size_t size);

#endif
