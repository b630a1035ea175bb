#include "bench/sweep/plan_file.h"

#include <jansson.h>
#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"
#include "bench/core/json_file.h"

/* plan.json of HB_MAX_CONFIGS x 2 modes is about 1 MiB (an indented item
 * is about 100 bytes); 64 MiB is no plan. */
#define PLAN_MAX_BYTES ((size_t)64 << 20)

hb_status hb_plan_file_set_words(hb_plan_file *file, char *const *words, size_t count)
{
    size_t used = 0;
    if (count > HB_PLAN_MAX_WORDS)
        return hb_fail(HB_ERR_INTERNAL, "a sweep's settings take %zu words, more than %d", count, HB_PLAN_MAX_WORDS);
    for (size_t i = 0; i < count; i++) {
        size_t length = strlen(words[i]) + 1;
        if (used + length > sizeof file->word_text)
            return hb_fail(HB_ERR_INTERNAL, "a sweep's settings are longer than %zu bytes", sizeof file->word_text);
        memcpy(file->word_text + used, words[i], length);
        file->words[i] = file->word_text + used;
        used += length;
    }
    file->n_words = count;
    return HB_OK;
}

void hb_plan_file_identify(hb_plan_file *file)
{
    uint64_t h = HB_FNV1A_INIT;
    h = hb_fnv1a(h, file->harness_commit, strlen(file->harness_commit) + 1);
    for (size_t i = 0; i < file->n_words; i++)
        h = hb_fnv1a(h, file->words[i], strlen(file->words[i]) + 1);
    const hb_sweep_plan *p = &file->plan;
    for (size_t i = 0; i < p->n_modes; i++) {
        const char *mode = hb_mode_name(p->modes[i]);
        h = hb_fnv1a(h, mode, strlen(mode) + 1);
    }
    for (size_t i = 0; i < p->n_configs; i++) {
        long dims[3] = {p->configs[i].m, p->configs[i].n, p->configs[i].k};
        h = hb_fnv1a(h, dims, sizeof dims);
    }
    snprintf(file->sweep_id, sizeof file->sweep_id, "%016llx", (unsigned long long)h);
}

void hb_plan_file_options_line(const hb_plan_file *file, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < file->n_words && used < size; i++) {
        const char *w = file->words[i];
        int quote = strpbrk(w, " \t'\"") != NULL || !*w;
        int n = snprintf(out + used, size - used, "%s%s%s%s", i ? " " : "", quote ? "'" : "", w, quote ? "'" : "");
        if (n < 0)
            return;
        used += (size_t)n;
    }
}

/* --- writing ----------------------------------------------------------------------- */

json_t *hb_plan_item_json(const hb_sweep_plan *plan, size_t item)
{
    hb_plan_item it = hb_plan_item_at(plan, item);
    const hb_mnk *c = &plan->configs[it.config];
    return json_pack("{s:I, s:I, s:I, s:I, s:s}", "item", (json_int_t)item, "m", (json_int_t)c->m, "n",
                     (json_int_t)c->n, "k", (json_int_t)c->k, "mode", hb_mode_name(it.mode));
}

static json_t *items_json(const hb_sweep_plan *p)
{
    json_t *items = json_array();
    for (size_t i = 0; items && i < hb_plan_item_count(p); i++)
        json_array_append_new(items, hb_plan_item_json(p, i));
    return items;
}

static json_t *plan_json(const hb_plan_file *f)
{
    json_t *words = json_array(), *modes = json_array();
    for (size_t i = 0; i < f->n_words; i++)
        json_array_append_new(words, json_string(f->words[i]));
    for (size_t i = 0; i < f->plan.n_modes; i++)
        json_array_append_new(modes, json_string(hb_mode_name(f->plan.modes[i])));
    json_t *shard = f->shard.count > 1
                        ? json_pack("{s:I, s:I}", "index", (json_int_t)f->shard.index, "count", (json_int_t)f->shard.count)
                        : json_null();
    return json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:I, s:I, s:o}", "format", HB_PLAN_FORMAT,
                     "version", HB_PLAN_VERSION, "sweep_id", f->sweep_id, "harness_commit", f->harness_commit,
                     "created_utc", f->created_utc, "command_line", f->command_line, "options", words, "modes", modes,
                     "shard", shard, "configurations", (json_int_t)f->plan.n_configs, "shard_items",
                     (json_int_t)hb_shard_size(&f->shard, hb_plan_item_count(&f->plan)), "items", items_json(&f->plan));
}

/* plan_sha256: SHA-256 of the plan without this field, in a canonical form
 * (compact, keys sorted, ASCII): the same document however it is indented.
 * It is unkeyed, so it tells an accidental or careless edit, and a shard
 * changed by hand, from the plan the sweep wrote; anyone can recompute it,
 * so it does not stop a deliberate forger (docs/sweeps.md). */
static int plan_digest(const json_t *root, char hex[HB_PLAN_DIGEST_HEX])
{
    json_t *copy = json_copy((json_t *)root);
    if (!copy)
        return 0;
    json_object_del(copy, HB_PLAN_DIGEST_KEY);
    char *text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    json_decref(copy);
    if (!text)
        return 0;
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, strlen(text), (const uint8_t *)text);
    sha256_digest(&ctx, sizeof digest, digest);
    free(text);
    for (size_t i = 0; i < sizeof digest; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    return 1;
}

/* The plan with its digest after the identity, for a reader who opens the file. */
static json_t *with_digest(json_t *root)
{
    char hex[HB_PLAN_DIGEST_HEX];
    json_t *out = json_object();
    if (!out || !plan_digest(root, hex)) {
        json_decref(out);
        return NULL;
    }
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value) {
        json_object_set(out, key, value);
        if (!strcmp(key, "sweep_id"))
            json_object_set_new(out, HB_PLAN_DIGEST_KEY, json_string(hex));
    }
    return out;
}

hb_status hb_plan_file_write(const char *folder, const hb_plan_file *file)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/plan.json", folder);
    json_t *plan = plan_json(file), *root = plan ? with_digest(plan) : NULL;
    json_decref(plan);
    if (!root)
        return hb_fail(HB_ERR_INTERNAL, "out of memory building %s", path);
    hb_status status = hb_json_write_file(path, root);
    json_decref(root);
    return status;
}

/* --- reading ----------------------------------------------------------------------- */

static hb_status bad_plan(const char *path, const char *what)
{
    return hb_fail(HB_ERR_BAD_RESULTS, "%s: %s (not a plan written by hgemm-bench sweep)", path, what);
}

static hb_status read_text(const char *path, json_t *root, const char *key, char *out, size_t size)
{
    const char *text = json_string_value(json_object_get(root, key));
    if (!text || strlen(text) >= size)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s: \"%s\" is missing or not a string of at most %zu bytes", path, key,
                       size - 1);
    snprintf(out, size, "%s", text);
    return HB_OK;
}

static hb_status read_words(const char *path, json_t *root, hb_plan_file *f)
{
    json_t *words = json_object_get(root, "options");
    if (!json_is_array(words) || json_array_size(words) > HB_PLAN_MAX_WORDS)
        return bad_plan(path, "\"options\" is not an array of flags");
    char *list[HB_PLAN_MAX_WORDS];
    for (size_t i = 0; i < json_array_size(words); i++) {
        list[i] = (char *)json_string_value(json_array_get(words, i));
        if (!list[i])
            return bad_plan(path, "\"options\" holds something other than strings");
    }
    return hb_plan_file_set_words(f, list, json_array_size(words));
}

static hb_status read_modes(const char *path, json_t *root, hb_sweep_plan *p)
{
    json_t *modes = json_object_get(root, "modes");
    p->n_modes = json_is_array(modes) ? json_array_size(modes) : 0;
    if (p->n_modes < 1 || p->n_modes > HB_PLAN_MAX_MODES)
        return bad_plan(path, "\"modes\" must list one or two modes");
    for (size_t i = 0; i < p->n_modes; i++) {
        const char *name = json_string_value(json_array_get(modes, i));
        if (!name || !hb_mode_parse(name, &p->modes[i]))
            return bad_plan(path, "\"modes\" holds an unknown mode");
    }
    return HB_OK;
}

/* items[i] must be item i of configs x modes: the configurations are read
 * from the first mode's items, the rest checked against them. */
static hb_status read_items(const char *path, json_t *root, hb_sweep_plan *p)
{
    json_t *items = json_object_get(root, "items");
    size_t count = json_is_array(items) ? json_array_size(items) : 0;
    if (count == 0 || count % p->n_modes || count / p->n_modes > HB_MAX_CONFIGS)
        return bad_plan(path, "\"items\" is missing, empty, or not configurations times modes");
    p->n_configs = count / p->n_modes;
    for (size_t i = 0; i < count; i++) {
        json_int_t number, m, n, k;
        const char *mode_name;
        hb_mode mode;
        if (json_unpack(json_array_get(items, i), "{s:I, s:I, s:I, s:I, s:s}", "item", &number, "m", &m, "n", &n, "k",
                        &k, "mode", &mode_name) ||
            number != (json_int_t)i || !hb_mode_parse(mode_name, &mode) || mode != p->modes[i % p->n_modes])
            return hb_fail(HB_ERR_BAD_RESULTS, "%s: item %zu is not {\"item\": %zu, \"m\", \"n\", \"k\", \"mode\": "
                           "\"%s\"}", path, i, i, hb_mode_name(p->modes[i % p->n_modes]));
        if (m < 1 || n < 1 || k < 1 || m > HB_MAX_DIM || n > HB_MAX_DIM || k > HB_MAX_DIM)
            return hb_fail(HB_ERR_BAD_RESULTS, "%s: item %zu is %lld_%lld_%lld: each dimension is 1..%ld", path, i,
                           (long long)m, (long long)n, (long long)k, HB_MAX_DIM);
        hb_mnk mnk = {(long)m, (long)n, (long)k};
        hb_mnk *config = &p->configs[i / p->n_modes];
        if (i % p->n_modes == 0)
            *config = mnk;
        else if (config->m != mnk.m || config->n != mnk.n || config->k != mnk.k)
            return hb_fail(HB_ERR_BAD_RESULTS, "%s: item %zu is not the configuration of item %zu in another mode",
                           path, i, i - 1);
    }
    return HB_OK;
}

static hb_status read_shard(const char *path, json_t *root, hb_shard *shard)
{
    json_t *value = json_object_get(root, "shard");
    json_int_t index = 0, count = 1;
    if (json_is_null(value) || !value) {
        *shard = (hb_shard){0, 1};
        return HB_OK;
    }
    if (json_unpack(value, "{s:I, s:I}", "index", &index, "count", &count) || count < 1 || index < 0 ||
        index >= count || count > HB_MAX_SHARDS)
        return bad_plan(path, "\"shard\" is not null or {\"index\": I, \"count\": N} with 0 <= I < N");
    *shard = (hb_shard){(size_t)index, (size_t)count};
    return HB_OK;
}

/* Version 2 carries its digest, which must match; version 1 was written
 * before there was one, so one there is an edit (a version 2 plan
 * relabelled, say), and nothing is checked in its place. */
static hb_status check_digest(const char *path, const json_t *root, int version)
{
    const char *recorded = json_string_value(json_object_get(root, HB_PLAN_DIGEST_KEY));
    char computed[HB_PLAN_DIGEST_HEX];
    if (version < HB_PLAN_VERSION)
        return json_object_get(root, HB_PLAN_DIGEST_KEY)
                   ? hb_fail(HB_ERR_BAD_RESULTS, "%s: a plan of version %d with a \"" HB_PLAN_DIGEST_KEY "\", which "
                             "that version never had: the file was edited. Put the sweep's own plan.json back", path,
                             version)
                   : HB_OK;
    if (!recorded)
        return bad_plan(path, "no \"" HB_PLAN_DIGEST_KEY "\"");
    if (!plan_digest(root, computed))
        return hb_fail(HB_ERR_INTERNAL, "out of memory checking %s", path);
    if (strcmp(recorded, computed))
        return hb_fail(HB_ERR_BAD_RESULTS, "%s: its " HB_PLAN_DIGEST_KEY " does not match its contents: the file was "
                       "edited (its shard, items or settings). A plan is never edited: put the sweep's own plan.json "
                       "back, or plan a new sweep", path);
    return HB_OK;
}

/* "version": one this harness reads.  A later one is a newer harness's
 * plan, whose checks this one does not know: refused, naming that harness. */
static hb_status read_version(const char *path, json_t *root, int *version)
{
    json_t *value = json_object_get(root, "version");
    if (!json_is_integer(value))
        return bad_plan(path, "no \"version\" (a whole number)");
    json_int_t number = json_integer_value(value);
    if (number > HB_PLAN_VERSION) {
        const char *commit = json_string_value(json_object_get(root, "harness_commit"));
        return hb_fail(HB_ERR_BAD_RESULTS, "%s: plan version %lld, made by a newer harness (%.64s); this one reads "
                       "versions %d and %d: read the folder with that harness or a later one", path,
                       (long long)number, commit ? commit : "its commit not recorded", HB_PLAN_OLDEST_VERSION,
                       HB_PLAN_VERSION);
    }
    if (number < HB_PLAN_OLDEST_VERSION)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s: plan version %lld, which no harness wrote (this one reads versions "
                       "%d and %d): the file was edited", path, (long long)number, HB_PLAN_OLDEST_VERSION,
                       HB_PLAN_VERSION);
    *version = (int)number;
    return HB_OK;
}

static hb_status read_plan_json(const char *path, json_t *root, hb_plan_file *f)
{
    const char *format = json_string_value(json_object_get(root, "format"));
    if (!format || strcmp(format, HB_PLAN_FORMAT))
        return bad_plan(path, "no \"format\": \"" HB_PLAN_FORMAT "\"");
    HB_TRY(read_version(path, root, &f->version));
    HB_TRY(read_text(path, root, "sweep_id", f->sweep_id, sizeof f->sweep_id));
    HB_TRY(read_text(path, root, "harness_commit", f->harness_commit, sizeof f->harness_commit));
    HB_TRY(read_text(path, root, "created_utc", f->created_utc, sizeof f->created_utc));
    HB_TRY(read_text(path, root, "command_line", f->command_line, sizeof f->command_line));
    HB_TRY(read_words(path, root, f));
    HB_TRY(read_modes(path, root, &f->plan));
    HB_TRY(read_items(path, root, &f->plan));
    HB_TRY(read_shard(path, root, &f->shard));
    HB_TRY(check_digest(path, root, f->version));
    json_t *shard_items = json_object_get(root, "shard_items"), *configurations = json_object_get(root, "configurations");
    if (json_integer_value(shard_items) != (json_int_t)hb_shard_size(&f->shard, hb_plan_item_count(&f->plan)) ||
        json_integer_value(configurations) != (json_int_t)f->plan.n_configs)
        return bad_plan(path, "\"shard_items\" or \"configurations\" does not count its items");
    char recorded[17];
    snprintf(recorded, sizeof recorded, "%s", f->sweep_id);
    hb_plan_file_identify(f);
    if (strcmp(recorded, f->sweep_id))
        return hb_fail(HB_ERR_BAD_RESULTS, "%s: its sweep_id %s does not match its contents (%s): the file was "
                       "edited", path, recorded, f->sweep_id);
    return HB_OK;
}

hb_status hb_plan_file_read(const char *folder, hb_plan_file *f)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/plan.json", folder);
    struct stat info;
    if (stat(folder, &info) != 0 || !S_ISDIR(info.st_mode))
        return hb_fail(HB_ERR_BAD_RESULTS, "%s is not a folder", folder);
    char *text;
    size_t size;
    HB_TRY(hb_input_inside_folder(path, HB_ERR_BAD_RESULTS));
    HB_TRY(hb_input_read(path, NULL, PLAN_MAX_BYTES, HB_ERR_BAD_RESULTS, 1, &text, &size));
    if (!text)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s is not a sweep folder: it has no plan.json", folder);
    size_t nul_line, nul_column;
    if (hb_text_nul_at(text, size, &nul_line, &nul_column)) {
        free(text);
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:%zu:%zu: a NUL byte: not text (damaged)", path, nul_line, nul_column);
    }
    json_error_t error;
    json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &error);
    free(text);
    if (!root)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s:%d:%d: %s", path, error.line, error.column, error.text);
    memset(f, 0, sizeof *f);
    hb_status status = read_plan_json(path, root, f);
    json_decref(root);
    return status;
}

hb_status hb_plan_file_check_resumable(const hb_plan_file *f, const char *folder, const char *this_commit)
{
    if (f->version != HB_PLAN_VERSION)
        return hb_fail(HB_ERR_BAD_RESULTS, "%s/plan.json is a plan of version %d, written by harness %s before plans "
                       "carried " HB_PLAN_DIGEST_KEY ": this harness reports, compares and merges such a folder but "
                       "resumes only sweeps it planned. Resume it with the build that planned it (harness %s: check "
                       "out that commit, make, and run its hgemm-bench sweep --resume %s), or run the items it lacks "
                       "(report lists them) as a new sweep and give both folders to report", folder, f->version,
                       f->harness_commit, f->harness_commit, folder);
    if (strcmp(f->harness_commit, this_commit))
        return hb_fail(HB_ERR_BAD_RESULTS, "%s/plan.json was planned by harness %s; this is %s: resume with the "
                       "same build, so that every row of the sweep is measured by the same code", folder,
                       f->harness_commit, this_commit);
    return HB_OK;
}

/* --- --dry-run ------------------------------------------------------------------------ */

void hb_plan_file_print(FILE *out, const hb_plan_file *f)
{
    const size_t total = hb_plan_item_count(&f->plan);
    static char options[16384];
    hb_plan_file_options_line(f, options, sizeof options);
    fprintf(out, "# hgemm-bench sweep plan\n# sweep_id: %s\n", f->sweep_id);
    if (f->shard.count > 1)
        fprintf(out, "# shard: %zu/%zu\n", f->shard.index, f->shard.count);
    else
        fputs("# shard: none\n", out);
    fprintf(out, "# items: %zu of %zu\n# options: %s\nitem,m,n,k,mode\n", hb_shard_size(&f->shard, total), total,
            options);
    for (size_t i = 0; i < total; i++) {
        if (!hb_shard_holds(&f->shard, i))
            continue;
        hb_plan_item it = hb_plan_item_at(&f->plan, i);
        const hb_mnk *c = &f->plan.configs[it.config];
        fprintf(out, "%zu,%ld,%ld,%ld,%s\n", i, c->m, c->n, c->k, hb_mode_name(it.mode));
    }
}
