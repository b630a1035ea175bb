/* `reproduce FORMAT` (`reproduce cuda-l2`): one command from a clone of a
 * format's published sets (bench/import/import_formats.h) to the tables
 * (docs/reproduce-cuda-l2.md).  Its stages are the commands a user would
 * type, each run as a child of this binary (bench/driver/stage_child.h) into
 * one folder:
 *
 *   OUT/plan.txt           the configurations (reproduce_plan.h), an --mnk-file
 *   OUT/set/               import: the candidate set, its import.csv (the census)
 *   OUT/build-cache/       the build cache, shared by the shards of one reproduction
 *   OUT/sweep/             sweep: both modes in one resumable folder, the replay form
 *   OUT/report/, report.md report: the paper's tables and figures
 *   OUT/compare-MODE/, compare-MODE.md
 *                          compare: ours beside the published CSV of each mode run
 *   OUT/sweep-launcher/, report-launcher/, compare-launcher-MODE/
 *                          the same of the launcher form, with --forms launcher
 *                          (bench/driver/reproduce_forms.h)
 *   OUT/summary.md         the page a reviewer hands on (bench/analysis/reproduction_page.h)
 *   OUT/reproduce-state.json
 *                          where it stands, rewritten at every stage boundary;
 *                          `--status OUT` reads it (bench/driver/reproduce_state.h)
 *   OUT/reproduce.log, reproduce.pid
 *                          --detach's: the run's output, its pid and start time
 *
 * Every stage resumes: the import takes what its cache holds, each form's
 * sweep continues with `--resume`, and the rest read files only.  A rerun of the
 * same command after a kill therefore picks up where it stopped.  With
 * --shard I/N only the import and the sweep of that shard run (into
 * set-shard-I-of-N and sweep-shard-I-of-N); the unsharded command then merges
 * the shards' sweeps and writes the tables. */
#define _POSIX_C_SOURCE 200809L /* glob, dprintf */
#include <errno.h>
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "bench/analysis/figures.h"
#include "bench/analysis/reproduction_page.h"
#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/folder_lock.h"
#include "bench/core/folders.h"
#include "bench/core/out_file.h"
#include "bench/core/process.h"
#include "bench/core/process_start.h"
#include "bench/core/input_file.h"
#include "bench/driver/commands.h"
#include "bench/driver/reproduce_forms.h"
#include "bench/driver/reproduce_plan.h"
#include "bench/driver/reproduce_state.h"
#include "bench/driver/reproduce_sweep.h"
#include "bench/driver/stage_child.h"
#include "bench/gpu/device.h"
#include "bench/import/import_formats.h"

#define REPRODUCE_DEFAULT_SEED 20251201ULL /* the sweep's: shards and reruns draw the same sample */
/* The rough cost of one sweep item beyond its windows: checks, baselines'
 * set-up and a cold autotune search (measured on an H100: 1.7 s), seconds. */
#define SWEEP_ITEM_OVERHEAD_S 2.0
/* A CUDA-L2 file's build, one core, seconds (median on an H100 host: 52 s
 * with 60 builds at once); only for the first estimate. */
#define IMPORT_FILE_CORE_S 50.0

typedef enum stage_id { STAGE_IMPORT, STAGE_MERGE, STAGE_SWEEP, STAGE_REPORT, STAGE_COMPARE, STAGE_PAGE, STAGE_COUNT } stage_id;
static const char *const stage_names[STAGE_COUNT] = {"import", "merge", "sweep", "report", "compare", "summary"};

typedef struct repro {
    hb_run_options *run;
    const char *command_line;
    const hb_import_format *format; /* the operand's: its sets, their files and published results */
    const hb_published_set *set;
    hb_shard shard;
    int sharded;
    char arch[16];
    int arch_assumed; /* --dry-run without a GPU or --arch: the set's own target, said on stderr */
    char gpu[256];
    size_t workers;
    int plots;
    char out[3000], kernels[3500], set_dir[3100], plan_path[3100], cache[3100];
    char suffix[64]; /* a shard's "-shard-I-of-N", else "": its sweep folders, state, log and pid file */
    hb_form_choice forms[HB_REPRO_MAX_FORMS];
    size_t n_forms;
    size_t form;  /* the form the sweep, report and compare stages run now: an index of forms[] */
    char sweep_dirs[HB_REPRO_MAX_FORMS][3200];
    const char *sweep_dir; /* sweep_dirs[form] */
    hb_repro_plan plan;
    size_t shard_configs, shard_items;
    double seconds[STAGE_COUNT];
    int ran[STAGE_COUNT];
    int compared[HB_REPRO_MAX_FORMS][HB_PLAN_MAX_MODES];
    hb_repro_sweep sweep; /* --tables-only: what OUT's sweep holds (of the first form) */
    hb_folder_lock lock; /* OUT's, unless a shard: a cluster's shards share OUT, each its own sweep folder */
    hb_repro_state state; /* what OUT/reproduce-state.json says; written from the first stage on */
    int stage_index, stage_count;
} repro;

/* --- the set, the folders, the target --------------------------------------------- */

static hb_status find_set(const hb_import_format *format, const char *name, const hb_published_set **out)
{
    char known[256] = "";
    for (size_t i = 0; i < format->n_sets; i++) {
        const hb_published_set *set = &format->sets[i];
        if (!strcmp(name, set->name) || !strcmp(name, set->folder)) {
            *out = set;
            return HB_OK;
        }
        size_t used = strlen(known);
        snprintf(known + used, sizeof known - used, "%s%s (%s)", i ? ", " : "", set->name, set->folder);
    }
    return hb_fail(HB_ERR_USAGE, "reproduce: no %s set '%s': the sets are %s", format->name, name, known);
}

static hb_status paths(repro *r)
{
    const hb_reproduce_settings *s = &r->run->reproduce;
    if (!hb_is_folder(s->repo))
        return hb_fail(HB_ERR_USAGE, "reproduce: --repo %s is not a folder: give %s", s->repo, r->format->repo_hint);
    r->format->set_files_dir(s->repo, r->set, r->kernels, sizeof r->kernels);
    if (!hb_is_folder(r->kernels))
        return hb_fail(HB_ERR_USAGE, "reproduce: %s is not a folder: is --repo %s %s?", r->kernels, s->repo,
                       r->format->repo_hint);
    if (s->out_dir)
        snprintf(r->out, sizeof r->out, "%.2990s", s->out_dir);
    else
        snprintf(r->out, sizeof r->out, "reproduce-%s", r->set->name);
    if (r->sharded)
        snprintf(r->suffix, sizeof r->suffix, "-shard-%zu-of-%zu", r->shard.index, r->shard.count);
    /* One set for every shard (their sweeps must name the same candidate to
     * merge); each shard's import writes a report of its own into it. */
    snprintf(r->set_dir, sizeof r->set_dir, "%s/set", r->out);
    for (size_t i = 0; i < r->n_forms; i++) {
        char name[128];
        hb_repro_form_sweep(r->forms[i], r->suffix, name, sizeof name);
        snprintf(r->sweep_dirs[i], sizeof r->sweep_dirs[i], "%s/%s", r->out, name);
    }
    r->sweep_dir = r->sweep_dirs[0];
    snprintf(r->plan_path, sizeof r->plan_path, "%s/plan.txt", r->out);
    if (r->run->import.cache_dir)
        snprintf(r->cache, sizeof r->cache, "%.3000s", r->run->import.cache_dir);
    else
        snprintf(r->cache, sizeof r->cache, "%s/build-cache", r->out);
    return HB_OK;
}

/* The import's target: --arch, else this GPU's; the set's own (sm_90a for the
 * H100 set) on the GPU it was tuned for, the GPU's plain architecture on any
 * other (the A100 and 3090 sets on an H100: sm_90). */
static hb_status target(repro *r)
{
    int count = 0;
    hb_device_info info;
    hb_no_gpu_reason why = {"", ""};
    /* no GPU is fine for a shard's import with --arch; said below, with why, otherwise */
    int have_gpu = hb_device_count_silent(&count, &why) == HB_OK;
    if (have_gpu && count <= r->run->device)
        snprintf(why.fact, sizeof why.fact, "--device %d: this machine has %d CUDA GPU(s)", r->run->device, count);
    hb_diag_set_quiet(1);
    have_gpu = have_gpu && count > r->run->device && hb_device_open(r->run->device, &info) == HB_OK;
    hb_diag_set_quiet(0);
    if (!have_gpu && !why.fact[0])
        snprintf(why.fact, sizeof why.fact, "%s", hb_last_error());
    snprintf(r->gpu, sizeof r->gpu, "%s", have_gpu ? info.name : "");
    if (r->run->import.arch)
        snprintf(r->arch, sizeof r->arch, "%.15s", r->run->import.arch);
    else if (have_gpu && info.sm == r->set->sm)
        snprintf(r->arch, sizeof r->arch, "%s", r->set->native_arch);
    else if (have_gpu)
        snprintf(r->arch, sizeof r->arch, "sm_%d", info.sm);
    else if (r->run->dry_run) { /* a line that runs as printed: the set's own, said on stderr */
        snprintf(r->arch, sizeof r->arch, "%s", r->set->native_arch);
        r->arch_assumed = 1;
    } else
        return hb_fail(HB_ERR_CUDA, "reproduce: no GPU to sweep on: %s; to import only, on a machine without one, "
                       "use `hgemm-bench import %s ... --arch SM`", why.fact, r->format->name);
    r->workers = 1;
    const char *d = r->run->devices;
    if (d && !strcmp(d, "all"))
        r->workers = have_gpu && count > 0 ? (size_t)count : 1;
    else if (d)
        for (r->workers = 1; *d; d++)
            r->workers += *d == ',';
    return HB_OK;
}

/* --tables-only's target: --arch, else what the import recorded (the
 * "arch" of a built file's record.json), else "as imported". */
static void recorded_arch(repro *r, const char *typed)
{
    snprintf(r->arch, sizeof r->arch, "%.15s", typed ? typed : "as imported");
    if (typed)
        return;
    char pattern[3200];
    snprintf(pattern, sizeof pattern, "%s/*/record.json", r->set_dir);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return;
    json_t *record = json_load_file(g.gl_pathv[0], 0, NULL);
    const char *arch = json_string_value(json_object_get(record, "arch"));
    if (arch)
        snprintf(r->arch, sizeof r->arch, "%.15s", arch);
    json_decref(record);
    globfree(&g);
}

/* --dry-run without a GPU and without --arch: the import line names the
 * set's own target, so it runs as printed where that is right; say so, and
 * what to add where it is not. */
static void say_assumed_arch(const repro *r)
{
    if (!r->arch_assumed)
        return;
    fprintf(stderr, "reproduce --dry-run: no GPU found here: the import line is for --arch %s, the %s set's own "
            "target on the %s it was tuned for; for another GPU add its --arch (sm_80: A100, sm_86: RTX 3090, "
            "sm_90: H100 or H200 running a set tuned elsewhere). The sweep needs a GPU: run this command on one, "
            "or only the import here (`hgemm-bench import %s ... --arch SM`)\n",
            r->arch, r->set->name, r->set->tuned_for, r->format->name);
}

/* --- --tables-only: what the folder measured ---------------------------------------- */

static void mode_list(const hb_mode *modes, size_t n, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", i ? "," : "", hb_mode_name(modes[i]));
    }
}

/* How the measured plan was drawn, as OUT/plan.txt's first line says it
 * (the measuring command wrote it); this command's flags do not say it. */
static hb_status recorded_plan_source(repro *r)
{
    char *text = NULL;
    size_t size = 0;
    HB_TRY(hb_input_read(r->plan_path, "reproduce's plan", 1u << 20, HB_ERR_BAD_RESULTS, 1, &text, &size));
    static const char prefix[] = "# reproduce's plan: ";
    if (text && !strncmp(text, prefix, strlen(prefix)))
        snprintf(r->plan.source, sizeof r->plan.source, "%.*s", (int)strcspn(text + strlen(prefix), "\n"),
                 text + strlen(prefix));
    else
        snprintf(r->plan.source, sizeof r->plan.source, "not recorded (%s)", text ? "plan.txt has no heading line"
                                                                                 : "no plan.txt in the folder");
    free(text);
    return HB_OK;
}

/* The sweep OUT holds, read before anything is written: the comparisons
 * take its modes (--modes, if given, must be among them), the page its
 * count of configurations and plan.txt's account of how they were drawn. */
static hb_status read_measured(repro *r)
{
    char measure[8000];
    snprintf(measure, sizeof measure, "hgemm-bench reproduce %s --repo %.3000s --set %s --out %.3000s",
             r->format->name, r->run->reproduce.repo, r->set->name, r->out);
    for (size_t i = r->n_forms; i-- > 0;) /* each form's must be there; the first's modes and count are the page's */
        HB_TRY(hb_repro_sweep_read(r->out, r->sweep_dirs[i], measure, &r->sweep));
    hb_sweep_plan *plan = &r->plan.plan;
    char held[32], asked[32];
    mode_list(r->sweep.modes, r->sweep.n_modes, held, sizeof held);
    if (!r->run->modes) {
        plan->n_modes = r->sweep.n_modes;
        memcpy(plan->modes, r->sweep.modes, sizeof r->sweep.modes);
    }
    mode_list(plan->modes, plan->n_modes, asked, sizeof asked);
    for (size_t i = 0; i < plan->n_modes; i++)
        if (!hb_repro_sweep_has_mode(&r->sweep, plan->modes[i]))
            return hb_fail(HB_ERR_USAGE, "reproduce --tables-only --modes %s: the sweep of %s holds %s only: drop "
                           "--modes (the tables take the sweep's modes) or name those", asked, r->out, held);
    return recorded_plan_source(r);
}

/* --- progress ---------------------------------------------------------------------- */

static double import_estimate_s(const repro *r)
{
    double jobs = r->run->import.jobs > 0 ? r->run->import.jobs : 16;
    return (double)r->shard_configs * IMPORT_FILE_CORE_S / jobs;
}

static double sweep_estimate_s(const repro *r)
{
    double item = r->run->warmup_s + r->run->time_s + SWEEP_ITEM_OVERHEAD_S;
    return (double)r->shard_items * item / (double)r->workers;
}

static void say_minutes(char *out, size_t size, double seconds)
{
    if (seconds < 90)
        snprintf(out, size, "%.0f s", seconds);
    else
        snprintf(out, size, "%.0f min", seconds / 60);
}

/* The stage about to run, and what is left of the whole: the sweep's
 * estimate is its windows and a per-item overhead over the GPUs, the
 * import's a file's typical build over the jobs (a cached file takes none). */
static double epoch_s(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* OUT/reproduce-state.json at a stage's start: the stage, its form, its
 * items in all and done so far (a resumed sweep's journal), so that
 * `--status` can say where the reproduction stands from another terminal.
 * A state that cannot be written is said, not fatal: the measurement goes on. */
static void record_stage(repro *r, stage_id id)
{
    hb_repro_state *s = &r->state;
    snprintf(s->stage, sizeof s->stage, "%s", stage_names[id]);
    int per_form = id == STAGE_SWEEP || id == STAGE_REPORT || id == STAGE_COMPARE;
    snprintf(s->form, sizeof s->form, "%s", per_form ? hb_repro_form_name(r->forms[r->form]) : "");
    s->stage_index = r->stage_index;
    s->stage_count = r->stage_count;
    s->stage_started_s = epoch_s();
    s->total = id == STAGE_IMPORT ? (long long)r->shard_configs : id == STAGE_SWEEP ? (long long)r->shard_items : -1;
    s->journal[0] = '\0';
    s->done_at_start = 0;
    if (id == STAGE_SWEEP) {
        snprintf(s->journal, sizeof s->journal, "%.3100s/journal.jsonl", r->sweep_dir);
        s->done_at_start = hb_repro_journal_done(s->journal);
    }
    if (hb_repro_state_write(r->out, r->suffix, s) != HB_OK)
        fprintf(stderr, "reproduce: warning: `--status` will not see this stage: %s\n", hb_last_error());
}

static void announce(repro *r, stage_id id)
{
    if (r->run->dry_run)
        return;
    r->stage_index++;
    record_stage(r, id);
    int index = r->stage_index, count = r->stage_count;
    double rest = 10; /* report, compare and the page: seconds */
    if (id <= STAGE_IMPORT)
        rest += import_estimate_s(r);
    if (id < STAGE_SWEEP)
        rest += sweep_estimate_s(r) * (double)r->n_forms;
    else if (id == STAGE_SWEEP)
        rest += sweep_estimate_s(r) * (double)(r->n_forms - r->form);
    char left[32];
    say_minutes(left, sizeof left, rest);
    char form[40] = "";
    if (r->state.form[0])
        snprintf(form, sizeof form, " (%s form)", r->state.form);
    fprintf(stderr, "reproduce: stage %d of %d, %s%s; at most about %s left in all (ETA from the windows and a file's "
            "typical build; the stage prints its own)\n",
            index, count, stage_names[id], form, left);
}

/* --- the stages -------------------------------------------------------------------- */

static hb_status run_stage(repro *r, stage_id id, hb_argv *a, const char *stdout_path, const int *accepted)
{
    if (a->overflow)
        return hb_fail(HB_ERR_INTERNAL, "reproduce: the %s stage's command line is too long", stage_names[id]);
    if (r->run->dry_run) { /* the command line the stage would run, and where its tables would go */
        printf("%s:", stage_names[id]);
        for (size_t i = 0; i < a->count; i++)
            printf(" %s", a->word[i]);
        printf("%s%s\n", stdout_path ? " > " : "", stdout_path ? stdout_path : "");
        return HB_OK;
    }
    hb_stage_end end;
    HB_TRY(hb_stage_child_run(a, stdout_path, accepted, &end));
    r->seconds[id] += end.seconds; /* a stage of each form, each mode: their sum */
    r->ran[id] = 1;
    fprintf(stderr, "reproduce: %s took %.0f s (exit %d)\n", stage_names[id], end.seconds, end.code);
    if (end.signal || end.code > 128) {
        int sig = end.signal ? end.signal : end.code - 128;
        fprintf(stderr, "reproduce: interrupted during %s: the same command resumes it\n", stage_names[id]);
        return (hb_status)(128 + sig);
    }
    for (const int *ok = accepted; *ok >= 0; ok++)
        if (end.code == *ok)
            return HB_OK;
    return hb_fail(end.code > 0 && end.code < 128 ? (hb_status)end.code : HB_ERR_INTERNAL,
                   "reproduce: the %s stage failed (exit %d; its messages are above); fix that and run the same "
                   "command again: what finished is kept",
                   stage_names[id], end.code);
}

static void begin(hb_argv *a, const char *command)
{
    memset(a, 0, sizeof *a);
    hb_argv_add(a, "hgemm-bench"); /* replaced by this binary's path */
    hb_argv_add(a, command);
    if (hb_diag_is_verbose()) /* every stage's errors name their source line too */
        hb_argv_add(a, "--verbose");
}

static void add_pair(hb_argv *a, const char *flag, const char *value)
{
    hb_argv_add(a, flag);
    hb_argv_add(a, value);
}

static hb_status stage_import(repro *r)
{
    char plan[3200];
    snprintf(plan, sizeof plan, "%s", r->plan_path);
    if (r->sharded) { /* the shard's configurations only */
        snprintf(plan, sizeof plan, "%s/plan-shard-%zu-of-%zu.txt", r->out, r->shard.index, r->shard.count);
        if (!r->run->dry_run)
            HB_TRY(hb_repro_plan_write(&r->plan, &r->shard, plan));
    }
    static const char *const except[] = {"grid", "mnk-file", "m", "n", "k", "sample", "out", "kernels", "arch",
                                         "cache", "report", "verbose", NULL};
    hb_argv a;
    begin(&a, "import");
    hb_argv_add(&a, r->format->name);
    add_pair(&a, "--kernels", r->kernels);
    add_pair(&a, "--out", r->set_dir);
    add_pair(&a, "--mnk-file", plan);
    add_pair(&a, "--arch", r->arch);
    add_pair(&a, "--cache", r->cache);
    char report[96];
    if (r->sharded) {
        snprintf(report, sizeof report, "import-shard-%zu-of-%zu.csv", r->shard.index, r->shard.count);
        add_pair(&a, "--report", report);
    }
    HB_TRY(hb_argv_add_options(&a, r->run, HB_CMD_IMPORT, except));
    static const int accepted[] = {0, 3, -1}; /* 3: some files failed or were skipped: the census says which */
    return run_stage(r, STAGE_IMPORT, &a, NULL, accepted);
}

static int has_plan(const char *sweep_dir)
{
    char path[3200];
    snprintf(path, sizeof path, "%s/plan.json", sweep_dir);
    struct stat st;
    return stat(path, &st) == 0;
}

/* The shards' sweep folders, when the whole sweep has none yet: merged
 * into it first. */
static hb_status stage_merge(repro *r, int *merged)
{
    *merged = 0;
    if (r->sharded || r->run->dry_run || has_plan(r->sweep_dir))
        return HB_OK;
    char pattern[3300];
    snprintf(pattern, sizeof pattern, "%s-shard-*-of-*", r->sweep_dir); /* OUT/sweep: OUT/sweep-shard-I-of-N */
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return HB_OK;
    hb_argv a;
    begin(&a, "merge");
    hb_argv_add(&a, r->sweep_dir);
    for (size_t i = 0; i < g.gl_pathc; i++)
        hb_argv_add(&a, g.gl_pathv[i]);
    globfree(&g);
    fprintf(stderr, "reproduce: merging the shards' sweeps into %s\n", r->sweep_dir);
    static const int accepted[] = {0, -1};
    *merged = 1;
    return run_stage(r, STAGE_MERGE, &a, NULL, accepted);
}

static hb_status stage_sweep(repro *r)
{
    hb_argv a;
    begin(&a, "sweep");
    if (has_plan(r->sweep_dir)) {
        fprintf(stderr, "reproduce: %s holds this sweep: resuming it (a finished one runs nothing)\n", r->sweep_dir);
        add_pair(&a, "--resume", r->sweep_dir);
        if (r->run->devices)
            add_pair(&a, "--devices", r->run->devices);
        if (!r->run->progress)
            hb_argv_add(&a, "--no-progress");
    } else {
        static const char *const except[] = {"out",   "grid",  "mnk-file", "m",         "n",       "k",       "sample",
                                             "modes", "shard", "acc",      "candidate", "dry-run", "verbose", "form",
                                             NULL};
        add_pair(&a, "--candidate", r->set_dir);
        /* the form, said on the command line whatever the default: the sweep's plan.json keeps it, and a
         * resumed sweep (above) takes it from there */
        add_pair(&a, "--form", hb_repro_form_name(r->forms[r->form]));
        add_pair(&a, "--mnk-file", r->plan_path);
        add_pair(&a, "--modes", r->run->modes ? r->run->modes : "offline,server");
        add_pair(&a, "--acc", r->set->acc);
        add_pair(&a, "--out", r->sweep_dir);
        if (r->sharded)
            add_pair(&a, "--shard", r->run->shard);
        HB_TRY(hb_argv_add_options(&a, r->run, HB_CMD_SWEEP, except));
    }
    /* Any verdict is a finding, not a failed stage: 3, 4, 6, 8, 9, 10, 12 and
     * 13 are candidates' verdicts; usage, GPU, I/O and bad results stop it. */
    static const int accepted[] = {0, 3, 4, 6, 8, 9, 10, 12, 13, -1};
    return run_stage(r, STAGE_SWEEP, &a, NULL, accepted);
}

static hb_status stage_report(repro *r)
{
    char out[3200], md[3200];
    const char *name = hb_repro_form_report(r->forms[r->form]);
    snprintf(out, sizeof out, "%s/%s", r->out, name);
    snprintf(md, sizeof md, "%s/%s.md", r->out, name);
    hb_argv a;
    begin(&a, "report");
    hb_argv_add(&a, r->sweep_dir);
    add_pair(&a, "--out", out);
    if (r->plots)
        hb_argv_add(&a, "--plots");
    static const int accepted[] = {0, -1};
    return run_stage(r, STAGE_REPORT, &a, md, accepted);
}

/* The published CSV of `mode` (CUDA-L2: eval_results/cuda_l2_<folder>_speedup_<mode>.csv). */
static void published_path(const repro *r, hb_mode mode, char *out, size_t size)
{
    r->format->published_results(r->run->reproduce.repo, r->set, hb_mode_name(mode), out, size);
}

/* OUT/compare-MODE.md of a mode this run compared not (not in the sweep,
 * no published CSV): an earlier run's, which the page must not be read
 * beside.  Only a regular file of that name goes: a link is left, and said. */
static hb_status remove_stale_comparison(const repro *r, hb_mode mode)
{
    char md[3200];
    snprintf(md, sizeof md, "%s/%s%s.md", r->out, hb_repro_form_compare_prefix(r->forms[r->form]),
             hb_mode_name(mode));
    struct stat st;
    if (lstat(md, &st) != 0)
        return HB_OK;
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "reproduce: %s is not a regular file: left as it is (this run has no %s comparison)\n", md,
                hb_mode_name(mode));
        return HB_OK;
    }
    if (unlink(md) != 0)
        return hb_fail(HB_ERR_IO, "reproduce: cannot remove %s, an earlier run's %s comparison (this run has none): "
                       "%s", md, hb_mode_name(mode), strerror(errno));
    fprintf(stderr, "reproduce: removed %s, an earlier run's: this run has no %s comparison\n", md,
            hb_mode_name(mode));
    return HB_OK;
}

static hb_status stage_compare(repro *r)
{
    for (size_t i = 0; i < r->plan.plan.n_modes; i++) {
        hb_mode mode = r->plan.plan.modes[i];
        char published[3200], out[3200], md[3200];
        published_path(r, mode, published, sizeof published);
        struct stat st;
        if (stat(published, &st) != 0) {
            fprintf(stderr, "reproduce: no published CSV for the %s mode (%s): no comparison\n", hb_mode_name(mode),
                    published);
            continue;
        }
        const char *prefix = hb_repro_form_compare_prefix(r->forms[r->form]);
        snprintf(out, sizeof out, "%s/%s%s", r->out, prefix, hb_mode_name(mode));
        snprintf(md, sizeof md, "%s/%s%s.md", r->out, prefix, hb_mode_name(mode));
        hb_argv a;
        begin(&a, "compare");
        hb_argv_add(&a, r->sweep_dir);
        add_pair(&a, "--published", published);
        add_pair(&a, "--mode", hb_mode_name(mode));
        add_pair(&a, "--out", out);
        if (r->plots)
            hb_argv_add(&a, "--plots");
        static const int accepted[] = {0, -1};
        HB_TRY(run_stage(r, STAGE_COMPARE, &a, md, accepted));
        r->compared[r->form][i] = 1;
    }
    static const hb_mode every_mode[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    for (size_t m = 0; !r->run->dry_run && m < sizeof every_mode / sizeof every_mode[0]; m++) {
        int compared = 0;
        for (size_t i = 0; i < r->plan.plan.n_modes; i++)
            compared |= r->plan.plan.modes[i] == every_mode[m] && r->compared[r->form][i];
        if (!compared)
            HB_TRY(remove_stale_comparison(r, every_mode[m]));
    }
    return HB_OK;
}

static hb_status stage_page(repro *r)
{
    hb_repro_page_input in = {
        .out_dir = r->out, .set_name = r->set->name, .set_folder = r->set->folder, .tuned_for = r->set->tuned_for,
        .acc = r->set->acc, .repo = r->run->reproduce.repo, .gpu_here = r->gpu, .arch = r->arch,
        .plan_source = r->plan.source, .set_files = r->plan.set_files, .without_file = r->plan.without_file,
        .command_line = r->command_line, .set_dir = r->set_dir};
    for (size_t f = 0; f < r->n_forms; f++) {
        hb_repro_page_form *form = &in.forms[in.n_forms++];
        form->name = hb_repro_form_name(r->forms[f]);
        form->sweep_dir = r->sweep_dirs[f];
        form->report = hb_repro_form_report(r->forms[f]);
        form->compare_prefix = hb_repro_form_compare_prefix(r->forms[f]);
        for (size_t i = 0; i < r->plan.plan.n_modes; i++)
            form->compared[i] = r->compared[f][i];
    }
    if (r->run->reproduce.tables_only) { /* the sweep's, not this command's flags */
        in.n_configs = r->sweep.n_configs;
        in.configs_from_rows = !r->sweep.planned;
        in.without_file = 0;
    } else {
        in.n_configs = r->plan.plan.n_configs;
    }
    for (size_t i = 0; i < r->plan.plan.n_modes; i++) {
        in.modes[in.n_modes] = r->plan.plan.modes[i];
        published_path(r, r->plan.plan.modes[i], in.published[in.n_modes], sizeof in.published[0]);
        in.n_modes++;
    }
    for (int s = 0; s < STAGE_PAGE; s++)
        if (r->ran[s]) {
            in.stage_names[in.n_stages] = stage_names[s];
            in.stage_seconds[in.n_stages++] = r->seconds[s];
        }
    double started = hb_now_s();
    HB_TRY(hb_repro_page_write(&in));
    r->seconds[STAGE_PAGE] = hb_now_s() - started;
    fprintf(stderr, "reproduce: the summary page is %s/summary.md\n", r->out);
    return HB_OK;
}

/* --- the command ------------------------------------------------------------------- */

/* A sweep of the form named `name` (OUT/NAME or its shards' OUT/NAME-shard-I-of-N) is in OUT. */
static int has_sweep(const repro *r, hb_form_choice form)
{
    char name[128], path[3300];
    hb_repro_form_sweep(form, "", name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", r->out, name);
    if (hb_is_folder(path))
        return 1;
    snprintf(path, sizeof path, "%s/%s-shard-*-of-*", r->out, name);
    glob_t g;
    int found = glob(path, 0, NULL, &g) == 0;
    if (found)
        globfree(&g);
    return found;
}

/* --tables-only without --forms: the forms whose sweeps OUT holds (the
 * replay's alone where it holds none: its message says to measure first). */
static hb_status held_forms(repro *r)
{
    int launcher = has_sweep(r, HB_FORM_CHOICE_LAUNCHER), replay = has_sweep(r, HB_FORM_CHOICE_REPLAY);
    r->n_forms = 0;
    if (replay || !launcher)
        r->forms[r->n_forms++] = HB_FORM_CHOICE_REPLAY;
    if (launcher)
        r->forms[r->n_forms++] = HB_FORM_CHOICE_LAUNCHER;
    return paths(r);
}

/* 1 when stderr is OUT/reproduce.log: a detached run's, whose path --status then names. */
static int logging_to(const char *log)
{
    struct stat mine, file;
    return fstat(STDERR_FILENO, &mine) == 0 && stat(log, &file) == 0 && mine.st_dev == file.st_dev &&
           mine.st_ino == file.st_ino;
}

/* The state before the first stage: this process, since now, its stages. */
static void begin_state(repro *r)
{
    hb_repro_state *s = &r->state;
    s->pid = (long)getpid();
    hb_process_start_ticks(getpid(), &s->pid_start);
    s->started_s = epoch_s();
    size_t forms = r->n_forms;
    r->stage_count = (int)(r->sharded ? 1 + forms : r->run->reproduce.tables_only ? 2 * forms + 1 : 2 + 3 * forms);
    snprintf(s->log, sizeof s->log, "%.3000s/reproduce%s.log", r->out, r->suffix);
    if (!logging_to(s->log))
        s->log[0] = '\0';
}

/* The end in the state file: --status then says finished, with the exit
 * code.  An interrupted run (128 + N) is left in its stage: not running,
 * and the same command resumes it. */
static void end_state(repro *r, hb_status status)
{
    if (!r->state.pid || (int)status >= 128)
        return;
    r->state.ended = 1;
    r->state.exit_code = (int)status;
    snprintf(r->state.stage, sizeof r->state.stage, "finished");
    r->state.form[0] = '\0';
    r->state.journal[0] = '\0';
    r->state.total = -1;
    hb_diag_set_quiet(1); /* the run's own outcome is what it reports */
    hb_repro_state_write(r->out, r->suffix, &r->state);
    hb_diag_set_quiet(0);
}

static hb_status prepare(repro *r, hb_cli *cli)
{
    hb_run_options *run = &cli->run;
    HB_TRY(hb_import_format_lookup("reproduce", cli->n_operands == 1 ? cli->operands[0] : NULL, &r->format));
    if (!run->reproduce.repo || !run->reproduce.set)
        return hb_fail(HB_ERR_USAGE, "reproduce: --repo DIR and --set NAME are required (--repo: %s)",
                       r->format->repo_hint);
    if (!run->seed_given) { /* fixed, so a rerun and every shard draw the same sample */
        run->seed = REPRODUCE_DEFAULT_SEED;
        run->seed_given = 1;
    }
    r->run = run;
    r->shard = (hb_shard){0, 1};
    if (run->shard)
        HB_TRY(hb_shard_parse(run->shard, &r->shard));
    r->sharded = r->shard.count > 1;
    HB_TRY(hb_repro_forms_parse(run->reproduce.forms, r->forms, &r->n_forms));
    HB_TRY(find_set(r->format, run->reproduce.set, &r->set));
    HB_TRY(paths(r));
    if (run->reproduce.tables_only && !run->reproduce.forms) /* the forms the folder holds */
        HB_TRY(held_forms(r));
    HB_TRY(hb_repro_plan_make(run, r->format, r->kernels, &r->plan));
    size_t modes = r->plan.plan.n_modes;
    for (size_t c = 0; c < r->plan.plan.n_configs; c++) {
        size_t held = 0;
        for (size_t m = 0; m < modes; m++)
            held += (size_t)hb_shard_holds(&r->shard, c * modes + m);
        r->shard_items += held;
        r->shard_configs += held > 0;
    }
    r->plots = !run->reproduce.no_plots && !r->sharded && hb_gnuplot_available();
    if (run->reproduce.detach) /* the detached run checks the rest, and needs the GPU, itself */
        return HB_OK;
    if (run->reproduce.tables_only) { /* what the folder holds: the import's target is the one it recorded */
        if (r->sharded)
            return hb_fail(HB_ERR_USAGE, "reproduce: --tables-only writes the tables of the whole reproduction: "
                           "drop --shard");
        HB_TRY(read_measured(r)); /* before OUT is made or locked: nothing measured, nothing left behind */
        recorded_arch(r, run->import.arch);
    } else {
        HB_TRY(target(r));
    }
    if (run->dry_run)
        return HB_OK;
    HB_TRY(hb_make_folders(r->out, "the reproduction's folder (--out)"));
    if (!r->sharded) /* one reproduction writes OUT's report, comparisons and page at a time */
        HB_TRY(hb_folder_lock_take(&r->lock, r->out, "reproduce"));
    begin_state(r);
    /* --tables-only measures nothing: it reads what the folder holds, planned as it was */
    return run->reproduce.tables_only ? HB_OK : hb_repro_plan_write(&r->plan, &(hb_shard){0, 1}, r->plan_path);
}

/* The stages that need the GPU: the import (cached) and the sweep (resumed). */
static void use_form(repro *r, size_t form)
{
    r->form = form;
    r->sweep_dir = r->sweep_dirs[form];
}

static hb_status measure(repro *r)
{
    announce(r, STAGE_IMPORT);
    HB_TRY(stage_import(r));
    for (size_t f = 0; f < r->n_forms; f++) { /* a sweep per form, each resumed by its own journal */
        use_form(r, f);
        int merged = 0;
        HB_TRY(stage_merge(r, &merged));
        announce(r, STAGE_SWEEP);
        HB_TRY(stage_sweep(r));
    }
    return HB_OK;
}

/* The stages that read files only: the report, the comparisons, the page. */
static hb_status tables(repro *r)
{
    for (size_t f = 0; f < r->n_forms; f++) {
        use_form(r, f);
        int merged = 0;
        if (r->run->reproduce.tables_only) /* the shards' sweeps, measured elsewhere, joined here */
            HB_TRY(stage_merge(r, &merged));
        announce(r, STAGE_REPORT);
        HB_TRY(stage_report(r));
        announce(r, STAGE_COMPARE);
        HB_TRY(stage_compare(r));
    }
    announce(r, STAGE_PAGE);
    if (r->run->dry_run) {
        printf("summary: %s/summary.md\n", r->out);
        return HB_OK;
    }
    return stage_page(r);
}

static hb_status reproduce(repro *r)
{
    int tables_only = r->run->reproduce.tables_only;
    char modes[32], forms[32] = "";
    mode_list(r->plan.plan.modes, r->plan.plan.n_modes, modes, sizeof modes);
    for (size_t f = 0; f < r->n_forms; f++)
        snprintf(forms + strlen(forms), sizeof forms - strlen(forms), "%s%s", f ? "," : "",
                 hb_repro_form_name(r->forms[f]));
    fprintf(stderr, "reproduce: %s (%s, tuned on %s) on %s, built for %s: %zu configurations (%s)%s in %s, the %s "
            "form%s%s\n",
            r->set->name, r->set->folder, r->set->tuned_for, r->gpu[0] ? r->gpu : "no GPU here", r->arch,
            tables_only ? r->sweep.n_configs : r->plan.plan.n_configs, r->plan.source,
            tables_only ? (r->sweep.planned ? ", as the sweep planned them" : ", as the sweep's rows hold them") : "",
            modes, forms, r->n_forms > 1 ? "s" : "", r->sharded ? "; this shard only" : "");
    say_assumed_arch(r);
    if (!tables_only)
        HB_TRY(measure(r));
    if (r->sharded) {
        fprintf(stderr, "reproduce: shard %zu of %zu done (%s). When every shard is, run the same command without "
                "--shard: it merges the shards' sweeps and writes the tables (docs/slurm.md)\n",
                r->shard.index, r->shard.count, r->sweep_dir);
        return HB_OK;
    }
    return tables(r);
}

/* --- --detach ---------------------------------------------------------------------- */

static hb_status self_path(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot read /proc/self/exe to start the detached run: %s", strerror(errno));
    out[n] = '\0';
    return HB_OK;
}

/* Another reproduction writing OUT: one started by --detach or in a
 * terminal (its pid and start time in OUT's files), or holding OUT's lock.
 * HB_ERR_IO, the lock's code, naming it. */
static hb_status refuse_a_second(repro *r)
{
    pid_t running = hb_repro_running(r->out, r->suffix);
    if (running)
        return hb_fail(HB_ERR_IO, "reproduce --detach: a reproduction already runs in %s (pid %ld): see where it "
                       "stands with `hgemm-bench reproduce --status %s`; to start again, stop it first (kill %ld): "
                       "the same command resumes what it finished", r->out, (long)running, r->out, (long)running);
    if (r->sharded) /* shards share OUT and take no lock on it */
        return HB_OK;
    HB_TRY(hb_folder_lock_take(&r->lock, r->out, "reproduce"));
    hb_folder_lock_release(&r->lock);
    return HB_OK;
}

/* The same command without --detach, in a session of its own (no
 * controlling terminal: a closed login's SIGHUP never reaches it), stdin
 * from /dev/null, stdout and stderr appended to OUT/reproduce.log; its pid
 * and start time into OUT/reproduce.pid.  Returns at once. */
static hb_status detach(repro *r)
{
    HB_TRY(hb_make_folders(r->out, "the reproduction's folder (--out)"));
    HB_TRY(refuse_a_second(r));
    char self[4096], log[3300];
    HB_TRY(self_path(self, sizeof self));
    hb_argv a;
    memset(&a, 0, sizeof a);
    hb_argv_add(&a, self);
    hb_argv_add(&a, "reproduce");
    hb_argv_add(&a, r->format->name);
    static const char *const except[] = {"detach", NULL};
    HB_TRY(hb_argv_add_options(&a, r->run, HB_CMD_REPRODUCE, except));
    if (a.overflow)
        return hb_fail(HB_ERR_INTERNAL, "reproduce --detach: the command line is too long");
    snprintf(log, sizeof log, "%s/reproduce%s.log", r->out, r->suffix);
    int fd;
    HB_TRY(hb_open_output(log, 1, &fd));
    char when[64];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    dprintf(fd, "reproduce --detach: started %s:", when);
    for (size_t i = 0; i < a.count; i++)
        dprintf(fd, " %s", a.word[i]);
    dprintf(fd, "\n");
    hb_process child = HB_PROCESS_INIT;
    child.argv = a.word;
    child.in = HB_FD_NULL;
    child.out = fd;
    child.err = fd;
    child.new_session = 1;
    child.new_group = 1;
    child.default_signals = 1;
    hb_status status = hb_process_start(&child);
    close(fd);
    HB_TRY(status);
    unsigned long long start = 0;
    hb_process_start_ticks(child.pid, &start);
    HB_TRY(hb_repro_pid_write(r->out, r->suffix, child.pid, start));
    printf("reproduce: started in the background as pid %ld, in a session of its own: it outlives this terminal\n"
           "  its log:         %s\n"
           "  where it stands: hgemm-bench reproduce --status %s\n"
           "  after a stop:    the same command (with or without --detach) resumes it\n",
           (long)child.pid, log, r->out);
    return HB_OK;
}

hb_status hb_cmd_reproduce(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)self;
    if (cli->run.reproduce.status) { /* reads OUT only: no plan, no lock, no GPU */
        if (cli->n_operands)
            return hb_fail(HB_ERR_USAGE, "reproduce --status OUT takes no format: give the folder alone");
        return hb_repro_status_print(cli->run.reproduce.status, stdout);
    }
    static repro r; /* large: the plan */
    memset(&r, 0, sizeof r);
    r.command_line = command_line;
    r.lock.fd = -1;
    HB_TRY(prepare(&r, cli));
    if (cli->run.reproduce.detach)
        return detach(&r);
    hb_status status = reproduce(&r);
    if (!r.run->dry_run)
        end_state(&r, status);
    return status;
}
