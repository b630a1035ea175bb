/* Each command's flags: the list of option groups it takes (NULL-terminated)
 * and the check of what its flags need of each other, from the file of rows
 * beside its code (cmd_<name>_options.c; run, check and gate, which share
 * one loop, share cmd_run_options.c).  The command tables
 * (gpu_commands.c, cuda_free_commands.c) name them. */
#ifndef HB_COMMAND_OPTIONS_H
#define HB_COMMAND_OPTIONS_H

#include "bench/driver/option_groups.h"
#include "bench/driver/option_row.h"

/* cmd_run_options.c */
extern const hb_option_group *const hb_run_option_list[];
extern const hb_option_group *const hb_check_option_list[];
extern const hb_option_group *const hb_gate_option_list[];
/* run, check and gate: --candidate (or --aa) and --mnk, and the flags that go together or not at all. */
hb_status hb_evaluating_options_check(const hb_option_parse *p);
/* The same for a sweep, whose plan may come from elsewhere than --mnk. */
hb_status hb_evaluating_relations(const hb_option_parse *p, int needs_mnk);

/* cmd_sweep_options.c */
extern const hb_option_group *const hb_sweep_option_list[];
/* --devices, --shard: how a sweep spreads its plan (sweep, reproduce). */
extern const hb_option_group hb_sweep_spread_options;
hb_status hb_sweep_options_check(const hb_option_parse *p);

/* cmd_import_options.c */
extern const hb_option_group *const hb_import_option_list[];
/* How CUDA-L2's files are built: --cutlass, --arch, --jobs, ... (import, reproduce). */
extern const hb_option_group hb_build_options;

/* cmd_reproduce_options.c */
extern const hb_option_group *const hb_reproduce_option_list[];
hb_status hb_reproduce_options_check(const hb_option_parse *p);

/* cmd_report_options.c */
extern const hb_option_group *const hb_report_option_list[];
/* report and compare: --plots needs --out. */
hb_status hb_report_options_check(const hb_option_parse *p);

/* cmd_compare_options.c */
extern const hb_option_group *const hb_compare_option_list[];
hb_status hb_compare_options_check(const hb_option_parse *p);

#endif
