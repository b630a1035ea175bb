#define _POSIX_C_SOURCE 200809L /* mkdtemp, open_memstream, lstat */
#include "bench/analysis/output_folder.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/input_file.h"

hb_status hb_output_begin(hb_output_folder *out, const char *folder)
{
    out->owner[0] = '\0';
    out->legacy = NULL;
    if ((size_t)snprintf(out->final, sizeof out->final, "%s", folder) >= sizeof out->final ||
        (size_t)snprintf(out->stage, sizeof out->stage, "%s/.hgemm-report-XXXXXX", folder) >= sizeof out->stage)
        return hb_fail(HB_ERR_IO, "--out %s: the path is too long", folder);
    HB_TRY(hb_make_folders(folder, "--out folder"));
    if (!mkdtemp(out->stage))
        return hb_fail(HB_ERR_IO, "cannot create a staging folder in %s: %s (is it writable?)", folder,
                       strerror(errno));
    return HB_OK;
}

void hb_output_own(hb_output_folder *out, const char *owner, const char *const *legacy)
{
    snprintf(out->owner, sizeof out->owner, "%s", owner);
    out->legacy = legacy;
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

/* --- the list of what an owner published ---------------------------------------------------- */

/* The list's largest size: a report writes a few dozen names. */
#define LIST_MAX_BYTES ((size_t)1 << 20)

static void list_name(const hb_output_folder *out, char *name, size_t size)
{
    snprintf(name, size, ".hgemm-%s.files", out->owner);
}

/* A name the list may make us remove: a plain file name in DIR, not hidden
 * (the list itself and the staging folders are), not a path. */
static int removable(const char *name, size_t length)
{
    return length > 0 && length < 256 && name[0] != '.' && !memchr(name, '/', length) && !memchr(name, '\0', length);
}

/* 1 if the list `text` (a name a line) names `name` of `length` bytes. */
static int listed(const char *text, const char *name, size_t length)
{
    for (const char *at = text; *at;) {
        size_t line = strcspn(at, "\n");
        if (line == length && !strncmp(at, name, length))
            return 1;
        at += line + (at[line] == '\n');
    }
    return 0;
}

/* Writes the staged names, one a line, into the staged list, and returns them (malloc'd). */
static hb_status write_list(hb_output_folder *out, char **names)
{
    char list[64], path[HB_OUTPUT_PATH_SIZE + 256];
    size_t size = 0;
    *names = NULL;
    list_name(out, list, sizeof list);
    DIR *dir = opendir(out->stage);
    if (!dir)
        return hb_fail(HB_ERR_IO, "cannot read the staging folder %s: %s", out->stage, strerror(errno));
    FILE *text = open_memstream(names, &size);
    struct dirent *entry;
    while (text && (entry = readdir(dir)))
        if (entry->d_name[0] != '.')
            fprintf(text, "%s\n", entry->d_name);
    closedir(dir);
    if (!text || fclose(text) != 0)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory listing %s", out->stage);
    HB_TRY(hb_output_path(out, list, path, sizeof path));
    FILE *file = fopen(path, "w");
    if (!file)
        return hb_fail(HB_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    fputs(*names, file);
    return hb_output_close(file, list);
}

/* Removes DIR/`name` if it is a regular file the new list does not name. */
static void remove_stale(const hb_output_folder *out, const char *names, const char *name, size_t length)
{
    char path[HB_OUTPUT_PATH_SIZE + 256];
    struct stat st;
    if (!removable(name, length) || listed(names, name, length) ||
        (size_t)snprintf(path, sizeof path, "%s/%.*s", out->final, (int)length, name) >= sizeof path ||
        lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    if (unlink(path) != 0)
        hb_warn("cannot remove the stale %s: %s", path, strerror(errno));
}

/* The previous list's text (NULL: DIR has none). */
static hb_status read_old_list(const hb_output_folder *out, char **old)
{
    char list[64], path[HB_OUTPUT_PATH_SIZE + 256];
    size_t size;
    list_name(out, list, sizeof list);
    snprintf(path, sizeof path, "%s/%s", out->final, list);
    return hb_input_read(path, NULL, LIST_MAX_BYTES, HB_ERR_IO, 1, old, &size);
}

static void remove_stale_files(const hb_output_folder *out, const char *old, const char *names)
{
    if (!old) {
        for (const char *const *name = out->legacy; name && *name; name++)
            remove_stale(out, names, *name, strlen(*name));
        return;
    }
    for (const char *at = old; *at;) {
        size_t length = strcspn(at, "\n");
        remove_stale(out, names, at, length);
        at += length + (at[length] == '\n');
    }
}

hb_status hb_output_publish(hb_output_folder *out)
{
    char *old = NULL, *names = NULL;
    hb_status status = out->owner[0] ? read_old_list(out, &old) : HB_OK;
    if (status == HB_OK && out->owner[0])
        status = write_list(out, &names);
    if (status == HB_OK)
        status = each_staged(out, move_into_place);
    if (status != HB_OK) {
        free(old);
        free(names);
        hb_output_abandon(out);
        return status;
    }
    if (names)
        remove_stale_files(out, old, names);
    free(old);
    free(names);
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
