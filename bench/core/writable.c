#define _POSIX_C_SOURCE 200809L
#include "bench/core/writable.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"

#define PATH_BYTES 4096
#define PROBE_NAME ".hgemm-bench-probe-XXXXXX"

/* Cuts the last component off `path` in place ("a/b/" -> "a", "a" -> ".",
 * "/a" -> "/"). */
static void parent_of(char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        path[--n] = '\0';
    char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(path, PATH_BYTES, ".");
    else if (slash == path)
        path[1] = '\0';
    else
        *slash = '\0';
}

/* The probe: the same operation the run performs later, undone at once. */
static hb_status probe_folder(const char *folder, const char *what, const char *path)
{
    char probe[PATH_BYTES + sizeof PROBE_NAME + 1];
    snprintf(probe, sizeof probe, "%s/%s", folder, PROBE_NAME);
    if (!mkdtemp(probe))
        return hb_fail(HB_ERR_IO, "cannot create %s %s: no folder can be created in %s: %s", what, path, folder,
                       strerror(errno));
    if (rmdir(probe) != 0)
        hb_warn("could not remove the probe folder %s: %s", probe, strerror(errno));
    return HB_OK;
}

hb_status hb_check_folder_creatable(const char *path, const char *what)
{
    char existing[PATH_BYTES];
    if (!*path)
        return hb_fail(HB_ERR_IO, "the %s name is empty", what);
    if (snprintf(existing, sizeof existing, "%s", path) >= (int)sizeof existing)
        return hb_fail(HB_ERR_IO, "the %s path is too long: %.200s...", what, path);
    struct stat st;
    while (stat(existing, &st) != 0) {
        /* ENOTDIR: a file on the way; ELOOP, EACCES; ENOENT at "." or "/": the working folder was removed. */
        const int stat_errno = errno;
        const int at_top = !strcmp(existing, ".") || !strcmp(existing, "/");
        if (stat_errno != ENOENT || at_top)
            return hb_fail(HB_ERR_IO, "cannot create %s %s: %s: %s", what, path, existing, strerror(stat_errno));
        parent_of(existing);
    }
    if (!S_ISDIR(st.st_mode))
        return hb_fail(HB_ERR_IO, "cannot create %s %s: %s is not a folder", what, path, existing);
    return probe_folder(existing, what, path);
}

/* A file can be created in `folder`, as the file's temporary will be (bench/core/out_file.h). */
static hb_status probe_file(const char *folder, const char *what, const char *path)
{
    char probe[PATH_BYTES + sizeof PROBE_NAME + 1];
    snprintf(probe, sizeof probe, "%s/%s", folder, PROBE_NAME);
    int fd = mkstemp(probe);
    if (fd < 0)
        return hb_fail(HB_ERR_IO, "cannot write %s %s: no file can be created in %s: %s", what, path, folder,
                       strerror(errno));
    if (close(fd) != 0)
        hb_warn("closing the probe file %s failed: %s", probe, strerror(errno));
    if (unlink(probe) != 0)
        hb_warn("could not remove the probe file %s: %s", probe, strerror(errno));
    return HB_OK;
}

hb_status hb_check_file_writable(const char *path, const char *what)
{
    char folder[PATH_BYTES];
    if (!*path)
        return hb_fail(HB_ERR_IO, "the %s name is empty", what);
    if (snprintf(folder, sizeof folder, "%s", path) >= (int)sizeof folder - (int)sizeof ".tmp")
        return hb_fail(HB_ERR_IO, "the %s path is too long: %.200s...", what, path);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return hb_fail(HB_ERR_IO, "cannot write %s %s: it is %s", what, path,
                       S_ISDIR(st.st_mode) ? "a folder" : "not a regular file");
    if (stat(path, &st) != 0 && errno != ENOENT)
        return hb_fail(HB_ERR_IO, "cannot write %s %s: %s", what, path, strerror(errno));
    parent_of(folder);
    if (stat(folder, &st) != 0)
        return hb_fail(HB_ERR_IO, "cannot write %s %s: its folder %s: %s (the folder must exist)", what, path, folder,
                       strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return hb_fail(HB_ERR_IO, "cannot write %s %s: %s is not a folder", what, path, folder);
    return probe_file(folder, what, path);
}
