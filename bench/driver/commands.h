/* The commands, one row each (as git.c's table of builtins): the name typed,
 * what it does, its usage lines, and the function that runs it.  The rows
 * are in two tables: the commands that need a GPU (gpu_commands.c: run,
 * check, gate) and those that need none (cuda_free_commands.c: report,
 * compare, baselines, help).  A binary is main.c plus a program file naming
 * its tables: hgemm-bench has both (hgemm_bench_program.c), the CUDA-free
 * hgemm-report the second alone (hgemm_report_program.c), and links no CUDA
 * library.  The lookups and help below go through the binary's own program.
 *
 * To add a command: an id in hb_command (command_line.h), a row in
 * cuda_free_commands.c (it needs no GPU: both binaries then have it) or
 * gpu_commands.c, its function in a file of its own, cmd_<name>.c, the list
 * of the option groups it takes (its own rows beside it, cmd_<name>_options.c,
 * and the shared groups of option_groups.h; command_options.h declares the
 * list), and its section in docs/cli.md. */
#ifndef HB_COMMANDS_H
#define HB_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "bench/driver/command_line.h"
#include "bench/driver/option_row.h"

typedef struct hb_command_entry {
    const char *name;      /* as typed: "run" */
    hb_command id;
    const char *usage;     /* its usage lines, each after "hgemm-bench ", '\n'-separated */
    const char *brief;     /* what it does, in the overview's one line */
    const char *summary;   /* what it does, a few sentences, atop its --help */
    const hb_option_group *const *options; /* the flags it takes: its groups, NULL-terminated (command_options.h) */
    hb_option_check_fn check;              /* what its flags need of each other; NULL: nothing */
    const char *operands;  /* what it takes after its flags, one or more ("DIR..."), or "[NAME]": at most one;
                            * NULL: nothing */
    /* Runs it: the exit status.  `command_line` is the whole line, for env.json. */
    hb_status (*run)(const struct hb_command_entry *self, hb_cli *cli, const char *command_line);
} hb_command_entry;

/* A binary's commands: its name and its tables, each table ended by a row
 * whose name is NULL, the list of tables by NULL. */
typedef struct hb_program {
    const char *name;                      /* "hgemm-bench", as usage lines and messages name it */
    const hb_command_entry *const *tables;
} hb_program;

/* The binary's own: hgemm_bench_program.c or hgemm_report_program.c. */
extern const hb_program hb_this_program;
extern const hb_command_entry hb_gpu_commands[];       /* gpu_commands.c */
extern const hb_command_entry hb_cuda_free_commands[]; /* cuda_free_commands.c */

size_t hb_command_count(void);
const hb_command_entry *hb_command_at(size_t i);
/* The command typed as `name`, or NULL. */
const hb_command_entry *hb_command_find(const char *name);
const hb_command_entry *hb_command_of(hb_command id);

/* `hgemm-bench --help`: the commands and the exit codes. */
void hb_print_overview(FILE *stream);
/* `hgemm-bench COMMAND --help`: its usage, what it does, its flags. */
void hb_print_command_help(FILE *stream, hb_command id);

/* The commands' functions.  run, check and gate are one loop over the
 * configurations, which the parsed options steer (bench/driver/run_loop.c);
 * the others have a file each (cmd_<name>.c). */
hb_status hb_run_command(const hb_command_entry *self, hb_cli *cli, const char *command_line);
hb_status hb_cmd_baselines(const hb_command_entry *self, hb_cli *cli, const char *command_line);
hb_status hb_cmd_sweep(const hb_command_entry *self, hb_cli *cli, const char *command_line);
hb_status hb_cmd_merge(const hb_command_entry *self, hb_cli *cli, const char *command_line);
hb_status hb_cmd_help(const hb_command_entry *self, hb_cli *cli, const char *command_line);
hb_status hb_cmd_report(const hb_command_entry *self, hb_cli *cli, const char *command_line);
hb_status hb_cmd_compare(const hb_command_entry *self, hb_cli *cli, const char *command_line);
hb_status hb_cmd_import(const hb_command_entry *self, hb_cli *cli, const char *command_line);
hb_status hb_cmd_reproduce(const hb_command_entry *self, hb_cli *cli, const char *command_line);

#endif
