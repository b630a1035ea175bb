#include "bench/candidate/replay_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/candidate/replay_json.h"
#include "bench/core/diag.h"
#include "bench/core/file_digest.h"
#include "bench/core/input_file.h"
#include "bench/core/json_file.h"
#include "bench/core/out_file.h"

/* replay.json of the largest plan (64 + 64 operations of 4 KiB of
 * parameters in hex, 16 names of 8 KiB) is under 2 MiB; 16 MiB is none. */
#define REPLAY_JSON_MAX_BYTES ((size_t)16 << 20)
/* A module is a cubin the launcher loaded: tens of MiB for the largest
 * CUTLASS builds; 1 GiB is none. */
#define REPLAY_CUBIN_MAX_BYTES ((size_t)1 << 30)

void hb_replay_module_path(const char *folder, const hb_replay_module *module, char *out, size_t size)
{
    int length = snprintf(out, size, "%s/%s", folder, module->file);
    (void)length; /* a path cut short names no file, and the open says so */
}

/* Module i's cubin beside replay.json, its digest and size into the plan. */
static hb_status write_module(const char *folder, hb_replay_module *module, uint32_t i, const void *bytes,
                              size_t size)
{
    if (!module->file[0])
        snprintf(module->file, sizeof module->file, "module-%u.cubin", i);
    if (!hb_replay_module_name_ok(module->file))
        return hb_fail(HB_ERR_INTERNAL, "replay module %u is named \"%s\", not a plain file name", i, module->file);
    if (!bytes || size == 0)
        return hb_fail(HB_ERR_INTERNAL, "replay module %u (%s) has no bytes to write", i, module->file);
    char path[HB_OUT_PATH_SIZE];
    hb_replay_module_path(folder, module, path, sizeof path);
    HB_TRY(hb_out_file_write(path, bytes, size));
    HB_TRY(hb_sha256_file_hex(path, module->sha256));
    module->bytes = size;
    return HB_OK;
}

hb_status hb_replay_write(const char *folder, hb_replay_plan *plan, const void *const *cubins, const size_t *sizes)
{
    if (plan->refusal == HB_REFUSE_NONE)
        for (uint32_t i = 0; i < plan->n_modules; i++)
            HB_TRY(write_module(folder, &plan->modules[i], i, cubins ? cubins[i] : NULL, sizes ? sizes[i] : 0));
    json_t *root = hb_replay_plan_to_json(plan);
    if (!root)
        return hb_fail(HB_ERR_INTERNAL, "out of memory for %s/" HB_REPLAY_FILE, folder);
    char path[HB_OUT_PATH_SIZE];
    int length = snprintf(path, sizeof path, "%s/" HB_REPLAY_FILE, folder);
    hb_status status = length < (int)sizeof path ? hb_json_write_file(path, root)
                                                 : hb_fail(HB_ERR_IO, "%s: the folder's path is too long", folder);
    json_decref(root);
    return status;
}

/* A module's cubin: a regular file of the size and SHA-256 replay.json names. */
static hb_status check_module(const char *folder, const hb_replay_module *module, uint32_t i)
{
    char path[HB_OUT_PATH_SIZE], label[HB_OUT_PATH_SIZE + 64], sha256[HB_SHA256_HEX];
    hb_replay_module_path(folder, module, path, sizeof path);
    HB_TRY(hb_input_inside_folder(path, HB_ERR_BAD_INPUT));
    snprintf(label, sizeof label, "replay module %u (%s)", i, path);
    int fd;
    size_t size;
    HB_TRY(hb_input_open(path, label, REPLAY_CUBIN_MAX_BYTES, HB_ERR_BAD_INPUT, 0, &fd, &size));
    hb_status status = hb_sha256_fd_hex(fd, label, sha256);
    close(fd);
    if (status != HB_OK)
        return HB_ERR_BAD_INPUT;
    if (size != module->bytes)
        return hb_fail(HB_ERR_BAD_INPUT, "%s: %zu bytes, and %s/" HB_REPLAY_FILE " modules[%u].bytes says %llu "
                       "(changed since it was recorded: record it again)", label, size, folder, i,
                       (unsigned long long)module->bytes);
    if (strcmp(sha256, module->sha256))
        return hb_fail(HB_ERR_BAD_INPUT, "%s: SHA-256 %s, and %s/" HB_REPLAY_FILE " modules[%u].sha256 says %s "
                       "(changed since it was recorded: record it again)", label, sha256, folder, i,
                       module->sha256);
    return HB_OK;
}

static hb_status parse(const char *path, const char *text, size_t size, hb_replay_plan *plan)
{
    size_t line, column;
    if (hb_text_nul_at(text, size, &line, &column))
        return hb_fail(HB_ERR_BAD_INPUT, "replay %s: a NUL byte at line %zu column %zu: not text (damaged)", path,
                       line, column);
    json_error_t error;
    json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &error);
    if (!root)
        return hb_fail(HB_ERR_BAD_INPUT, "replay %s: not valid JSON at line %d column %d: %s", path, error.line,
                       error.column, error.text);
    hb_status status = hb_replay_plan_from_json(root, path, plan);
    json_decref(root);
    return status;
}

hb_status hb_replay_read(const char *folder, hb_replay_plan *plan)
{
    char path[HB_OUT_PATH_SIZE], *text;
    size_t size;
    if (snprintf(path, sizeof path, "%s/" HB_REPLAY_FILE, folder) >= (int)sizeof path)
        return hb_fail(HB_ERR_BAD_INPUT, "%s: the replay folder's path is too long", folder);
    HB_TRY(hb_input_inside_folder(path, HB_ERR_BAD_INPUT));
    HB_TRY(hb_input_read(path, NULL, REPLAY_JSON_MAX_BYTES, HB_ERR_BAD_INPUT, 0, &text, &size));
    memset(plan, 0, sizeof *plan);
    hb_status status = parse(path, text, size, plan);
    free(text);
    for (uint32_t i = 0; status == HB_OK && i < plan->n_modules; i++)
        status = check_module(folder, &plan->modules[i], i);
    if (status != HB_OK)
        memset(plan, 0, sizeof *plan);
    return status;
}
