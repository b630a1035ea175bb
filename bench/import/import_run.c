#define _DEFAULT_SOURCE /* realpath, strdup */
#include "bench/import/import_run.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/input_file.h"
#include "bench/import/build_history.h"
#include "bench/import/build_job.h"
#include "bench/import/build_plan.h"
#include "bench/import/build_width.h"
#include "bench/import/candidate_files.h"
#include "bench/import/command_run.h"
#include "bench/import/content_hash.h"
#include "bench/import/cutlass_locate.h"
#include "bench/import/import_item.h"
#include "bench/import/import_progress.h"
#include "bench/import/import_report.h"
#include "bench/import/job_pool.h"
#include "bench/import/sass_audit.h"

/* A kernel file is tens of KiB (CUDA-L2's): 16 MiB is far beyond any of them. */
#define HB_KERNEL_SOURCE_MAX ((size_t)16 << 20)

/* Bumped when what a build produces changes, so old cache entries are not reused. */
#define IMPORT_BUILD_VERSION "hgemm-bench-import-build/1"

typedef struct import_run {
    const hb_import_format *format;
    const hb_import_options *o;
    hb_toolchain toolchain;
    hb_cutlass cutlass;
    hb_import_data data;
    hb_build_settings settings;
    hb_import_context context;
    char cache[HB_PATH_MAX - 512];
    char adapter_object[HB_PATH_MAX - 256];
    char base_key[HB_SHA256_HEX]; /* what every build of this import shares */
    char kernels[HB_PATH_MAX - 512]; /* absolute: builds run in their own folders */
    char out[HB_PATH_MAX - 512];
    hb_import_item *items;
    size_t n_items;
    size_t *to_build; /* indices of items to build */
    size_t n_to_build, n_done;
    double *seconds; /* the build times of the files built so far, for the estimate of the time left */
    size_t n_seconds;
    int jobs;        /* builds at once: -j, else from the cores and the memory available */
    hb_status status; /* the first failure to publish a file or write the report */
} import_run;

/* --- the set and its selection ------------------------------------------------------- */

/* The report's file name in the set: import.csv, or --report's (a shard's own,
 * when the shards of one reproduction import into one set). */
static const char *report_name(const hb_import_options *o)
{
    return o->report_name ? o->report_name : HB_IMPORT_REPORT_FILE;
}

static int by_config(const void *a, const void *b)
{
    const hb_import_item *x = a, *y = b;
    if (x->mnk.m != y->mnk.m)
        return x->mnk.m < y->mnk.m ? -1 : 1;
    if (x->mnk.n != y->mnk.n)
        return x->mnk.n < y->mnk.n ? -1 : 1;
    return x->mnk.k < y->mnk.k ? -1 : x->mnk.k > y->mnk.k;
}

static hb_status add_item(import_run *r, hb_mnk mnk)
{
    hb_import_item *item = &r->items[r->n_items++];
    memset(item, 0, sizeof *item);
    item->mnk = mnk;
    snprintf(item->toolkit, sizeof item->toolkit, "%s", r->toolchain.version);
    snprintf(item->name, sizeof item->name, "%ld_%ld_%ld", mnk.m, mnk.n, mnk.k);
    char file[128];
    r->format->file_of_config(mnk, file, sizeof file);
    snprintf(item->source, sizeof item->source, "%.3500s/%s", r->kernels, file);
    return HB_OK;
}

static hb_status select_items(import_run *r)
{
    const hb_import_options *o = r->o;
    if (o->configs) {
        r->items = calloc(o->n_configs ? o->n_configs : 1, sizeof *r->items);
        if (!r->items)
            return hb_fail(HB_ERR_INTERNAL, "out of memory");
        for (size_t i = 0; i < o->n_configs; i++)
            HB_TRY(add_item(r, o->configs[i]));
        return HB_OK;
    }
    DIR *dir = opendir(r->kernels);
    if (!dir)
        return hb_fail(HB_ERR_BAD_INPUT, "--kernels %s: %s", o->kernels_dir, strerror(errno));
    size_t capacity = 1024;
    r->items = calloc(capacity, sizeof *r->items);
    struct dirent *e;
    hb_mnk mnk;
    hb_status status = r->items ? HB_OK : hb_fail(HB_ERR_INTERNAL, "out of memory");
    while (status == HB_OK && (e = readdir(dir)) != NULL) {
        if (!r->format->config_of_file(e->d_name, &mnk))
            continue;
        if (r->n_items == capacity) {
            hb_import_item *grown = realloc(r->items, 2 * capacity * sizeof *grown);
            if (!grown) {
                status = hb_fail(HB_ERR_INTERNAL, "out of memory");
                break;
            }
            r->items = grown;
            capacity *= 2;
        }
        status = add_item(r, mnk);
    }
    closedir(dir);
    if (status == HB_OK)
        qsort(r->items, r->n_items, sizeof *r->items, by_config);
    if (status == HB_OK && r->n_items == 0)
        status = hb_fail(HB_ERR_BAD_INPUT, "--kernels %s holds no %s files", o->kernels_dir, r->format->file_pattern);
    return status;
}

/* --- each file: read, checked, keyed ------------------------------------------------- */

static void skip(hb_import_item *item, const char *why)
{
    item->state = HB_ITEM_SKIPPED;
    snprintf(item->reason, sizeof item->reason, "%s", why);
}

static void item_key(const import_run *r, hb_import_item *item, const char *text, size_t size)
{
    hb_content_hash h;
    hb_content_hash_init(&h);
    hb_content_hash_text(&h, r->base_key);
    hb_content_hash_text(&h, item->scan.entry);
    char sizes[96];
    snprintf(sizes, sizeof sizes, "%ld %ld %ld", item->padded[0], item->padded[1], item->padded[2]);
    hb_content_hash_text(&h, sizes);
    hb_content_hash_bytes(&h, text, size);
    hb_content_hash_hex(&h, item->key);
}

static void prepare_item(import_run *r, hb_import_item *item)
{
    char *text = NULL;
    size_t size = 0;
    if (hb_input_read(item->source, NULL, HB_KERNEL_SOURCE_MAX, HB_ERR_IO, 1, &text, &size) != HB_OK || !text) {
        skip(item, text ? "cannot read the file" : "no such file in the set");
        free(text);
        return;
    }
    hb_sha256_file_hex(item->source, item->source_sha256);
    const hb_file_rules rules = {r->context.accumulator, r->o->arch, r->o->allow_arch_mismatch};
    char why[sizeof item->reason];
    if (!r->format->read_file(text, item->source, item->mnk, &rules, &item->scan, item->padded, why, sizeof why)) {
        skip(item, why);
    } else {
        item->source_bytes = size;
        item->model_s = r->format->build_cost_s(text, size, &item->scan);
        item_key(r, item, text, size);
        snprintf(item->entry_dir, sizeof item->entry_dir, "%.3500s/%s", r->cache, item->key);
    }
    free(text);
}

/* --- what every build shares ----------------------------------------------------------- */

static hb_status base_key(import_run *r)
{
    hb_content_hash h;
    hb_content_hash_init(&h);
    hb_content_hash_text(&h, IMPORT_BUILD_VERSION);
    hb_content_hash_text(&h, r->context.flags);
    hb_content_hash_text(&h, r->o->arch.name);
    hb_content_hash_text(&h, r->toolchain.version);
    char device[128];
    snprintf(device, sizeof device, "%d %d %zu %zu %zu", r->o->device.sm, r->o->device.sms,
             r->o->device.smem_per_block_optin, r->o->device.smem_per_sm, r->o->device.l2_bytes);
    hb_content_hash_text(&h, device);
    HB_TRY(hb_content_hash_tree(&h, r->cutlass.include));
    HB_TRY(hb_content_hash_tree(&h, r->cutlass.util_include));
    HB_TRY(hb_content_hash_tree(&h, r->data.root));
    hb_content_hash_hex(&h, r->base_key);
    return HB_OK;
}

static void flags_text(import_run *r)
{
    char *out = r->context.flags;
    size_t size = sizeof r->context.flags, used = 0;
    const char *const *flags = r->format->nvcc_flags;
    for (size_t i = 0; flags[i] && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", used ? " " : "", flags[i]);
    if (used < size)
        snprintf(out + used, size - used, " -gencode arch=compute_%d%s,code=%s", r->o->arch.sm,
                 r->o->arch.specific ? "a" : "", r->o->arch.name);
}

static hb_status absolute(const char *path, char *out, size_t size)
{
    char resolved[PATH_MAX];
    if (!realpath(path, resolved))
        return hb_fail(HB_ERR_IO, "cannot resolve %s: %s", path, strerror(errno));
    if (strlen(resolved) >= size)
        return hb_fail(HB_ERR_IO, "%s: path too long", resolved);
    snprintf(out, size, "%s", resolved);
    return HB_OK;
}

/* The set's name (the folder's last part) and its accumulator class, from --kernels. */
static hb_status set_of_folder(const hb_import_format *format, const char *kernels_dir, char *name, size_t size,
                               hb_acc_class *acc)
{
    struct stat st;
    if (stat(kernels_dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return hb_fail(HB_ERR_BAD_INPUT, "--kernels %s: %s (give %s)", kernels_dir,
                       stat(kernels_dir, &st) != 0 ? strerror(errno) : "not a folder", format->folder_hint);
    char *copy = strdup(kernels_dir);
    if (!copy)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    snprintf(name, size, "%s", basename(copy));
    free(copy);
    return format->set_class(name, acc);
}

hb_status hb_import_check_inputs(const hb_import_format *format, const char *kernels_dir)
{
    char name[256];
    hb_acc_class acc;
    return set_of_folder(format, kernels_dir, name, sizeof name, &acc);
}

static hb_status set_up(import_run *r)
{
    const hb_import_options *o = r->o;
    const hb_import_format *f = r->format;
    HB_TRY(set_of_folder(f, o->kernels_dir, r->context.set_name, sizeof r->context.set_name, &r->context.accumulator));
    HB_TRY(hb_toolchain_find(o->nvcc, &r->toolchain));
    fprintf(stderr, "import: nvcc %s (%s)\n", r->toolchain.nvcc, r->toolchain.version);
    HB_TRY(hb_cutlass_locate(o->cutlass_dir, f->cutlass_version, f->kernels_noun, &r->cutlass));
    if (strcmp(r->cutlass.version, f->cutlass_version) != 0)
        hb_warn("CUTLASS %s (%s, %s) is not v%s, the version %s were written for: some may not build or may build "
                "into other code",
                r->cutlass.version, r->cutlass.root, r->cutlass.found_by, f->cutlass_version, f->kernels_noun);
    HB_TRY(hb_import_data_find(f->shim, f->adapter, &r->data));
    HB_TRY(hb_make_folders(o->out_dir, "the set's folder"));
    char cache[HB_PATH_MAX];
    snprintf(cache, sizeof cache, "%.3000s%s", o->cache_dir ? o->cache_dir : o->out_dir, o->cache_dir ? "" : "/.cache");
    HB_TRY(hb_make_folders(cache, "the build cache"));
    HB_TRY(absolute(o->kernels_dir, r->kernels, sizeof r->kernels));
    HB_TRY(absolute(o->out_dir, r->out, sizeof r->out));
    HB_TRY(absolute(cache, r->cache, sizeof r->cache));
    r->context.format_name = f->name;
    r->context.out_dir = r->out;
    r->context.arch = o->arch;
    r->context.toolchain = &r->toolchain;
    r->context.cutlass = &r->cutlass;
    r->context.device = o->device;
    flags_text(r);
    r->settings = (hb_build_settings){f, &r->toolchain, &r->cutlass, &r->data, o->arch, o->device, o->build_timeout_s, 120};
    return base_key(r);
}

/* --- building -------------------------------------------------------------------------- */

static hb_status build_adapter(import_run *r)
{
    const char *entry = NULL;
    for (size_t i = 0; i < r->n_to_build && !entry; i++)
        entry = r->items[r->to_build[i]].scan.entry;
    if (!entry)
        return HB_OK;
    hb_content_hash h;
    hb_content_hash_init(&h);
    hb_content_hash_text(&h, r->base_key);
    hb_content_hash_text(&h, entry);
    char key[HB_SHA256_HEX], log[HB_PATH_MAX];
    hb_content_hash_hex(&h, key);
    snprintf(r->adapter_object, sizeof r->adapter_object, "%.3000s/adapter-%.16s.o", r->cache, key);
    snprintf(log, sizeof log, "%.3000s/adapter-%.16s.log", r->cache, key);
    struct stat st;
    if (stat(r->adapter_object, &st) == 0)
        return HB_OK;
    remove(log);
    return hb_build_adapter(&r->settings, entry, r->adapter_object, log);
}

static hb_status build_one(void *context, size_t job)
{
    import_run *r = context;
    hb_import_item *item = &r->items[r->to_build[job]];
    hb_build_job b = {.padded = {item->padded[0], item->padded[1], item->padded[2]}};
    snprintf(b.source, sizeof b.source, "%s", item->source);
    snprintf(b.adapter_object, sizeof b.adapter_object, "%s", r->adapter_object);
    snprintf(b.entry_dir, sizeof b.entry_dir, "%s", item->entry_dir);
    return hb_build_job_run(&r->settings, &b);
}

/* --- the set's files ------------------------------------------------------------------- */

/* Where M, N or K are equal, a size parameter's value does not tell its
 * role: the recorder runs the library once more at distinct sizes, into
 * the candidate's folder (never the cache: its entries stay as built), and
 * the form takes the roles that recording shows, or says why not. */
static void name_equal_sizes(import_run *r, hb_import_item *item)
{
    char folder[HB_PATH_MAX], library[HB_PATH_MAX + 64], json[HB_PATH_MAX + 64], log[HB_PATH_MAX + 64];
    snprintf(folder, sizeof folder, "%.3900s/%s", r->out, item->name);
    snprintf(library, sizeof library, "%.3900s/%s", item->entry_dir, HB_ENTRY_LIBRARY);
    snprintf(json, sizeof json, "%.3900s/%s", folder, HB_DISTINCT_RECORDING);
    snprintf(log, sizeof log, "%.3900s/%s", folder, HB_DISTINCT_RECORDING_LOG);
    long sizes[3];
    hb_distinct_sizes(item->padded, sizes);
    int quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(1); /* a failure is the form's note, not the import's error */
    hb_status status = hb_make_folders(folder, "a candidate's folder");
    if (status == HB_OK)
        status = hb_launch_record(r->data.recorder, library, sizes, &r->o->device, r->settings.record_timeout_s,
                                  json, log);
    hb_diag_set_quiet(quiet);
    hb_launch_roles_from_second(status == HB_OK ? json : NULL, hb_last_error(), &item->cubin);
}

/* The accumulator audit of the entry's launcher library (the cubin form holds
 * the same kernel), cached in the entry (docs/importer.md, import.csv's
 * mma_accumulators). */
static void audit_accumulators(hb_import_item *item)
{
    char library[HB_PATH_MAX];
    snprintf(library, sizeof library, "%.3900s/%s", item->entry_dir, HB_ENTRY_LIBRARY);
    hb_sass_audit_file(library, item->entry_dir, &item->mma, NULL, 0);
    item->mma_audited = 1;
}

static hb_status publish(import_run *r, hb_import_item *item)
{
    if (item->state == HB_ITEM_SKIPPED || (item->state == HB_ITEM_FAILED && !item->entry_dir[0]))
        return HB_OK;
    if (hb_build_outcome_read(item->entry_dir, &item->outcome) != HB_OK) {
        item->state = HB_ITEM_FAILED;
        if (!item->reason[0])
            snprintf(item->reason, sizeof item->reason, "no build outcome in %.500s", item->entry_dir);
        return HB_OK;
    }
    if (!item->outcome.built) {
        item->state = HB_ITEM_FAILED;
        snprintf(item->reason, sizeof item->reason, "%s: %s", item->outcome.step, item->outcome.first_error);
        char log[HB_PATH_MAX + 16];
        snprintf(log, sizeof log, "%.3900s/%s", item->entry_dir, HB_ENTRY_LOG);
        hb_failure_classify(&item->outcome, log, &item->failure);
        return HB_OK;
    }
    char json[HB_PATH_MAX];
    snprintf(json, sizeof json, "%.3900s/%s", item->entry_dir, HB_ENTRY_RECORDING);
    HB_TRY(hb_launch_recording_read(json, &item->launches, &item->cubin));
    if (!item->cubin.possible)
        item->outcome.cubin = 0; /* refused as this importer reads the recording (no B), whatever the build kept */
    if (item->outcome.cubin && hb_cubin_form_ambiguous(&item->cubin))
        name_equal_sizes(r, item);
    audit_accumulators(item);
    return hb_candidate_files_write(&r->context, item);
}

/* --- building, the report kept as files end ------------------------------------------ */

/* The report as it stands; the first failure to write it is kept. */
static void report_now(import_run *r)
{
    if (r->status == HB_OK)
        r->status = hb_import_report_write(r->o->out_dir, report_name(r->o), r->items, r->n_items);
}

static void progress(import_run *r)
{
    char line[256];
    hb_import_progress_text(r->seconds, r->n_done, r->n_to_build, r->jobs, line, sizeof line);
    fprintf(stderr, "%s%s\n", line, r->n_done == r->n_to_build ? " (done)" : "");
}

/* The build's time and stages into the cache's history, for the next
 * import's plan; a history that cannot be written costs only predictions. */
static void remember(import_run *r, const hb_import_item *item)
{
    if (!(item->outcome.seconds > 0))
        return;
    const hb_build_history_line line = {item->source_sha256, item->name,    item->scan.kind,
                                        item->source_bytes,  item->outcome.seconds, item->model_s,
                                        item->outcome.built, item->outcome.peak_rss_mib, &item->outcome.stages,
                                        r->toolchain.version};
    if (hb_build_history_append(r->cache, &line) != HB_OK)
        hb_warn("the build history is not kept: %s", hb_last_error());
}

static void build_done(void *context, size_t job, int ok)
{
    import_run *r = context;
    hb_import_item *item = &r->items[r->to_build[job]];
    int signal_number = r->o->interrupted ? r->o->interrupted() : 0;
    if (signal_number) {
        item->state = HB_ITEM_UNFINISHED;
        snprintf(item->reason, sizeof item->reason, "the import was interrupted (signal %d) while it built",
                 signal_number);
        report_now(r);
        return;
    }
    r->n_done++;
    if (ok) {
        item->state = HB_ITEM_BUILT;
        if (r->status == HB_OK)
            r->status = publish(r, item);
        r->seconds[r->n_seconds++] = item->outcome.seconds;
        remember(r, item);
    } else {
        item->state = HB_ITEM_FAILED;
        snprintf(item->reason, sizeof item->reason, "the build process failed before recording an outcome");
        item->failure.name = "build-process-failed";
    }
    report_now(r);
    progress(r);
}

/* Each file to build predicted from the cache's history and its format's
 * model, and the builds put costliest first (bench/import/build_plan.h),
 * unless --order given keeps the set's order. */
static hb_status plan_builds(import_run *r)
{
    hb_build_record *history = NULL;
    size_t n_history = 0;
    if (hb_build_history_read(r->cache, &history, &n_history) != HB_OK)
        hb_warn("the build history is not read (the builds start in the model's order): %s", hb_last_error());
    double *predicted = calloc(r->n_to_build ? r->n_to_build : 1, sizeof *predicted);
    size_t *order = calloc(r->n_to_build ? r->n_to_build : 1, sizeof *order);
    size_t *given = calloc(r->n_to_build ? r->n_to_build : 1, sizeof *given);
    hb_status status = predicted && order && given ? HB_OK : hb_fail(HB_ERR_INTERNAL, "out of memory");
    size_t by_file = 0;
    for (size_t j = 0; status == HB_OK && j < r->n_to_build; j++) {
        hb_import_item *item = &r->items[r->to_build[j]];
        hb_prediction_basis basis;
        item->predicted_s = hb_build_predict_s(history, n_history, item->source_sha256, item->scan.kind,
                                               item->model_s, &basis);
        by_file += basis == HB_PREDICTED_BY_FILE;
        predicted[j] = item->predicted_s;
        order[j] = j;
    }
    if (status == HB_OK && !r->o->order_given && r->n_to_build) {
        hb_build_order(predicted, r->n_to_build, order);
        memcpy(given, r->to_build, r->n_to_build * sizeof *given);
        for (size_t j = 0; j < r->n_to_build; j++)
            r->to_build[j] = given[order[j]];
        fprintf(stderr, "import: %zu builds, costliest first (%zu predicted by an earlier build of the file, the rest "
                        "by their kind and size); the first predicted at %.0f s\n",
                r->n_to_build, by_file, predicted[order[0]]);
    }
    free(history);
    free(predicted);
    free(order);
    free(given);
    return status;
}

/* -j, else one build per core this process may use, as many as the memory available holds (bench/import/build_width.h). */
static void choose_width(import_run *r)
{
    long cores;
    unsigned long long available;
    hb_host_capacity(&cores, &available);
    r->jobs = r->o->jobs > 0 ? r->o->jobs : hb_build_width(cores, available, HB_BUILD_PEAK_BYTES);
    if (r->o->jobs > 0)
        fprintf(stderr, "import: %d builds at once (-j)\n", r->jobs);
    else
        fprintf(stderr, "import: %d builds at once: %ld cores, %.0f GiB of memory available at %.0f GiB a build (-j N "
                        "to choose)\n",
                r->jobs, cores, (double)available / (1 << 30), (double)HB_BUILD_PEAK_BYTES / (1 << 30));
}

/* Cached and skipped files are published first (the report lists them at
 * once), then the rest built; each is published and the report rewritten
 * as it ends. */
static hb_status build_all(import_run *r)
{
    r->to_build = calloc(r->n_items ? r->n_items : 1, sizeof *r->to_build);
    r->seconds = calloc(r->n_items ? r->n_items : 1, sizeof *r->seconds);
    if (!r->to_build || !r->seconds)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; i < r->n_items; i++) {
        hb_import_item *item = &r->items[i];
        if (item->state == HB_ITEM_SKIPPED)
            continue;
        hb_build_outcome cached;
        if (r->o->rebuild)
            hb_remove_tree(item->entry_dir);
        int have = hb_build_outcome_read(item->entry_dir, &cached) == HB_OK;
        if (have && cached.timed_out) /* the limit may be longer now: build it again */
            hb_remove_tree(item->entry_dir), have = 0;
        if (have)
            item->state = HB_ITEM_CACHED;
        else
            r->to_build[r->n_to_build++] = i, item->state = HB_ITEM_PENDING;
    }
    for (size_t i = 0; i < r->n_items && r->status == HB_OK; i++)
        if (r->items[i].state != HB_ITEM_PENDING)
            r->status = publish(r, &r->items[i]);
    report_now(r);
    HB_TRY(r->status);
    if (r->n_to_build)
        choose_width(r);
    HB_TRY(plan_builds(r));
    HB_TRY(build_adapter(r));
    HB_TRY(hb_job_pool_run(r->n_to_build, r->jobs, build_one, build_done, r->o->interrupted, r));
    return r->status;
}

/* After an interrupt: the files never started are marked so, and the report written whole. */
static void mark_unfinished(import_run *r, int signal_number)
{
    for (size_t i = 0; i < r->n_items; i++)
        if (r->items[i].state == HB_ITEM_PENDING) {
            r->items[i].state = HB_ITEM_UNFINISHED;
            snprintf(r->items[i].reason, sizeof r->items[i].reason,
                     "not built: the import was interrupted (signal %d) first", signal_number);
        }
    report_now(r);
}

/* A line naming the built files whose SASS contradicts the set's class
 * (hb_mma_findings: fp16-mma-only, fp16-simt-only); nothing when none does. */
static void print_accumulator_findings(FILE *out, const import_run *r)
{
    size_t found = 0, audited = 0;
    char names[1024] = "";
    for (size_t i = 0; i < r->n_items; i++) {
        const hb_import_item *item = &r->items[i];
        hb_conduct findings = {0};
        audited += item->mma_audited && item->mma.known;
        if (!item->mma_audited || !hb_mma_findings(&item->mma, r->context.accumulator, &findings))
            continue;
        size_t used = strlen(names);
        if (found++ < 20)
            snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", item->name);
    }
    if (found)
        fprintf(out, "import: %zu of %zu audited files claim %s but accumulate in fp16 only (fp16-mma-only or "
                     "fp16-simt-only; import.csv's mma_accumulators): %s%s\n",
                found, audited, hb_acc_class_name(r->context.accumulator), names, found > 20 ? ", ..." : "");
}

hb_status hb_import_run(const hb_import_format *format, const hb_import_options *o)
{
    import_run *r = calloc(1, sizeof *r);
    if (!r)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    r->format = format;
    r->o = o;
    hb_command_set_stop(o->interrupted); /* an interrupt ends the adapter's build too */
    hb_status status = set_up(r);
    if (status == HB_OK)
        status = select_items(r);
    for (size_t i = 0; status == HB_OK && i < r->n_items; i++)
        prepare_item(r, &r->items[i]);
    if (status == HB_OK)
        status = build_all(r);
    int signal_number = o->interrupted ? o->interrupted() : 0;
    if (signal_number && r->items)
        mark_unfinished(r, signal_number);
    if (status == HB_OK && !signal_number)
        status = hb_import_report_write(o->out_dir, report_name(o), r->items, r->n_items);
    if (status == HB_OK || signal_number) {
        hb_import_report_print(stdout, r->items, r->n_items);
        print_accumulator_findings(stdout, r);
        printf("import: launcher forms in %s, cubin forms in %s/%s; the report is %s/%s\n", o->out_dir, o->out_dir,
               HB_CUBIN_SET_FOLDER, o->out_dir, report_name(o));
        if (signal_number)
            status = (hb_status)(128 + signal_number); /* as a shell reports a process the signal ended */
        else if (hb_import_count(r->items, r->n_items, HB_ITEM_FAILED) +
                 hb_import_count(r->items, r->n_items, HB_ITEM_SKIPPED))
            status = HB_ERR_BAD_INPUT;
    }
    hb_command_set_stop(NULL);
    free(r->items);
    free(r->to_build);
    free(r->seconds);
    free(r);
    return status;
}
