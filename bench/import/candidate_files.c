#define _POSIX_C_SOURCE 200809L /* link */
#include "bench/import/candidate_files.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/candidate/manifest.h"
#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/json_file.h"
#include "bench/core/out_file.h"

/* The entry's files a candidate folder holds (hard links into the cache). */
static const char *const entry_files[] = {HB_ENTRY_LIBRARY, HB_ENTRY_CUBIN, HB_ENTRY_RECORDING, HB_ENTRY_LOG};

static hb_status copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return hb_fail(HB_ERR_IO, "cannot copy %s to %s: %s", from, to, strerror(errno));
    hb_out_file out;
    hb_status status = hb_out_file_begin(&out, to);
    char buffer[1 << 16];
    size_t got;
    int failed = 0;
    while (status == HB_OK && !failed && (got = fread(buffer, 1, sizeof buffer, in)) > 0)
        failed = fwrite(buffer, 1, got, out.stream) != got;
    failed |= ferror(in);
    int error = errno;
    fclose(in);
    if (status != HB_OK)
        return status;
    if (failed) {
        hb_out_file_abandon(&out);
        return hb_fail(HB_ERR_IO, "cannot copy %s to %s: %s", from, to, strerror(error));
    }
    return hb_out_file_commit(&out);
}

/* A hard link where the cache and the set share a file system, else a copy. */
static hb_status place(const char *from, const char *to)
{
    if (access(from, F_OK) != 0)
        return HB_OK; /* a file the entry does not have (no cubin form) */
    unlink(to);
    if (link(from, to) == 0)
        return HB_OK;
    return copy_file(from, to);
}

static json_t *padding_json(const long tile[3])
{
    if (tile[0] <= 0)
        return json_pack("{s:i, s:i, s:i}", "m", 1, "n", 1, "k", 1);
    return json_pack("{s:I, s:I, s:I}", "m", (json_int_t)tile[0], "n", (json_int_t)tile[1], "k", (json_int_t)tile[2]);
}

static json_t *manifest_common(const hb_import_context *ctx, const hb_import_item *item, const char *kind,
                               const char *suffix)
{
    char name[256], comment[4400];
    snprintf(name, sizeof name, "%s-%s%s", ctx->set_name, item->name, suffix);
    snprintf(comment, sizeof comment,
             "imported by hgemm-bench import %s from %s (sha256 %.16s...) for %s; see %s/record.json",
             ctx->format_name, item->source, item->source_sha256, ctx->arch.name, item->name);
    return json_pack("{s:s, s:s, s:s, s:s}", "format", HB_MANIFEST_FORMAT, "kind", kind, "name", name, "comment",
                     comment);
}

static hb_status launcher_manifest(const hb_import_context *ctx, const hb_import_item *item)
{
    json_t *m = manifest_common(ctx, item, "launcher", "");
    char library[160], path[HB_PATH_MAX];
    snprintf(library, sizeof library, "%s/%s", item->name, HB_ENTRY_LIBRARY);
    json_object_set_new(m, "library", json_string(library));
    json_object_set_new(m, "entry", json_string("hgemm_launch"));
    /* Both copies of B reach the file's entry; where the recording shows its one kernel getting one of them,
     * b_layout says which (128_128_128's reads b), else CUDA-L2's b_col_major. */
    json_object_set_new(m, "b_layout", json_string(item->cubin.b_layout[0] ? item->cubin.b_layout : "col"));
    json_object_set_new(m, "accumulator", json_string(hb_acc_class_name(ctx->accumulator)));
    json_object_set_new(m, "padding", padding_json(item->scan.tile));
    snprintf(path, sizeof path, "%.3900s/%s.json", ctx->out_dir, item->name);
    hb_status status = hb_json_write_file(path, m);
    json_decref(m);
    return status;
}

static json_t *params_json(const hb_cubin_form *form)
{
    json_t *params = json_array();
    for (size_t i = 0; i < form->n_params; i++) {
        char *end = NULL;
        long value = strtol(form->params[i], &end, 10);
        json_array_append_new(params, *end == '\0' && end != form->params[i] ? json_integer(value)
                                                                              : json_string(form->params[i]));
    }
    return params;
}

static hb_status cubin_manifest(const hb_import_context *ctx, const hb_import_item *item)
{
    const hb_cubin_form *f = &item->cubin;
    char folder[HB_PATH_MAX], cubin[160], path[HB_PATH_MAX + 128];
    snprintf(folder, sizeof folder, "%.3900s/%s", ctx->out_dir, HB_CUBIN_SET_FOLDER);
    HB_TRY(hb_make_folders(folder, "the cubin forms' folder"));
    json_t *m = manifest_common(ctx, item, "cubin", "-cubin");
    snprintf(cubin, sizeof cubin, "../%s/%s", item->name, HB_ENTRY_CUBIN);
    json_object_set_new(m, "cubin", json_string(cubin));
    json_object_set_new(m, "entry", json_string(f->kernel));
    json_object_set_new(m, "params", params_json(f));
    json_object_set_new(m, "grid", json_pack("[III]", (json_int_t)f->grid[0], (json_int_t)f->grid[1],
                                              (json_int_t)f->grid[2]));
    json_object_set_new(m, "block", json_pack("[III]", (json_int_t)f->block[0], (json_int_t)f->block[1],
                                               (json_int_t)f->block[2]));
    json_object_set_new(m, "dynamic_smem_bytes", json_integer((json_int_t)f->smem));
    json_object_set_new(m, "b_layout", json_string(f->b_layout)); /* the B its parameters name */
    json_object_set_new(m, "accumulator", json_string(hb_acc_class_name(ctx->accumulator)));
    json_object_set_new(m, "padding", padding_json(item->scan.tile));
    snprintf(path, sizeof path, "%s/%s.json", folder, item->name);
    hb_status status = hb_json_write_file(path, m);
    json_decref(m);
    return status;
}

/* The build kept a cubin and the recording (as this importer reads it) allows the form. */
static int has_cubin_form(const hb_import_item *item)
{
    return item->outcome.cubin && item->cubin.possible;
}

static json_t *forms_json(const hb_import_item *item)
{
    json_t *cubin = has_cubin_form(item)
                        ? json_pack("{s:b, s:s, s:s, s:s, s:s}", "exists", 1, "manifest", "cubin/", "entry",
                                    item->cubin.kernel, "b_layout", item->cubin.b_layout, "notes", item->cubin.notes)
                        : json_pack("{s:b, s:s}", "exists", 0, "why_not", item->cubin.reason);
    return json_pack("{s:{s:b, s:s}, s:o}", "launcher", "exists", 1, "library", HB_ENTRY_LIBRARY, "cubin", cubin);
}

static hb_status record_file(const hb_import_context *ctx, const hb_import_item *item, const char *folder)
{
    const hb_launch_summary *l = &item->launches;
    json_t *r = json_pack(
        "{s:s, s:{s:s, s:s, s:s, s:[III]}, s:s, s:s, s:s, s:s, s:{s:[III], s:[III]}, s:{s:s, s:s, s:s}, s:s, s:s, "
        "s:s, s:s, s:s, s:{s:s, s:i, s:i}, s:{s:I, s:I, s:s, s:s, s:s}, s:o, s:f}",
        "format", "hgemm-bench-import-record/1",
        "source", "path", item->source, "sha256", item->source_sha256, "set", ctx->set_name, "config",
        (json_int_t)item->mnk.m, (json_int_t)item->mnk.n, (json_int_t)item->mnk.k,
        "entry", item->scan.entry, "accumulator", hb_acc_class_name(ctx->accumulator), "kind",
        item->scan.kind, "hopper_features", item->scan.features,
        "padding", "tile", (json_int_t)item->scan.tile[0], (json_int_t)item->scan.tile[1], (json_int_t)item->scan.tile[2],
        "padded", (json_int_t)item->padded[0], (json_int_t)item->padded[1], (json_int_t)item->padded[2],
        "cutlass", "version", ctx->cutlass->version, "path", ctx->cutlass->root, "found_by", ctx->cutlass->found_by,
        "arch", ctx->arch.name, "nvcc", ctx->toolchain->version, "nvcc_path", ctx->toolchain->nvcc, "flags", ctx->flags, "cache_key", item->key,
        "recorded_on", "device", ctx->device.described, "sms", ctx->device.sms, "sm", ctx->device.sm,
        "launches", "first_call", (json_int_t)l->launches_first, "per_call", (json_int_t)l->launches_per_call, "apis",
        l->apis, "device_work_per_call", l->device_work, "first_call_only", l->first_call_extra,
        "forms", forms_json(item), "build_seconds", item->outcome.seconds);
    char path[HB_PATH_MAX + 32];
    snprintf(path, sizeof path, "%.3900s/record.json", folder);
    hb_status status = r ? hb_json_write_file(path, r) : hb_fail(HB_ERR_INTERNAL, "cannot build %s", path);
    json_decref(r);
    return status;
}

hb_status hb_candidate_files_write(const hb_import_context *ctx, const hb_import_item *item)
{
    char folder[HB_PATH_MAX];
    snprintf(folder, sizeof folder, "%.3900s/%s", ctx->out_dir, item->name);
    HB_TRY(hb_make_folders(folder, "a candidate's folder"));
    for (size_t i = 0; i < sizeof entry_files / sizeof entry_files[0]; i++) {
        char from[HB_PATH_MAX + 64], to[HB_PATH_MAX + 64];
        snprintf(from, sizeof from, "%.3900s/%s", item->entry_dir, entry_files[i]);
        snprintf(to, sizeof to, "%.3900s/%s", folder, entry_files[i]);
        HB_TRY(place(from, to));
    }
    HB_TRY(record_file(ctx, item, folder));
    HB_TRY(launcher_manifest(ctx, item));
    return has_cubin_form(item) ? cubin_manifest(ctx, item) : HB_OK;
}
