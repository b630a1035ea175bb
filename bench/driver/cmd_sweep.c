/* `hgemm-bench sweep` (docs/sweeps.md): a plan of configurations and modes,
 * run as `run` runs each configuration, over the GPUs of this host, into a
 * sweep folder that survives a crash: plan.json first, then env.json, then
 * summary.csv and the journal item by item, verdict.json at the end of each
 * session.  `--resume DIR` starts a new session of the sweep in DIR. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/folder_lock.h"
#include "bench/core/folders.h"
#include "bench/core/version.h"
#include "bench/driver/commands.h"
#include "bench/driver/config_runner.h"
#include "bench/driver/interrupt.h"
#include "bench/driver/options.h"
#include "bench/driver/preflight.h"
#include "bench/driver/reward_source.h"
#include "bench/driver/run_loop.h"
#include "bench/driver/sanitize_pass.h"
#include "bench/driver/sweep_workers.h"
#include "bench/report/env_json.h"
#include "bench/report/json_values.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/plan_source.h"
#include "bench/sweep/sweep_progress.h"
#include "bench/sweep/sweep_store.h"
#include "bench/sweep/sweep_verdict.h"

/* A sweep's seed when --seed is not given: fixed, so that the shards of one
 * sweep, planned on different nodes, draw the same sample and the same
 * inputs and carry the same sweep_id. */
#define HB_SWEEP_DEFAULT_SEED 20251201ULL

/* The flags that are not the sweep's settings: where it is written and
 * watched, and the plan's source (the plan itself is in plan.json). */
static const char *const not_settings[] = {"out",    "device", "devices", "no-progress", "verdict", "shard",
                                           "resume", "dry-run", "grid",   "mnk-file",    "m",       "n",
                                           "k",      "sample", "mode",    "modes",       "verbose", NULL};

typedef struct sweep_state {
    hb_run_options *options;
    hb_plan_file *file;
    const char *command_line;
    char folder[4096];
    char started_utc[32];
    int session;                 /* 0: the sweep's first */
    hb_sweep_store store;
    int store_open;
    hb_folder_lock lock;         /* the folder's, held for the whole session (its workers inherit it) */
    hb_config_result *preflight; /* one per configuration */
    int ordinals[HB_MAX_WORKERS];
    size_t workers;
    hb_device_info devices[HB_MAX_WORKERS];
    hb_status device_status[HB_MAX_WORKERS];
    hb_plausibility_warnings plausibility;
    hb_sweep_progress progress;
    char sanitizer[4096];        /* compute-sanitizer, with --sanitize */
    hb_item_cost cost;           /* the items run in this session, summed (bench/result/item_cost.h) */
    size_t costed;               /* how many */
} sweep_state;

/* --- the plan ------------------------------------------------------------------------------- */

/* The settings as flags: every flag of the sweep that differs from its
 * default, --modes normalised from --mode or --modes. */
static hb_status settings_words(const hb_run_options *o, const hb_sweep_plan *plan, hb_plan_file *file)
{
    static hb_argv argv;
    memset(&argv, 0, sizeof argv);
    HB_TRY(hb_argv_add_options(&argv, o, HB_CMD_SWEEP, not_settings));
    char modes[32];
    snprintf(modes, sizeof modes, "%s%s%s", hb_mode_name(plan->modes[0]), plan->n_modes > 1 ? "," : "",
             plan->n_modes > 1 ? hb_mode_name(plan->modes[1]) : "");
    hb_argv_add(&argv, "--modes");
    hb_argv_add(&argv, modes);
    if (argv.overflow)
        return hb_fail(HB_ERR_INTERNAL, "the sweep's settings do not fit a command line");
    return hb_plan_file_set_words(file, argv.word, argv.count);
}

/* plan.json is JSON: a setting or a command line it cannot hold as text (a
 * path that is not UTF-8) is the user's to change, said before anything is
 * written. */
static hb_status check_plan_text(const hb_plan_file *file)
{
    for (size_t i = 0; i < file->n_words; i++)
        if (!hb_json_text_is_valid(file->words[i]))
            return hb_fail(HB_ERR_USAGE, "sweep: the value of %s is not UTF-8 text, which plan.json (JSON) must "
                           "hold as it is: give it through a name that is (rename it, or make a link to it)",
                           i > 0 ? file->words[i - 1] : "a flag");
    if (!hb_json_text_is_valid(file->command_line))
        return hb_fail(HB_ERR_USAGE, "sweep: the command line holds text that is not UTF-8 (a path given to --out, "
                       "--mnk-file or --verdict?), which plan.json (JSON) must hold as it is: give it through a "
                       "name that is (rename it, or make a link to it)");
    return HB_OK;
}

static hb_status make_plan(hb_run_options *o, const char *command_line, hb_plan_file *file)
{
    memset(file, 0, sizeof *file);
    hb_sweep_plan *plan = &file->plan;
    if (!o->seed_given) {
        o->seed = HB_SWEEP_DEFAULT_SEED;
        o->seed_given = 1;
    }
    HB_TRY(hb_plan_set_modes(plan, o->modes ? o->modes : hb_mode_name(o->mode)));
    HB_TRY(hb_plan_from_options(o, "sweep", plan));
    hb_plan_sample(plan, (size_t)o->sample, o->seed);
    file->shard = (hb_shard){0, 1};
    if (o->shard)
        HB_TRY(hb_shard_parse(o->shard, &file->shard));
    memcpy(o->configs, plan->configs, plan->n_configs * sizeof plan->configs[0]);
    o->n_configs = plan->n_configs;
    snprintf(file->harness_commit, sizeof file->harness_commit, "%s", hb_harness_commit());
    hb_utc_now(file->created_utc, sizeof file->created_utc);
    snprintf(file->command_line, sizeof file->command_line, "%s", command_line);
    HB_TRY(settings_words(o, plan, file));
    HB_TRY(check_plan_text(file));
    hb_plan_file_identify(file);
    return HB_OK;
}

/* --- the folder ------------------------------------------------------------------------------ */

static int folder_is_empty(const char *path)
{
    DIR *dir = opendir(path);
    if (!dir)
        return 0;
    struct dirent *entry;
    int empty = 1;
    while (empty && (entry = readdir(dir))) /* a lock file alone: a sweep that stopped before its plan */
        empty = !strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..") ||
                !strcmp(entry->d_name, HB_FOLDER_LOCK_NAME);
    closedir(dir);
    return empty;
}

/* --out DIR, or results/sweep-<id>[-shard-I-of-N]: named, and refused
 * unless it is a new folder or an empty one (nothing is made yet). */
static hb_status choose_folder(sweep_state *s)
{
    const hb_plan_file *f = s->file;
    if (strcmp(s->options->out_dir, "results"))
        snprintf(s->folder, sizeof s->folder, "%s", s->options->out_dir);
    else if (f->shard.count > 1)
        snprintf(s->folder, sizeof s->folder, "results/sweep-%s-shard-%zu-of-%zu", f->sweep_id, f->shard.index,
                 f->shard.count);
    else
        snprintf(s->folder, sizeof s->folder, "results/sweep-%s", f->sweep_id);
    char plan_path[4200];
    snprintf(plan_path, sizeof plan_path, "%s/plan.json", s->folder);
    struct stat info;
    if (stat(plan_path, &info) == 0)
        return hb_fail(HB_ERR_USAGE, "%s already holds a sweep: continue it with hgemm-bench sweep --resume %s, or "
                       "give another --out", s->folder, s->folder);
    if (stat(s->folder, &info) == 0 && (!S_ISDIR(info.st_mode) || !folder_is_empty(s->folder)))
        return hb_fail(HB_ERR_USAGE, "--out %s exists and is not an empty folder: a sweep folder is new", s->folder);
    return HB_OK;
}

/* --- devices ----------------------------------------------------------------------------------- */

static hb_status parse_ordinals(const char *list, sweep_state *s)
{
    const char *cursor = list;
    s->workers = 0;
    for (;;) {
        char *end = NULL;
        errno = 0;
        long value = (*cursor >= '0' && *cursor <= '9') ? strtol(cursor, &end, 10) : -1;
        if (value < 0 || value > 1024 || errno || (*end != ',' && *end != '\0') || s->workers == HB_MAX_WORKERS)
            return hb_fail(HB_ERR_USAGE, "--devices expects all or CUDA ordinals like 0,1 (at most %d), got '%s'",
                           HB_MAX_WORKERS, list);
        for (size_t i = 0; i < s->workers; i++)
            if (s->ordinals[i] == (int)value)
                return hb_fail(HB_ERR_USAGE, "--devices names GPU %ld twice in '%s'", value, list);
        s->ordinals[s->workers++] = (int)value;
        if (*end == '\0')
            return HB_OK;
        cursor = end + 1;
    }
}

/* A GPU the session can use, asked (in a child: this process stays free of
 * CUDA) before the folder is made or changed, so that a machine without a
 * driver or a GPU leaves nothing behind and the same command runs again
 * once one is there.  --devices all is resolved here; of a list, one GPU
 * that exists is enough (the workers go on without the others). */
static hb_status check_gpus(sweep_state *s)
{
    int count = 0;
    HB_TRY(hb_sweep_device_count(s->options->timeout_s, &count)); /* its child said why there is none */
    const char *list = s->options->devices;
    if (list && !strcmp(list, "all")) {
        s->workers = (size_t)(count < HB_MAX_WORKERS ? count : HB_MAX_WORKERS);
        for (size_t i = 0; i < s->workers; i++)
            s->ordinals[i] = (int)i;
        return HB_OK;
    }
    for (size_t w = 0; w < s->workers; w++)
        if (s->ordinals[w] < count)
            return HB_OK;
    if (list)
        return hb_fail(HB_ERR_CUDA, "--devices %s: this machine has %d CUDA GPU(s), ordinals 0 to %d", list, count,
                       count - 1);
    return hb_fail(HB_ERR_CUDA, "--device %d: this machine has %d CUDA GPU(s), ordinals 0 to %d", s->ordinals[0], count,
                   count - 1);
}

/* The checks before the GPU (bench/driver/preflight.h), once per session and
 * before the folder is made or changed: their verdicts are recorded later,
 * and they tell whether the session needs a GPU at all. */
static hb_status check_before_gpu(sweep_state *s)
{
    s->options->out_dir = s->folder; /* what the checks test for writing */
    s->preflight = calloc(s->options->n_configs ? s->options->n_configs : 1, sizeof *s->preflight);
    if (!s->preflight)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu configurations", s->options->n_configs);
    size_t pending_checked = 0;
    return hb_preflight(s->options, s->preflight, &pending_checked);
}

/* An item of this folder's shard, not done yet (`done`: NULL for a new
 * sweep), whose configuration passed the checks before the GPU: only then
 * does the session open a GPU.  A sweep finished, or whose every
 * configuration failed those checks, is recorded and closed without one. */
static int needs_gpu(const sweep_state *s, const unsigned char *done)
{
    const size_t total = hb_plan_item_count(&s->file->plan);
    for (size_t i = 0; i < total; i++)
        if (hb_shard_holds(&s->file->shard, i) && !(done && done[i]) &&
            s->preflight[hb_plan_item_at(&s->file->plan, i).config].status == HB_OK)
            return 1;
    return 0;
}

/* Every usage error a session could meet (--devices, --sanitize without
 * compute-sanitizer, no place for the autotune cache), found before the
 * folder is made or changed: a corrected command line must find it as it was. */
static hb_status check_usage(sweep_state *s)
{
    if (s->options->sanitize)
        HB_TRY(hb_sanitizer_available(s->sanitizer, sizeof s->sanitizer));
    HB_TRY(hb_resolve_autotune_cache(s->options));
    HB_TRY(hb_reward_source_measure(s->options));
    const char *list = s->options->devices;
    if (list && strcmp(list, "all"))
        return parse_ordinals(list, s);
    s->ordinals[0] = s->options->device;
    s->workers = 1;
    return HB_OK;
}

/* --- recording --------------------------------------------------------------------------------- */

static hb_status record_item(sweep_state *s, const hb_device_info *device, size_t item, hb_config_result *r)
{
    hb_run_options *o = s->options;
    hb_plan_item it = hb_plan_item_at(&s->file->plan, item);
    o->mode = it.mode; /* the settings of this item's window, for its timing columns */
    hb_config_finish(o, device, &s->plausibility, r);
    /* The journal line is JSON and holds the row's reason byte for byte: a
     * reason cut mid-character (a long path of accented letters) or holding
     * a kernel's own bytes is made UTF-8 for both. */
    hb_json_text_repair(r->reason);
    hb_journal_entry entry = {.item = item, .mode = it.mode, .device = device ? device->ordinal : -1};
    snprintf(entry.gpu_uuid, sizeof entry.gpu_uuid, "%s", device ? device->uuid : "");
    HB_TRY(hb_sweep_store_append(&s->store, s->file->sweep_id, hb_acc_class_name(o->acc), r, &entry));
    if (r->cost.wall_s > 0) {
        hb_item_cost_sum(&s->cost, &r->cost);
        s->costed++;
    }
    hb_sweep_progress_item(&s->progress, r->status != HB_OK);
    return HB_OK;
}

static hb_status on_result(void *context, size_t worker, size_t item, hb_config_result *r)
{
    sweep_state *s = context;
    return record_item(s, &s->devices[worker], item, r);
}

static hb_status write_env(sweep_state *s)
{
    char path[4200];
    if (s->session == 0)
        snprintf(path, sizeof path, "%s/env.json", s->folder);
    else
        snprintf(path, sizeof path, "%s/env-session-%d.json", s->folder, s->session + 1);
    static hb_device_info usable[HB_MAX_WORKERS];
    size_t count = 0;
    for (size_t w = 0; w < s->workers; w++)
        if (s->device_status[w] == HB_OK)
            usable[count++] = s->devices[w];
    hb_run_record record = {
        .command = "sweep",
        .run_id = s->file->sweep_id,
        .run_path = s->folder,
        .command_line = s->command_line,
        .started_utc = s->started_utc,
        .options = s->options,
        .device = count ? &usable[0] : NULL,
        .devices = usable,
        .n_devices = count,
    };
    return hb_env_json_write(path, &record);
}

static hb_status on_devices(void *context, const hb_status *status, const hb_device_info *devices, size_t count)
{
    sweep_state *s = context;
    for (size_t w = 0; w < count; w++) {
        s->devices[w] = devices[w];
        s->device_status[w] = status[w];
        if (status[w] == HB_OK)
            fprintf(stderr, "hgemm-bench: sweep %s: GPU %d is %s (%s)\n", s->file->sweep_id, devices[w].ordinal,
                    devices[w].name, devices[w].uuid);
        else
            fprintf(stderr, "hgemm-bench: sweep %s: GPU %d could not be opened (%s); going on without it\n",
                    s->file->sweep_id, s->ordinals[w], hb_status_name(status[w]));
    }
    int usable = 0;
    for (size_t w = 0; w < count; w++)
        usable |= status[w] == HB_OK;
    if (usable) /* a GPU is there: the item in flight runs again, and only now is it dropped */
        HB_TRY(hb_sweep_store_drop_in_flight(&s->store));
    return write_env(s);
}

/* --- a session ------------------------------------------------------------------------------------ */

/* The items of this folder's shard not finished yet, in plan order; those
 * whose configuration failed the checks before the GPU are recorded now. */
static hb_status pending_items(sweep_state *s, size_t **items, size_t *count)
{
    const size_t total = hb_plan_item_count(&s->file->plan);
    *items = malloc((total ? total : 1) * sizeof **items);
    *count = 0;
    if (!*items)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu items", total);
    for (size_t i = 0; i < total && !hb_interrupted(); i++) {
        if (!hb_shard_holds(&s->file->shard, i) || s->store.done[i])
            continue;
        hb_config_result *pre = &s->preflight[hb_plan_item_at(&s->file->plan, i).config];
        if (pre->status == HB_OK) {
            (*items)[(*count)++] = i;
            continue;
        }
        static hb_config_result copy;
        copy = *pre;
        HB_TRY(record_item(s, NULL, i, &copy));
    }
    return HB_OK;
}

static size_t failed_so_far(const hb_sweep_store *store)
{
    size_t failed = 0;
    for (size_t i = 0; i < store->count; i++)
        failed += store->entries[i].status != HB_OK;
    return failed;
}

/* Where this session's items spent their time (docs/performance.md, "Where an item's time goes"). */
static void print_cost(const sweep_state *s, double session_s)
{
    if (s->costed == 0 || session_s <= 0)
        return;
    char line[1400];
    hb_item_cost_describe(&s->cost, s->costed, line, sizeof line);
    fprintf(stderr, "hgemm-bench: sweep %s: %.1f items a minute on %zu GPU%s (%.1f s); %s\n", s->file->sweep_id,
            (double)s->costed * 60.0 / session_s, s->workers, s->workers == 1 ? "" : "s", session_s, line);
}

static hb_status run_items(sweep_state *s, const char *sanitizer)
{
    const size_t shard_items = hb_shard_size(&s->file->shard, hb_plan_item_count(&s->file->plan));
    hb_sweep_progress_init(&s->progress, s->options->progress, shard_items, s->store.count,
                           failed_so_far(&s->store), s->workers);
    size_t *items, count;
    double session_s = 0;
    hb_status status = pending_items(s, &items, &count);
    if (status == HB_OK && count > 0 && !hb_interrupted()) {
        hb_sweep_work work = {s->options, &s->file->plan, s->ordinals, s->workers, items, count, sanitizer,
                              s->folder};
        hb_sweep_hooks hooks = {s, on_devices, on_result};
        const double start = hb_now_s();
        status = hb_sweep_workers_run(&work, &hooks);
        session_s = hb_now_s() - start;
    }
    free(items);
    hb_sweep_progress_end(&s->progress);
    print_cost(s, session_s);
    return status;
}

/* verdict.json (and --verdict FILE), the last lines on stderr, the exit status. */
static hb_status end_session(sweep_state *s, hb_status status)
{
    const int signal_number = hb_interrupted();
    if (status == HB_OK)
        status = hb_sweep_worst_status(&s->store);
    if (signal_number)
        status = (hb_status)(128 + signal_number);
    char path[4200];
    snprintf(path, sizeof path, "%s/verdict.json", s->folder);
    hb_status written = hb_sweep_verdict_write(path, s->file, &s->store, status, signal_number);
    if (written == HB_OK && s->options->verdict_path)
        written = hb_sweep_verdict_write(s->options->verdict_path, s->file, &s->store, status, signal_number);
    const size_t shard_items = hb_shard_size(&s->file->shard, hb_plan_item_count(&s->file->plan));
    fprintf(stderr, "hgemm-bench: sweep %s: %zu of %zu items done, %zu failed; results in %s\n", s->file->sweep_id,
            s->store.count, shard_items, failed_so_far(&s->store), s->folder);
    if (s->store.count < shard_items)
        fprintf(stderr, "hgemm-bench: to run the rest: hgemm-bench sweep --resume %s\n", s->folder);
    return written != HB_OK ? written : status;
}

static hb_status run_session(sweep_state *s)
{
    hb_utc_now(s->started_utc, sizeof s->started_utc);
    hb_status status = hb_interrupt_install();
    if (status == HB_OK)
        status = run_items(s, s->sanitizer);
    if (s->store_open)
        status = end_session(s, status);
    hb_sweep_store_close(&s->store);
    hb_interrupt_restore();
    return status;
}

/* --- the two ways in ------------------------------------------------------------------------------- */

static hb_status new_sweep(sweep_state *s)
{
    HB_TRY(check_usage(s));
    HB_TRY(choose_folder(s));
    HB_TRY(check_before_gpu(s));
    if (needs_gpu(s, NULL))
        HB_TRY(check_gpus(s));
    HB_TRY(hb_make_folders(s->folder, "sweep folder"));
    HB_TRY(hb_folder_lock_take(&s->lock, s->folder, "sweep"));
    HB_TRY(hb_plan_file_write(s->folder, s->file));
    HB_TRY(hb_sweep_store_create(&s->store, s->folder, &s->file->plan));
    s->store_open = 1;
    fprintf(stderr, "hgemm-bench: sweep %s: %zu items (%zu configurations x %zu modes)%s, in %s\n", s->file->sweep_id,
            hb_shard_size(&s->file->shard, hb_plan_item_count(&s->file->plan)), s->file->plan.n_configs,
            s->file->plan.n_modes, s->file->shard.count > 1 ? " in this shard" : "", s->folder);
    return run_session(s);
}

/* The sweep's settings, from its plan: the flags parsed again as typed
 * then, with the plan's configurations as --mnk. */
static hb_status settings_of(const hb_plan_file *file, hb_cli *cli)
{
    const hb_sweep_plan *plan = &file->plan;
    size_t count = 2 + file->n_words + 2 * plan->n_configs;
    char **argv = calloc(count + 1, sizeof *argv);
    char *mnk = malloc(plan->n_configs * 64 + 1);
    hb_status status = argv && mnk ? HB_OK : hb_fail(HB_ERR_INTERNAL, "out of host memory");
    size_t n = 0;
    if (status == HB_OK) {
        argv[n++] = "hgemm-bench";
        argv[n++] = "sweep";
        for (size_t i = 0; i < file->n_words; i++)
            argv[n++] = file->words[i];
        for (size_t i = 0; i < plan->n_configs; i++) {
            char *text = mnk + i * 64;
            snprintf(text, 64, "%ld,%ld,%ld", plan->configs[i].m, plan->configs[i].n, plan->configs[i].k);
            argv[n++] = "--mnk";
            argv[n++] = text;
        }
        status = hb_cli_parse((int)n, argv, cli);
        if (status != HB_OK)
            hb_fail(HB_ERR_BAD_RESULTS, "the settings in its plan.json are not ones this harness takes");
    }
    /* the options point into the plan file's words, not into argv or mnk (the configurations are copied) */
    free(argv);
    free(mnk);
    return status != HB_OK ? HB_ERR_BAD_RESULTS : HB_OK;
}

/* The folder is read and checked, and a GPU found when the session needs
 * one, before it is locked: a folder refused, or a machine without a GPU,
 * leaves it without even a lock file.  Should a writer have appended
 * between the check and the lock (it held the lock then, and has
 * finished), the files are read and checked again, now under the lock. */
static hb_status open_locked(sweep_state *s)
{
    HB_TRY(hb_sweep_store_open(&s->store, s->folder, s->file));
    s->store_open = 1;
    HB_TRY(check_before_gpu(s));
    if (needs_gpu(s, s->store.done))
        HB_TRY(check_gpus(s));
    HB_TRY(hb_folder_lock_take(&s->lock, s->folder, "sweep --resume"));
    if (hb_sweep_store_unchanged(&s->store))
        return HB_OK;
    hb_sweep_store_close(&s->store);
    return hb_sweep_store_open(&s->store, s->folder, s->file);
}

static hb_status resume_sweep(sweep_state *s, const hb_run_options *typed)
{
    snprintf(s->folder, sizeof s->folder, "%s", typed->resume);
    HB_TRY(hb_plan_file_read(s->folder, s->file));
    HB_TRY(hb_plan_file_check_resumable(s->file, s->folder, hb_harness_commit()));
    static hb_cli cli;
    HB_TRY(settings_of(s->file, &cli));
    static hb_run_options options;
    options = cli.run;
    options.devices = typed->devices;
    options.progress = typed->progress;
    options.verdict_path = typed->verdict_path;
    options.verbose = typed->verbose;
    s->options = &options;
    HB_TRY(check_usage(s));
    HB_TRY(open_locked(s));
    char env_path[4200];
    struct stat info;
    for (s->session = 1;; s->session++) { /* env-session-<N>.json: the first free N */
        snprintf(env_path, sizeof env_path, "%s/env-session-%d.json", s->folder, s->session + 1);
        if (stat(env_path, &info) != 0)
            break;
    }
    fprintf(stderr, "hgemm-bench: sweep %s resumed: %zu of %zu items already done, in %s\n", s->file->sweep_id,
            s->store.count, hb_shard_size(&s->file->shard, hb_plan_item_count(&s->file->plan)), s->folder);
    return run_session(s);
}

hb_status hb_cmd_sweep(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)self;
    static hb_plan_file file;
    static sweep_state state;
    memset(&state, 0, sizeof state);
    sweep_state *s = &state;
    s->file = &file;
    s->options = &cli->run;
    s->command_line = command_line;
    s->store.journal_fd = -1;
    s->lock.fd = -1; /* the kernel lets it go when this process and its workers end */
    hb_status status;
    if (cli->run.resume) {
        status = resume_sweep(s, &cli->run);
    } else {
        HB_TRY(make_plan(&cli->run, command_line, &file));
        if (cli->run.dry_run) {
            hb_plan_file_print(stdout, &file);
            return fflush(stdout) == 0 ? HB_OK : hb_fail(HB_ERR_IO, "writing the plan to stdout failed");
        }
        status = new_sweep(s);
    }
    hb_sweep_store_close(&s->store); /* a session closed it; a refusal before one did not */
    free(s->preflight);
    return status;
}
