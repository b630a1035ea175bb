/* The commands that need a GPU: hgemm-bench's alone (bench/driver/commands.h). */
#include "bench/driver/command_options.h"
#include "bench/driver/commands.h"

const hb_command_entry hb_gpu_commands[] = {
    {"run", HB_CMD_RUN,
     "run --candidate PATH --mnk M,N,K [--mnk M,N,K ...] [options]\n"
     "run --aa BASELINE --mnk M,N,K [...] [options]",
     "check a candidate, then time it against the baselines",
     "Checks an HGEMM candidate (a cubin plus manifest, or a folder of them), then times it against the seven "
     "baselines (`hgemm-bench baselines` lists them) in shuffled rounds, and writes the results to "
     "DIR/<run-id>/. With --aa, a second instance of a baseline is timed as the candidate: an A/A calibration "
     "that must read zero.",
     hb_run_option_list, hb_evaluating_options_check, NULL, hb_run_command},
    {"check", HB_CMD_CHECK, "check --candidate PATH --mnk M,N,K [...] [options]", "the correctness checks only",
     "The correctness checks of `run` only (exact match on binary inputs, baseline-bounded deviation, the checks "
     "around every call), without timing: a verdict per configuration and no speedup.",
     hb_check_option_list, hb_evaluating_options_check, NULL, hb_run_command},
    {"gate", HB_CMD_GATE,
     "gate --candidate PATH --mnk M,N,K [...] [--vs NAME] [--min-speedup X] [--decide] [--verdict FILE] [options]\n"
     "gate --aa BASELINE --mnk M,N,K [...] [--vs NAME] [--min-speedup X] [--decide] [options]",
     "run, then exit 0 only if correct and fast enough everywhere",
     "`run`, then exit 0 only if every configuration passed every check and its speedup over --vs met "
     "--min-speedup; a distinct exit code otherwise, and the verdict file for pipelines (docs/gate.md).",
     hb_gate_option_list, hb_evaluating_options_check, NULL, hb_run_command},
    {"sweep", HB_CMD_SWEEP,
     "sweep --candidate PATH PLAN [--modes offline,server] [--devices all|LIST] [--shard I/N] [--out DIR] [options]\n"
     "sweep --resume DIR [--devices all|LIST] [--no-progress]\n"
     "  PLAN: --grid paper | --mnk-file FILE | --m LIST --n LIST --k LIST | --mnk M,N,K ...  [--sample N --seed S]",
     "run a plan of configurations and modes: resumable, over several GPUs or cluster shards",
     "Runs every configuration of a plan in every mode given, each as `run` would (the same checks, timing and "
     "results), one worker per GPU. The sweep folder (--out DIR) holds the plan, env.json, summary.csv, a journal "
     "appended durably as each configuration finishes, and verdict.json: after a crash, a kill or a reboot, "
     "`sweep --resume DIR` runs what is left. --shard I/N takes a deterministic part of the plan for one node of a "
     "cluster; `merge` joins the shards' folders (docs/sweeps.md).",
     hb_sweep_option_list, hb_sweep_options_check, NULL, hb_cmd_sweep},
    {"import", HB_CMD_IMPORT,
     "import cuda-l2 --kernels DIR --out SET [--cutlass DIR] [--arch SM] [PLAN [--sample N --seed S]] [-j N]\n"
     "  PLAN: --grid paper | --mnk-file FILE | --m LIST --n LIST --k LIST | --mnk M,N,K ...  (default: every file)",
     "build CUDA-L2's published kernel files, unmodified, into a candidate set",
     "Builds each selected M_N_K.cu of a CUDA-L2 kernel folder as published into a candidate set that run, sweep and "
     "gate take: always a launcher (the file's own torch entry, through a torch shim, no libtorch), and a cubin form "
     "too where its recorded launch is one kernel with buffer and size parameters. Padding follows CUDA-L2's harness; "
     "builds run in parallel and are cached by content. SET/import.csv lists what built, what failed with its first "
     "error line, and what was skipped (docs/importer.md).",
     hb_import_option_list, NULL, "cuda-l2", hb_cmd_import},
    {"reproduce", HB_CMD_REPRODUCE,
     "reproduce cuda-l2 --repo DIR --set NAME [--cutlass DIR] [PLAN [--sample N --seed S]] [--modes offline,server]\n"
     "  [--forms replay,launcher] [--devices all|LIST] [--shard I/N] [--out DIR] [-j N] [--detach]\n"
     "  [timing and check options of sweep]\n"
     "  PLAN: --grid paper | --mnk-file FILE | --m LIST --n LIST --k LIST  (default: every file of the set)\n"
     "reproduce --status OUT",
     "CUDA-L2's published set from a clone to the tables: import, sweep, report, compare, one summary page",
     "Imports a CUDA-L2 kernel set (cached), sweeps it in both modes (resumable), writes the paper's tables and "
     "compares them with the set's published CSVs, then writes OUT/summary.md: the protocol, the census of the set "
     "(built, failed and why, by kind; cubin forms), verdicts by check, the kernels failing the paper's own rule, "
     "the accumulator audit beside the deviation verdicts, the speedups on every timer and ours beside the published "
     "figures. Rerun the same command after a kill: every stage resumes. --shard I/N runs one shard's import and "
     "sweep; the same command without --shard then merges them. --forms replay,launcher sweeps a launcher's replay and "
     "its own host code, set side by side on the page. --detach runs it in a session of its own, logged into OUT; "
     "--status OUT says where it stands (docs/reproduce-cuda-l2.md).",
     hb_reproduce_option_list, hb_reproduce_options_check, "[cuda-l2]", hb_cmd_reproduce},
    {NULL, HB_CMD_NONE, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
