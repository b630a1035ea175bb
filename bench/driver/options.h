/* The command line (docs/cli.md).  Each command takes the option rows of its
 * groups (bench/driver/option_row.h): its own, beside its code
 * (cmd_<name>_options.c), and the shared groups declared once
 * (option_groups.h: timing, the plan, the output flags, --verbose, ...).
 * From those rows come the parser below (a flag a command does not take is a
 * usage error naming the commands that take it), each command's --help
 * (option_help.c), the flags of a child command line the harness builds
 * from parsed options (child_argv.h: the sanitize and profile passes,
 * reproduce's stages, a sweep's recorded settings) and docs/cli.md's table
 * (`hgemm-bench help --markdown`, option_doc.c); so no list of flags is kept
 * in step by hand.
 *
 * A long flag may be shortened to any prefix that begins no other flag of the
 * command (--warm for --warmup-s); a prefix that begins several is refused
 * naming them, and a flag the command lacks is refused naming the nearest it
 * has, as git does.  `-j N` is --jobs; `-h` is --help.
 *
 * To add a flag: a field in hb_run_options (bench/result/run_options.h); a
 * row (its value, default, --help line and docs/cli.md cells) in the group of
 * the commands that take it: a command's own in its cmd_<name>_options.c,
 * several commands' in option_groups.c (or a new group, named in each of their
 * lists); the code that acts on it; then scripts/cli_doc_table.sh, which puts
 * `build/hgemm-bench help --markdown` in docs/cli.md's table (tests/test_options.c
 * compares the two), and a sample value in tests/test_options.c.
 * A flag that means something else to some command (--out: run's results
 * folder, report's files) gets a row per meaning, each in its commands'
 * group: a command parses, defaults and documents it by its own row. */
#ifndef HB_OPTIONS_H
#define HB_OPTIONS_H

#include "bench/core/status.h"
#include "bench/driver/child_argv.h"
#include "bench/driver/command_line.h"
#include "bench/driver/option_index.h"
#include "bench/driver/option_values.h"

/* Parses argv (argv[1] the command) into `cli`.  On bad usage prints the
 * reason to stderr, and where the command's own --help is, and returns
 * HB_ERR_USAGE.  Touches neither the GPU nor the file system. */
hb_status hb_cli_parse(int argc, char **argv, hb_cli *cli);

#endif
