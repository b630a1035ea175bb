/* The command line (docs/cli.md).  One table in options.c declares every
 * flag once: its value, its default, its help line and the commands that take
 * it.  From that table come the parser (a flag a command does not take is a
 * usage error), each command's --help, and the flags of a child command line
 * the harness builds from parsed options (the sanitize pass), so no list of
 * flags is kept in step by hand.
 *
 * To add a flag: a field in hb_run_options (bench/result/run_options.h), a row
 * in the table in options.c, the code that acts on it, and its row in
 * docs/cli.md.
 *
 * A flag that means different things to different commands (--out: run's
 * results folder, report's files) has a row per meaning, for disjoint sets of
 * commands: each command parses, defaults and documents it by its own row. */
#ifndef HB_OPTIONS_H
#define HB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/result/run_options.h"

/* The commands, as bench/driver/commands.c lists them. */
typedef enum hb_command {
    HB_CMD_NONE,
    HB_CMD_HELP,
    HB_CMD_VERSION,
    HB_CMD_RUN,
    HB_CMD_CHECK,
    HB_CMD_GATE,
    HB_CMD_BASELINES,
    HB_CMD_SWEEP,
    HB_CMD_MERGE,
    HB_CMD_REPORT,
    HB_CMD_COMPARE,
    HB_CMD_IMPORT,
    HB_CMD_REPRODUCE,
    HB_CMD_COUNT
} hb_command;

typedef struct hb_cli {
    hb_command command;
    hb_command help_for; /* HB_CMD_HELP: the command whose help to print; HB_CMD_NONE: the overview */
    hb_run_options run;
    char **operands;     /* the words after the flags, for a command that takes some (report's folders) */
    size_t n_operands;
} hb_cli;

/* Parses argv (argv[1] the command) into `cli`.  On bad usage prints the
 * reason to stderr and returns HB_ERR_USAGE.  Touches neither the GPU nor the
 * file system. */
hb_status hb_cli_parse(int argc, char **argv, hb_cli *cli);

/* Parses "M,N,K" strictly: three positive decimal integers <= HB_MAX_DIM. */
hb_status hb_parse_mnk(const char *text, hb_mnk *out);

/* The options part of `command`'s --help: every flag it takes, by section,
 * with its default. */
void hb_options_print_help(FILE *stream, hb_command command);

/* A command line being built for a child process: its words, each a string
 * the builder owns. */
#define HB_ARGV_MAX 96
typedef struct hb_argv {
    char *word[HB_ARGV_MAX + 1]; /* NULL-terminated, as execv wants */
    size_t count;
    char text[16384];            /* the words' bytes */
    size_t used;
    int overflow;                /* a word did not fit: the build failed */
} hb_argv;

/* Appends one word (a copy). */
void hb_argv_add(hb_argv *argv, const char *word);

/* Appends the flags that give `command` the settings in `run`: every flag
 * that `command` takes whose value differs from its default, except the flags
 * in `except` (NULL-terminated names without "--", which the caller sets
 * itself) and the repeatable --mnk.  HB_ERR_INTERNAL if the words do not fit. */
hb_status hb_argv_add_options(hb_argv *argv, const hb_run_options *run, hb_command command,
                              const char *const *except);

/* For tests: the number of rows in the table, the i-th row's flag (without
 * "--"), whether `command` takes it by that row, and whether `command` takes
 * the flag `flag` by any row. */
size_t hb_option_count(void);
const char *hb_option_flag(size_t i);
int hb_option_applies(size_t i, hb_command command);
int hb_option_flag_applies(const char *flag, hb_command command);

/* For tests: the i-th flag's value in `run` as a child command line would
 * write it ("" for a switch that is off); 0 if the flag has no single value
 * (--mnk, --qps). */
int hb_option_value_text(size_t i, const hb_run_options *run, char *out, size_t size);

#endif
