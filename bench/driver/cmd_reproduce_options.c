/* The flags of `reproduce cuda-l2` (bench/driver/cmd_reproduce.c): its own
 * rows, and the groups of the stages it passes flags on to (the plan, the
 * import's build flags, the sweep's spread, checks and timing). */
#include <string.h>

#include "bench/core/diag.h"
#include "bench/driver/command_options.h"
#include "bench/driver/option_values.h"
#include "bench/driver/reproduce_forms.h"

static const hb_option_row reproduce_rows[] = {
    {.flag = "repo", .value = "DIR", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(reproduce.repo),
     .help = "a clone of CUDA-L2: its kernels/ and eval_results/ (required)", .doc_default = "required",
     .doc = "a clone of CUDA-L2: `kernels/<set>/` and `eval_results/` are read from it, unmodified"},
    {.flag = "set", .value = "NAME", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(reproduce.set),
     .help = "the kernel set: h100, a100-fp32, a100-fp16 or 3090 (or its folder's name, h100_F32F16F16F32, ...) "
             "(required)",
     .doc_default = "required",
     .doc = "`h100`, `a100-fp32`, `a100-fp16` or `3090`, or the set's folder name (`h100_F32F16F16F32`, ...)"},
    {.flag = "out", .value = "DIR", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(reproduce.out_dir),
     .help = "the reproduction's folder: the set, the sweep, the report, the comparisons and summary.md (default: "
             "reproduce-<set>)",
     .doc_default = "`reproduce-<set>`",
     .doc = "the reproduction's folder: `plan.txt`, `set/`, `build-cache/`, `sweep/`, `report/`, `compare-<mode>/`, "
            "`summary.md` (a shard's `set-shard-I-of-N/`, `sweep-shard-I-of-N/`)"},
    {.flag = "seed", .value = "N", .section = HB_SECTION_PLAN, HB_OPT_SEED,
     .shown_default = "20251201, so that a rerun and every shard draw the same sample",
     .help = "seed of --sample's draw and of the plan's order; the sweep's seed (its inputs and round order)",
     .doc_default = "20251201",
     .doc = "seeds `--sample`'s draw and the order of the plan, and is passed on as the sweep's `--seed` (its inputs "
            "and round order); fixed by default, so that a rerun and every shard draw the same sample"},
    {.flag = "modes", .value = "LIST", .section = HB_SECTION_SWEEP, HB_OPT_TEXT, HB_OPTION_FIELD(modes),
     .shown_default = "offline,server; --tables-only: the sweep's",
     .help = "the modes to sweep and compare: offline, server or offline,server",
     .doc_default = "`offline,server`; with `--tables-only`, the modes the sweep holds",
     .doc = "the modes to sweep and compare: `offline`, `server` or `offline,server`"},
    {.flag = "dry-run", .section = HB_SECTION_INPUT, HB_OPT_SWITCH(1), HB_OPTION_FIELD(dry_run),
     .help = "print each stage's command line and exit; writes nothing",
     .doc = "print each stage's command line on stdout and exit; writes nothing"},
    {.flag = "tables-only", .section = HB_SECTION_INPUT, HB_OPT_SWITCH(1), HB_OPTION_FIELD(reproduce.tables_only),
     .help = "only the stages that read files (report, compare, the summary page) from the sweep --out holds, in the "
             "modes it holds: no import, no sweep, no GPU (to draw the figures where gnuplot is); exit 11 where --out "
             "holds no sweep yet",
     .doc = "only the stages that read files (report, compare, the summary page), from the sweep `--out` holds, in the "
            "modes it holds: no GPU needed (to draw the figures where gnuplot is installed); exit 11 where `--out` holds "
            "no sweep yet"},
    {.flag = "forms", .value = "LIST", .section = HB_SECTION_SWEEP, HB_OPT_TEXT, HB_OPTION_FIELD(reproduce.forms),
     .shown_default = "replay; --tables-only: the forms --out holds",
     .help = "the forms of a launcher to sweep, each into a sweep of its own: replay (its kernels, launched by the "
             "harness), launcher (its own host code) or replay,launcher (the summary page sets them side by side)",
     .doc_default = "`replay`; with `--tables-only`, the forms `--out` holds",
     .doc = "the forms of a launcher to sweep, each a sweep of its own passed `--form`: `replay` (its recorded "
            "kernels, launched by the harness) into `sweep/`, `launcher` (the call with its own host code) into "
            "`sweep-launcher/`, or `replay,launcher`: both, and the summary page sets them side by side per "
            "configuration"},
    {.flag = "detach", .section = HB_SECTION_INPUT, HB_OPT_SWITCH(1), HB_OPTION_FIELD(reproduce.detach),
     .help = "start the same reproduction in a session of its own (it outlives the terminal), its output into "
             "OUT/reproduce.log, its pid in OUT/reproduce.pid, and return at once; exit 7 while one runs in OUT",
     .doc = "start the same reproduction in a session of its own, so it outlives the terminal or the login: stdin "
            "from /dev/null, stdout and stderr appended to `OUT/reproduce.log`, its pid and start time in "
            "`OUT/reproduce.pid`; prints where the log is and the `--status` line and exits 0 at once. Exit 7, "
            "naming the pid, while a reproduction runs in OUT"},
    {.flag = "status", .value = "OUT", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(reproduce.status),
     .help = "where the reproduction in OUT stands: running or not, its stage, items done, the time so far and "
             "left, the log's last error; runs nothing (no GPU); exit 11 where OUT is not a reproduction",
     .doc = "say where the reproduction in OUT stands and exit: running or not (its pid, checked against its start "
            "time), the stage (and form), the stage's items done of its total (the import's progress line, the "
            "sweep's journal), the time so far and an ETA from the stage's rate, the log's last error line. Needs no "
            "GPU and takes no lock; exit 11 where OUT holds no `reproduce-state.json`. Given alone (with "
            "`--verbose` at most)"},
    {.flag = "no-plots", .section = HB_SECTION_INPUT, HB_OPT_SWITCH(1), HB_OPTION_FIELD(reproduce.no_plots),
     .help = "no figures, even where gnuplot is installed",
     .doc = "no figures, even where gnuplot is installed (with gnuplot, report and compare draw theirs)"},
};
static const hb_option_group reproduce_options = HB_OPTION_GROUP(reproduce_rows);

const hb_option_group *const hb_reproduce_option_list[] = {
    &reproduce_options, &hb_plan_options,   &hb_sweep_spread_options, &hb_check_options,
    &hb_timing_options, &hb_build_options, &hb_common_options,       NULL};

static int axes_given(const hb_option_parse *p)
{
    return hb_option_given(p, "m") || hb_option_given(p, "n") || hb_option_given(p, "k");
}

/* --status reads a folder: no other flag means anything to it. */
static hb_status check_status_alone(const hb_option_parse *p)
{
    for (size_t i = 0; i < p->n_seen; i++)
        if (strcmp(p->seen[i]->flag, "status") && strcmp(p->seen[i]->flag, "verbose"))
            return hb_fail(HB_ERR_USAGE, "reproduce --status OUT reads the folder only; --%s cannot be given with it "
                           "(only --verbose can)", p->seen[i]->flag);
    return HB_OK;
}

/* What its flags need of each other; the stages check the rest. */
hb_status hb_reproduce_options_check(const hb_option_parse *p)
{
    const hb_run_options *run = p->run;
    if (run->reproduce.status)
        return check_status_alone(p);
    hb_form_choice forms[HB_REPRO_MAX_FORMS];
    size_t n_forms;
    HB_TRY(hb_repro_forms_parse(run->reproduce.forms, forms, &n_forms));
    if (run->reproduce.detach && run->dry_run)
        return hb_fail(HB_ERR_USAGE, "reproduce: --detach starts the reproduction; --dry-run runs nothing: give one");
    int sources = !!run->grid + !!run->mnk_file + axes_given(p);
    if (sources > 1)
        return hb_fail(HB_ERR_USAGE, "reproduce: give one plan, not several (--grid paper, --mnk-file FILE or "
                       "--m/--n/--k)");
    if (axes_given(p) && !(run->m_list && run->n_list && run->k_list))
        return hb_fail(HB_ERR_USAGE, "reproduce: --m, --n and --k go together: the plan is every combination of the "
                       "three lists");
    if (!run->reproduce.repo || !run->reproduce.set)
        return hb_fail(HB_ERR_USAGE, "reproduce: --repo DIR (a CUDA-L2 clone) and --set NAME are required");
    int server = !run->modes || strstr(run->modes, "server"); /* reproduce's default: both modes */
    if (!server && (hb_option_given(p, "mean-gap-ms") || hb_option_given(p, "gap")))
        return hb_fail(HB_ERR_USAGE, "--mean-gap-ms and --gap apply to the server mode: --modes with server");
    return HB_OK;
}
