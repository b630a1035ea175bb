/* The flags of sweep (bench/driver/cmd_sweep.c): its own rows, the spread
 * over GPUs and shards that reproduce passes on, and what its flags need of
 * each other. */
#include <string.h>

#include "bench/core/diag.h"
#include "bench/driver/command_options.h"
#include "bench/driver/option_values.h"

static const hb_option_row sweep_rows[] = {
    {.flag = "seed", .value = "N", .section = HB_SECTION_INPUT, HB_OPT_SEED,
     .shown_default = "20251201, so that shards planned on different nodes agree",
     .help = "seed for the inputs, the round order and --sample's draw; recorded in plan.json",
     .doc_default = "20251201",
     .doc = "seeds the inputs, the round order and `--sample`'s draw; fixed by default, so that shards planned on "
            "different nodes agree; recorded in plan.json"},
    {.flag = "out", .value = "DIR", .section = HB_SECTION_INPUT, .fallback = "results", HB_OPT_TEXT,
     HB_OPTION_FIELD(out_dir), .shown_default = "results/sweep-<sweep-id>, with -shard-I-of-N for a shard",
     .help = "the sweep folder itself, new or empty",
     .doc_default = "`results/sweep-<sweep_id>`",
     .doc = "the sweep folder itself (new or empty); by default `results/sweep-<sweep_id>`, with `-shard-I-of-N` "
            "for a shard"},
    {.flag = "resume", .value = "DIR", .section = HB_SECTION_SWEEP, HB_OPT_TEXT, HB_OPTION_FIELD(resume),
     .help = "continue the sweep in DIR after a crash, kill or reboot, with its own plan and options",
     .doc = "continue the sweep in DIR with its own plan and settings; only `--devices`, `--no-progress`, "
            "`--verdict` and `--verbose` may be given with it"},
    {.flag = "dry-run", .section = HB_SECTION_SWEEP, HB_OPT_SWITCH(1), HB_OPTION_FIELD(dry_run),
     .help = "print the plan (this shard's items) and exit; writes nothing",
     .doc = "print the plan (this shard's items) on stdout and exit; writes nothing"},
};
static const hb_option_group sweep_options = HB_OPTION_GROUP(sweep_rows);

static const hb_option_row modes_rows[] = {
    {.flag = "modes", .value = "LIST", .section = HB_SECTION_SWEEP, HB_OPT_TEXT, HB_OPTION_FIELD(modes),
     .help = "offline, server or offline,server: each configuration in each mode (default: --mode)",
     .doc_default = "`--mode`", .doc = "`offline`, `server` or `offline,server`: every configuration in each mode"},
};

static const hb_option_group modes_options = HB_OPTION_GROUP(modes_rows);

static const hb_option_row spread_rows[] = {
    {.flag = "devices", .value = "LIST", .section = HB_SECTION_SWEEP, HB_OPT_TEXT, HB_OPTION_FIELD(devices),
     .help = "all, or CUDA ordinals like 0,1: one worker per GPU, each configuration on one (default: --device)",
     .doc_default = "`--device`",
     .doc = "`all` or CUDA ordinals like `0,1`: one worker per GPU, each configuration on one GPU, recorded per row"},
    {.flag = "shard", .value = "I/N", .section = HB_SECTION_SWEEP, HB_OPT_TEXT, HB_OPTION_FIELD(shard),
     .help = "only the plan's items i with i mod N = I, 0 <= I < N (the same on any machine), for a cluster",
     .doc = "only the plan's items i with i mod N = I (0 ≤ I < N), for one node of a cluster; the same on every "
            "node (docs/slurm.md)"},
};
const hb_option_group hb_sweep_spread_options = HB_OPTION_GROUP(spread_rows);

const hb_option_group *const hb_sweep_option_list[] = {
    &hb_evaluating_options, &hb_mnk_options,    &sweep_options,    &hb_plan_options,   &modes_options,
    &hb_sweep_spread_options, &hb_check_options, &hb_timing_options, &hb_timed_options, &hb_common_options, NULL};

/* --- what the flags need of each other -------------------------------------------------- */

/* --resume takes the plan and every setting from the sweep folder; only
 * where and how it is watched may change. */
static hb_status check_resume_alone(const hb_option_parse *p)
{
    static const char *const may_change[] = {"resume", "devices", "no-progress", "verdict", "verbose", NULL};
    for (size_t i = 0; i < p->n_seen; i++) {
        int allowed = 0;
        for (const char *const *f = may_change; *f; f++)
            allowed |= !strcmp(*f, p->seen[i]->flag);
        if (!allowed)
            return hb_fail(HB_ERR_USAGE, "--resume continues a sweep with its own plan and settings; --%s cannot be "
                           "given with it (only --devices, --no-progress, --verdict and --verbose can)",
                           p->seen[i]->flag);
    }
    return HB_OK;
}

static int axes_given(const hb_option_parse *p)
{
    return hb_option_given(p, "m") || hb_option_given(p, "n") || hb_option_given(p, "k");
}

hb_status hb_sweep_options_check(const hb_option_parse *p)
{
    const hb_run_options *run = p->run;
    if (run->resume)
        return check_resume_alone(p);
    /* exactly one plan source: --grid, --mnk-file, the axes or --mnk */
    int sources = (run->grid != NULL) + (run->mnk_file != NULL) + (run->n_configs > 0) + axes_given(p);
    if (sources != 1)
        return hb_fail(HB_ERR_USAGE, "sweep: %s (--grid paper, --mnk-file FILE, --m LIST --n LIST --k LIST, or --mnk "
                       "M,N,K)", sources ? "give one plan, not several" : "a plan is required");
    if (axes_given(p) && !(run->m_list && run->n_list && run->k_list))
        return hb_fail(HB_ERR_USAGE, "sweep: --m, --n and --k go together: the plan is every combination of the three "
                       "lists");
    if (run->modes && hb_option_given(p, "mode"))
        return hb_fail(HB_ERR_USAGE, "--modes and --mode say the same thing for a sweep; give one");
    if (!run->isolate)
        return hb_fail(HB_ERR_USAGE, "sweep always evaluates each configuration in its own process; --no-isolate is "
                       "for run");
    if (run->devices && hb_option_given(p, "device"))
        return hb_fail(HB_ERR_USAGE, "--devices and --device name the GPUs of a sweep both; give one");
    return hb_evaluating_relations(p, 0);
}
