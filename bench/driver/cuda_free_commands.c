/* The commands that need no GPU and link no CUDA: in hgemm-bench and in the
 * CUDA-free hgemm-report alike (bench/driver/commands.h).  A new one (merge)
 * is a row here; its function's file is linked into hgemm-report from the
 * library archive because this row names it (Makefile). */
#include "bench/driver/command_options.h"
#include "bench/driver/commands.h"

const hb_command_entry hb_cuda_free_commands[] = {
    {"report", HB_CMD_REPORT, "report DIR... [--format md|csv|json] [--timer event|wall|kernel] [--out DIR [--plots]]",
     "the paper's tables from result folders (no GPU)",
     "Reads one or more result folders (a run's results/<run-id>/, or a sweep's folder) and prints the paper's "
     "tables: the candidate's mean speedup over each baseline, offline and server, with win rates, by the "
     "paper's aggregate and by ours with a bootstrap CI (Table 1); max(candidate, baseline) against the baseline "
     "(Table 2); the speedup over cuBLASLt-autotune-max by problem size (Table 3); the configurations left out "
     "and why, and those a plan expects that were not run. With --out, every table as CSV (the per-configuration "
     "ones in CUDA-L2's published layout), markdown and JSON, and with --plots the figures (docs/reports.md).",
     hb_report_option_list, hb_report_options_check, "DIR...", hb_cmd_report},
    {"compare", HB_CMD_COMPARE,
     "compare DIR... --published FILE.csv [--mode offline|server] [--noise PCT] [--threshold PCT] "
     "[--format md|csv|json] [--timer event|wall|kernel] [--out DIR [--plots]]",
     "our per-configuration speedups against a published CSV (no GPU)",
     "Compares the per-configuration speedups of one or more result folders with a published file in CUDA-L2's "
     "layout (mnk,torch.matmul,cuBLAS-tn,...), for one mode: per baseline the means of both sides on the "
     "configurations both have, Spearman's rank correlation, the share where both say the candidate wins; ours on "
     "every timer (events, wall, kernel, the CUDA-L2 repository's estimator) beside the published figure, by size "
     "bin; each configuration's status against its noise (same, faster, slower), exit 15 with --threshold when one "
     "is slower by more; the 10 largest disagreements; counts of the configurations only one side has. A file of "
     "another mode or accumulator class is refused (exit 14), another GPU warned. With --out, CSV, markdown and "
     "JSON, and with --plots ours against published with y = x (docs/reports.md).",
     hb_compare_option_list, hb_compare_options_check, "DIR...", hb_cmd_compare},
    {"merge", HB_CMD_MERGE, "merge OUT DIR...", "join the shard folders of one sweep into OUT (no GPU)",
     "Checks that the folders are shards of one sweep (the same plan, settings and harness commit), reports the "
     "GPU model and driver of each, the configurations run twice and those missing, and writes their union to the "
     "new sweep folder OUT (docs/sweeps.md).",
     hb_common_option_list, NULL, "OUT DIR...", hb_cmd_merge},
    {"baselines", HB_CMD_BASELINES, "baselines", "list the baselines",
     "Lists the baselines a run times against, one tab-separated line each: name, B layout, the -max figure it is "
     "half of, whether it sets the deviation bound, its gnuplot style, and what it is.",
     hb_common_option_list, NULL, NULL, hb_cmd_baselines},
    {"help", HB_CMD_HELP, "help [COMMAND]", "this overview, or a command's usage and flags",
     "This overview, or a command's usage and flags.", hb_common_option_list, NULL, "[COMMAND]", hb_cmd_help},
    {NULL, HB_CMD_NONE, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
