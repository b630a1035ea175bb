#define _DEFAULT_SOURCE /* flock(): BSD, not POSIX */
#include "bench/report/reference_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/input_file.h"
#include "bench/core/json_file.h"
#include "bench/report/json_values.h"

/* A reference is about 30 KB of JSON (7 baselines, their kernels' names):
 * 64 MiB is thousands of configurations on several GPUs, no cache. */
#define REFERENCE_CACHE_MAX_BYTES ((size_t)64 << 20)

/* --- writing ---------------------------------------------------------------------------- */

json_t *hb_reference_key_json(const hb_reference_key *k)
{
    return json_pack("{s:s, s:s, s:s, s:[I,I,I], s:s, s:s, s:s, s:f, s:s, s:s, s:I, s:f, s:f, s:s, s:s}", "gpu_uuid",
                     k->gpu_uuid, "driver", k->driver, "harness", k->harness, "mnk", (json_int_t)k->m,
                     (json_int_t)k->n, (json_int_t)k->k, "acc", k->acc, "mode", k->mode, "gap", k->gap,
                     "mean_gap_ms", k->mean_gap_ms, "l2", k->l2, "stream", k->stream, "workspace_bytes",
                     (json_int_t)k->workspace_bytes, "warmup_s", k->warmup_s, "time_s", k->time_s, "monitor",
                     k->monitor, "sandbox", k->sandbox);
}

static json_t *spread_json(const hb_ref_spread *s)
{
    if (s->n == 0 || !isfinite(s->median_us))
        return json_null();
    return json_pack("{s:I, s:o, s:o, s:o}", "n", (json_int_t)s->n, "median_us", hb_json_number(s->median_us),
                     "p10_us", hb_json_number(s->p10_us), "p90_us", hb_json_number(s->p90_us));
}

static json_t *figures_json(const hb_baseline_figures *f)
{
    json_t *names = json_array();
    for (int k = 0; k < f->kernel_names; k++)
        json_array_append_new(names, json_string(f->kernel_name[k]));
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:b, s:i, s:o, s:i}", "name", f->name, "algo", f->algo,
                          "algo_source", f->algo_source, "choice", f->choice, "traced", f->traced, "kernels_per_call",
                          f->kernels_per_call, "kernel_names", names, "more_kernel_names", f->more_kernel_names);
    if (o)
        json_object_set_new(o, "copies_per_call", json_real(f->copies_per_call));
    for (int t = 0; o && t < HB_REF_FIGURES; t++)
        json_object_set_new(o, hb_ref_figure_name((hb_ref_figure)t), spread_json(&f->timer[t]));
    return o;
}

json_t *hb_reference_json(const hb_baseline_reference *ref)
{
    json_t *baselines = json_array();
    for (size_t i = 0; i < ref->count && i < HB_N_BASELINES; i++)
        json_array_append_new(baselines, figures_json(&ref->baseline[i]));
    return json_pack("{s:s, s:f, s:I, s:f, s:f, s:o}", "created", ref->created, "seconds", ref->seconds, "rounds",
                     (json_int_t)ref->rounds, "warmup_s", ref->warmup_s, "time_s", ref->time_s, "baselines",
                     baselines);
}

/* --- reading ---------------------------------------------------------------------------- */

/* A string member that fits `size` bytes, copied; 0 otherwise. */
static int read_text(const json_t *o, const char *key, char *out, size_t size)
{
    const char *text = json_string_value(json_object_get(o, key));
    if (!text || strlen(text) >= size)
        return 0;
    memcpy(out, text, strlen(text) + 1);
    return 1;
}

/* A number member (integer or real); null reads as NaN where `null_ok`. */
static int read_number(const json_t *o, const char *key, int null_ok, double *out)
{
    const json_t *v = json_object_get(o, key);
    if (null_ok && json_is_null(v)) {
        *out = NAN;
        return 1;
    }
    if (!json_is_number(v))
        return 0;
    *out = json_number_value(v);
    return 1;
}

static int read_count(const json_t *o, const char *key, long long max, long long *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > max)
        return 0;
    *out = json_integer_value(v);
    return 1;
}

static int read_spread(const json_t *v, hb_ref_spread *s)
{
    *s = (hb_ref_spread){0, NAN, NAN, NAN};
    if (json_is_null(v))
        return 1;
    long long n;
    return json_is_object(v) && read_count(v, "n", 1LL << 40, &n) && (s->n = (size_t)n, 1) &&
           read_number(v, "median_us", 0, &s->median_us) && read_number(v, "p10_us", 1, &s->p10_us) &&
           read_number(v, "p90_us", 1, &s->p90_us);
}

static int read_kernel_names(const json_t *names, hb_baseline_figures *f)
{
    if (!json_is_array(names) || json_array_size(names) > HB_REF_KERNEL_NAMES)
        return 0;
    f->kernel_names = (int)json_array_size(names);
    for (int k = 0; k < f->kernel_names; k++) {
        const char *name = json_string_value(json_array_get(names, (size_t)k));
        if (!name || strlen(name) >= sizeof f->kernel_name[k])
            return 0;
        memcpy(f->kernel_name[k], name, strlen(name) + 1);
    }
    return 1;
}

static int read_figures(const json_t *o, hb_baseline_figures *f, char *why, size_t why_size)
{
    memset(f, 0, sizeof *f);
    long long per_call, more;
    const json_t *traced = json_object_get(o, "traced");
    if (!json_is_object(o) || !read_text(o, "name", f->name, sizeof f->name) ||
        !read_text(o, "algo", f->algo, sizeof f->algo) ||
        !read_text(o, "algo_source", f->algo_source, sizeof f->algo_source) ||
        !read_text(o, "choice", f->choice, sizeof f->choice) || !json_is_boolean(traced) ||
        !read_count(o, "kernels_per_call", HB_TRACE_MAX_KERNELS * 1000LL, &per_call) ||
        !read_count(o, "more_kernel_names", 1LL << 30, &more) ||
        !read_number(o, "copies_per_call", 0, &f->copies_per_call) || !(f->copies_per_call >= 0) ||
        !read_kernel_names(json_object_get(o, "kernel_names"), f)) {
        snprintf(why, why_size, "a baseline's name, algorithm, kernels or copies are missing or malformed");
        return 0;
    }
    f->traced = json_is_true(traced);
    f->kernels_per_call = (int)per_call;
    f->more_kernel_names = (int)more;
    for (int t = 0; t < HB_REF_FIGURES; t++)
        if (!read_spread(json_object_get(o, hb_ref_figure_name((hb_ref_figure)t)), &f->timer[t])) {
            snprintf(why, why_size, "baseline %s: its %s figures are malformed", f->name,
                     hb_ref_figure_name((hb_ref_figure)t));
            return 0;
        }
    return 1;
}

int hb_reference_from_json(const json_t *json, hb_baseline_reference *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    const json_t *baselines = json_object_get(json, "baselines");
    long long rounds;
    if (!json_is_object(json) || !read_text(json, "created", out->created, sizeof out->created) ||
        !read_number(json, "seconds", 0, &out->seconds) || !read_count(json, "rounds", 1LL << 40, &rounds) ||
        !read_number(json, "warmup_s", 0, &out->warmup_s) || !read_number(json, "time_s", 0, &out->time_s) ||
        !json_is_array(baselines) || json_array_size(baselines) > HB_N_BASELINES) {
        snprintf(why, why_size, "its reference is missing a member or holds a malformed one");
        return 0;
    }
    out->rounds = (size_t)rounds;
    out->count = json_array_size(baselines);
    for (size_t i = 0; i < out->count; i++)
        if (!read_figures(json_array_get(baselines, i), &out->baseline[i], why, why_size))
            return 0;
    return 1;
}

/* The file's entries, or NULL where it has none (missing, or not a cache of this format: warned). */
static hb_status load_entries(const char *path, json_t **root)
{
    char *text = NULL;
    size_t size = 0;
    *root = NULL;
    HB_TRY(hb_input_read(path, "the baseline reference cache", REFERENCE_CACHE_MAX_BYTES, HB_ERR_IO, 1, &text, &size));
    if (!text)
        return HB_OK;
    json_error_t error;
    json_t *doc = json_loadb(text, size, 0, &error);
    free(text);
    const char *format = json_string_value(json_object_get(doc, "format"));
    if (!doc || !format || strcmp(format, HB_REFERENCE_CACHE_FORMAT) ||
        !json_is_array(json_object_get(doc, "entries"))) {
        hb_warn("%s is not a baseline reference cache of format %s (%s); its references are measured again and the "
                "file rewritten", path, HB_REFERENCE_CACHE_FORMAT, doc ? "another format or no entries" : error.text);
        json_decref(doc);
        return HB_OK;
    }
    *root = doc;
    return HB_OK;
}

hb_status hb_reference_cache_lookup(const char *path, const hb_reference_key *key, hb_baseline_reference *out,
                                    int *found)
{
    *found = 0;
    json_t *root;
    HB_TRY(load_entries(path, &root));
    if (!root)
        return HB_OK;
    json_t *wanted = hb_reference_key_json(key), *entries = json_object_get(root, "entries");
    static hb_baseline_reference read; /* 30 KB: off the stack */
    size_t i;
    json_t *entry;
    json_array_foreach(entries, i, entry) {
        if (!json_equal(json_object_get(entry, "key"), wanted))
            continue;
        char why[160];
        if (hb_reference_from_json(json_object_get(entry, "reference"), &read, why, sizeof why)) {
            *out = read;
            *found = 1;
        } else {
            hb_warn("%s: entry %zu: %s; it is measured again", path, i + 1, why);
        }
    }
    json_decref(wanted);
    json_decref(root);
    return HB_OK;
}

/* Blocks until this process is the only writer of `path`; close the fd to let go. */
static hb_status lock_cache(const char *path, int *fd)
{
    char lock[4200];
    if ((size_t)snprintf(lock, sizeof lock, "%s.lock", path) >= sizeof lock)
        return hb_fail(HB_ERR_IO, "the baseline reference cache's path is too long: %s", path);
    *fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (*fd < 0)
        return hb_fail(HB_ERR_IO, "cannot open the lock file %s: %s", lock, strerror(errno));
    while (flock(*fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            int saved = errno;
            close(*fd);
            return hb_fail(HB_ERR_IO, "cannot lock %s: %s", lock, strerror(saved));
        }
    return HB_OK;
}

/* The entries of other keys that still read back, then the new one. */
static json_t *entries_with(const char *path, json_t *old_root, json_t *key, json_t *reference)
{
    json_t *entries = json_array();
    static hb_baseline_reference check;
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(old_root, "entries"), i, entry) {
        char why[160];
        if (json_equal(json_object_get(entry, "key"), key))
            continue;
        if (!json_is_object(json_object_get(entry, "key")) ||
            !hb_reference_from_json(json_object_get(entry, "reference"), &check, why, sizeof why)) {
            hb_warn("%s: entry %zu does not read back; dropped", path, i + 1);
            continue;
        }
        json_array_append(entries, entry);
    }
    json_array_append_new(entries, json_pack("{s:O, s:O}", "key", key, "reference", reference));
    return entries;
}

static hb_status replace_file(const char *path, json_t *key, json_t *reference)
{
    json_t *old_root;
    HB_TRY(load_entries(path, &old_root));
    json_t *root = json_pack("{s:s, s:o}", "format", HB_REFERENCE_CACHE_FORMAT, "entries",
                             entries_with(path, old_root, key, reference));
    json_decref(old_root);
    if (!root)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory writing the baseline reference cache %s", path);
    hb_status status = hb_json_write_file(path, root);
    json_decref(root);
    return status;
}

hb_status hb_reference_cache_store(const char *path, const hb_reference_key *key, const hb_baseline_reference *ref)
{
    char folder[4200];
    hb_folder_of(path, folder, sizeof folder);
    HB_TRY(hb_make_folders(folder, "baseline reference cache folder"));
    json_t *key_json = hb_reference_key_json(key), *reference = hb_reference_json(ref);
    if (!key_json || !reference) {
        json_decref(key_json);
        json_decref(reference);
        return hb_fail(HB_ERR_INTERNAL, "out of host memory writing the baseline reference cache %s", path);
    }
    int lock_fd = -1;
    hb_status status = lock_cache(path, &lock_fd);
    if (status == HB_OK) {
        status = replace_file(path, key_json, reference);
        close(lock_fd); /* releases the flock */
    }
    json_decref(key_json);
    json_decref(reference);
    return status;
}
