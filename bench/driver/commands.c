#include "bench/driver/commands.h"

#include <string.h>

#include "bench/core/text_wrap.h"

static const hb_command_entry commands[] = {
    {"run", HB_CMD_RUN,
     "run --candidate PATH --mnk M,N,K [--mnk M,N,K ...] [options]\n"
     "run --aa BASELINE --mnk M,N,K [...] [options]",
     "check a candidate, then time it against the baselines",
     "Checks an HGEMM candidate (a cubin plus manifest, or a folder of them), then times it against the seven "
     "baselines (`hgemm-bench baselines` lists them) in shuffled rounds, and writes the results to "
     "DIR/<run-id>/. With --aa, a second instance of a baseline is timed as the candidate: an A/A calibration "
     "that must read zero.",
     1, hb_run_command, 0, 0},
    {"check", HB_CMD_CHECK, "check --candidate PATH --mnk M,N,K [...] [options]", "the correctness checks only",
     "The correctness checks of `run` only (exact match on binary inputs, baseline-bounded deviation, the checks "
     "around every call), without timing: a verdict per configuration and no speedup.",
     1, hb_run_command, 0, 0},
    {"gate", HB_CMD_GATE,
     "gate --candidate PATH --mnk M,N,K [...] [--vs NAME] [--min-speedup X] [--verdict FILE] [options]",
     "run, then exit 0 only if correct and fast enough everywhere",
     "`run`, then exit 0 only if every configuration passed every check and its speedup over --vs met "
     "--min-speedup; a distinct exit code otherwise, and the verdict file for pipelines (docs/gate.md).",
     1, hb_run_command, 0, 0},
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
     1, hb_cmd_sweep, 0, 0},
    {"merge", HB_CMD_MERGE, "merge OUT DIR...",
     "join the shard folders of one sweep into OUT",
     "Checks that the folders are shards of one sweep (the same plan, settings and harness commit), reports the "
     "GPU model and driver of each, the configurations run twice and those missing, and writes their union to the "
     "new sweep folder OUT (docs/sweeps.md).",
     0, hb_cmd_merge, 2, HB_MAX_ARGS},
    {"baselines", HB_CMD_BASELINES, "baselines", "list the baselines",
     "Lists the baselines a run times against, one tab-separated line each: name, B layout, the -max figure it is "
     "half of, whether it sets the deviation bound, its gnuplot style, and what it is.",
     0, hb_cmd_baselines, 0, 0},
    {"help", HB_CMD_HELP, "help [COMMAND]", "this overview, or a command's usage and flags",
     "This overview, or a command's usage and flags.", 0, hb_cmd_help, 0, 0},
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

size_t hb_command_count(void) { return COMMAND_COUNT; }

const hb_command_entry *hb_command_at(size_t i) { return i < COMMAND_COUNT ? &commands[i] : NULL; }

const hb_command_entry *hb_command_find(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

const hb_command_entry *hb_command_of(hb_command id)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (commands[i].id == id)
            return &commands[i];
    return NULL;
}

/* Each usage line after "usage: " (first) or its indentation (the rest). */
static void print_usage(FILE *out, const hb_command_entry *c)
{
    const char *line = c->usage;
    for (int first = 1; *line; first = 0) {
        size_t length = strcspn(line, "\n");
        fprintf(out, "%s hgemm-bench %.*s\n", first ? "usage:" : "      ", (int)length, line);
        line += length + (line[length] == '\n');
    }
}

void hb_print_overview(FILE *out)
{
    fputs("usage: hgemm-bench COMMAND [options]      (hgemm-bench COMMAND --help: its flags)\n"
          "       hgemm-bench --help | --version\n\ncommands:\n",
          out);
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].brief);
    fputs("\nexit codes: 0 ok, 1 internal error, 2 bad usage, 3 bad candidate input,\n"
          "  4 candidate unsupported here, 5 CUDA/cuBLAS error, 6 candidate incorrect,\n"
          "  7 results not writable, 8 candidate crashed or hung, 9 too slow (gate),\n"
          "  10 time implausible (faster than the GPU's peak),\n"
          "  11 results unreadable (not a sweep, truncated, shards of different sweeps) (docs/cli.md)\n",
          out);
}

void hb_print_command_help(FILE *out, hb_command id)
{
    const hb_command_entry *c = hb_command_of(id);
    if (!c) {
        hb_print_overview(out);
        return;
    }
    print_usage(out, c);
    fputc('\n', out);
    hb_print_wrapped(out, c->summary, 0, 0, 100);
    hb_options_print_help(out, id);
}
