#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "bench/analysis/output_folder.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"

hb_status hb_output_begin(hb_output_folder *out, const char *folder)
{
    if ((size_t)snprintf(out->final, sizeof out->final, "%s", folder) >= sizeof out->final ||
        (size_t)snprintf(out->stage, sizeof out->stage, "%s/.hgemm-report-XXXXXX", folder) >= sizeof out->stage)
        return hb_fail(HB_ERR_IO, "--out %s: the path is too long", folder);
    HB_TRY(hb_make_folders(folder, "--out folder"));
    if (!mkdtemp(out->stage))
        return hb_fail(HB_ERR_IO, "cannot create a staging folder in %s: %s (is it writable?)", folder,
                       strerror(errno));
    return HB_OK;
}

hb_status hb_output_path(const hb_output_folder *out, const char *name, char *path, size_t size)
{
    if ((size_t)snprintf(path, size, "%s/%s", out->stage, name) >= size)
        return hb_fail(HB_ERR_IO, "path too long: %s/%s", out->stage, name);
    return HB_OK;
}

FILE *hb_output_open(const hb_output_folder *out, const char *name)
{
    char path[HB_OUTPUT_PATH_SIZE + 256];
    if (hb_output_path(out, name, path, sizeof path) != HB_OK)
        return NULL;
    FILE *file = fopen(path, "w");
    if (!file)
        hb_fail(HB_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    return file;
}

hb_status hb_output_close(FILE *file, const char *name)
{
    int failed = ferror(file);
    if (fclose(file) != 0 || failed)
        return hb_fail(HB_ERR_IO, "writing %s failed (disk full?)", name);
    return HB_OK;
}

/* Applies `action` to each staged file's name; stops at the first error. */
static hb_status each_staged(hb_output_folder *out, hb_status (*action)(hb_output_folder *, const char *))
{
    DIR *dir = opendir(out->stage);
    if (!dir)
        return hb_fail(HB_ERR_IO, "cannot read the staging folder %s: %s", out->stage, strerror(errno));
    hb_status status = HB_OK;
    struct dirent *entry;
    while (status == HB_OK && (entry = readdir(dir)))
        if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, ".."))
            status = action(out, entry->d_name);
    closedir(dir);
    return status;
}

static hb_status move_into_place(hb_output_folder *out, const char *name)
{
    char from[HB_OUTPUT_PATH_SIZE + 256], to[HB_OUTPUT_PATH_SIZE + 256];
    HB_TRY(hb_output_path(out, name, from, sizeof from));
    if ((size_t)snprintf(to, sizeof to, "%s/%s", out->final, name) >= sizeof to)
        return hb_fail(HB_ERR_IO, "path too long: %s/%s", out->final, name);
    if (rename(from, to) != 0)
        return hb_fail(HB_ERR_IO, "cannot move %s to %s: %s", from, to, strerror(errno));
    return HB_OK;
}

static hb_status remove_staged(hb_output_folder *out, const char *name)
{
    char path[HB_OUTPUT_PATH_SIZE + 256];
    if (hb_output_path(out, name, path, sizeof path) == HB_OK && unlink(path) != 0)
        hb_warn("cannot remove %s: %s", path, strerror(errno));
    return HB_OK;
}

hb_status hb_output_publish(hb_output_folder *out)
{
    hb_status status = each_staged(out, move_into_place);
    if (status != HB_OK) {
        hb_output_abandon(out);
        return status;
    }
    if (rmdir(out->stage) != 0)
        return hb_fail(HB_ERR_IO, "cannot remove the staging folder %s: %s", out->stage, strerror(errno));
    return HB_OK;
}

void hb_output_abandon(hb_output_folder *out)
{
    each_staged(out, remove_staged);
    if (rmdir(out->stage) != 0)
        hb_warn("cannot remove the staging folder %s: %s", out->stage, strerror(errno));
}
