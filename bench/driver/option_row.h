/* One flag as a command takes it: its name and value, its default, its
 * --help line and its docs/cli.md row, and how its value is read into
 * hb_run_options and written back onto a child's command line.
 *
 * Rows come in groups.  A command takes the rows of the groups its list
 * names (bench/driver/command_options.h), as git's builtins each declare
 * their `struct option` array beside their code: a group that several
 * commands take (the timing flags, the plan, the output flags, --verbose) is
 * declared once and named in each of their lists (bench/driver/option_groups.h),
 * and a command's own rows sit beside it (cmd_<name>_options.c).  The parser,
 * each --help, the child command lines and docs/cli.md's table all read
 * these rows.
 *
 * A flag that means something else to one command than to another (--out,
 * --seed) has a row per meaning; one command takes a flag by one row only. */
#ifndef HB_OPTION_ROW_H
#define HB_OPTION_ROW_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/run_options.h"

/* --help's headings, in the order it prints them. */
typedef enum hb_option_section {
    HB_SECTION_INPUT,
    HB_SECTION_PLAN,
    HB_SECTION_SWEEP,
    HB_SECTION_CHECKS,
    HB_SECTION_BASELINES,
    HB_SECTION_TIMING,
    HB_SECTION_GATE,
    HB_SECTION_REWARD,
    HB_SECTION_GENERAL,
    HB_SECTION_COUNT
} hb_option_section;

typedef struct hb_option_row hb_option_row;

/* Reads `text` into the row's field of `run`; a usage error naming the flag
 * otherwise.  A switch, and an optional value left out, get text NULL. */
typedef hb_status (*hb_option_parse_fn)(const hb_option_row *o, const char *text, hb_run_options *run);
/* Writes the field's value as the flag takes it; 0 when it has none (an
 * unset text, a switch that is off). */
typedef int (*hb_option_format_fn)(const hb_option_row *o, const hb_run_options *run, char *out, size_t size);

struct hb_option_row {
    const char *flag;          /* without "--" */
    const char *value;         /* the value's name in --help ("S"); "[TOOLS]": it may be left out; NULL: a switch */
    char short_name;           /* 'j': also -j N; 0: no short form */
    hb_option_section section;
    const char *fallback;      /* the field's default, as text, parsed like a value; NULL: zero or none */
    const char *shown_default; /* the default as --help says it, where the field's is not what the user gets
                                * ("from the clock, recorded"); NULL: the fallback */
    const char *help;          /* --help's line, without the default */
    const char *doc_default;   /* docs/cli.md's default cell; NULL: made from shown_default, fallback or "off" */
    const char *doc;           /* docs/cli.md's meaning cell; NULL: the help line */
    hb_option_parse_fn parse;
    hb_option_format_fn format;          /* NULL: never written on a child's command line (--mnk, --qps) */
    int (*takes_word)(const char *word); /* a value that may be left out: 1 if the next word is it */
    size_t field;                        /* offsetof in hb_run_options */
    double low, high;                    /* a number's accepted range */
    int sets;                            /* a switch: the value it sets (its default is the other) */
};

typedef struct hb_option_group {
    const hb_option_row *rows;
    size_t count;
} hb_option_group;

/* A group of the rows of a static array. */
#define HB_OPTION_GROUP(rows) {(rows), sizeof(rows) / sizeof((rows)[0])}
#define HB_OPTION_FIELD(name) .field = offsetof(hb_run_options, name)

/* The i-th row of a command's groups (NULL-terminated list), or NULL past the last. */
const hb_option_row *hb_option_at(const hb_option_group *const *groups, size_t i);
/* The row of `flag` among the groups, or NULL. */
const hb_option_row *hb_option_find(const hb_option_group *const *groups, const char *flag);
/* 1 if `row` is one of the groups' rows. */
int hb_option_has_row(const hb_option_group *const *groups, const hb_option_row *row);

/* A command line being parsed: what the relations between a command's flags
 * are checked on once every flag is read (hb_option_check_fn). */
#define HB_OPTION_ROWS_MAX 160 /* rows one command takes, with room */
typedef struct hb_option_parse {
    const char *command;                    /* as typed, for messages: "sweep" */
    const hb_option_group *const *groups;   /* the rows it takes */
    hb_run_options *run;
    const hb_option_row *seen[HB_OPTION_ROWS_MAX]; /* each row given, once */
    size_t n_seen;
} hb_option_parse;

/* 1 if `flag` was given. */
int hb_option_given(const hb_option_parse *p, const char *flag);
/* 1 if the command takes `flag`. */
int hb_option_takes(const hb_option_parse *p, const char *flag);

/* What a command's flags need of each other (a plan source, --m with --n and
 * --k, ...): HB_OK, or a usage error saying which. */
typedef hb_status (*hb_option_check_fn)(const hb_option_parse *p);

#endif
