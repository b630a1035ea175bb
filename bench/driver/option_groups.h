/* The groups of flags that several commands take, each declared once
 * (bench/driver/option_groups.c) and named in the list of every command
 * that takes it (bench/driver/command_options.h), as git shares OPT__VERBOSE
 * and its kin among its builtins.  Two more shared groups sit beside the
 * command they belong to: the sweep's spread over GPUs and shards
 * (cmd_sweep_options.c) and the import's build flags (cmd_import_options.c),
 * which reproduce passes on. */
#ifndef HB_OPTION_GROUPS_H
#define HB_OPTION_GROUPS_H

#include "bench/driver/option_row.h"

/* --verbose: every command. */
extern const hb_option_group hb_common_options;
/* --mnk: the commands that take configurations one by one (run, check, gate, sweep, import). */
extern const hb_option_group hb_mnk_options;
/* What an evaluation is of and where its verdict goes: --candidate, --device,
 * --verdict, --no-isolate, --acc (run, check, gate, sweep). */
extern const hb_option_group hb_evaluating_options;
/* How each configuration is checked, and its baselines set up: the battery,
 * the sanitizer, the call monitor, the workspace and autotune cache, the
 * stream (run, check, gate, sweep, and reproduce, which passes them on). */
extern const hb_option_group hb_check_options;
/* The timing windows and what they keep (run, gate, sweep, reproduce). */
extern const hb_option_group hb_timing_options;
/* What only a command that times its own candidate takes: --mode, --qps,
 * --aa, --profile and the reward (run, gate, sweep). */
extern const hb_option_group hb_timed_options;
/* The plan of configurations (sweep, import, reproduce). */
extern const hb_option_group hb_plan_options;
/* The tables' output: --out, --format, --timer, --plots (report, compare). */
extern const hb_option_group hb_output_options;

/* A command's list of the common flags alone (merge, baselines, help). */
extern const hb_option_group *const hb_common_option_list[];

#endif
