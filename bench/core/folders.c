#define _POSIX_C_SOURCE 200809L
#include "bench/core/folders.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/diag.h"

#define PATH_BYTES 4096

hb_status hb_make_folders(const char *path, const char *what)
{
    char partial[PATH_BYTES];
    if (!*path)
        return hb_fail(HB_ERR_IO, "the %s name is empty", what);
    if (snprintf(partial, sizeof partial, "%s", path) >= (int)sizeof partial)
        return hb_fail(HB_ERR_IO, "the %s path is too long: %.200s...", what, path);
    /* Each component in turn, from the top: an existing one is fine. */
    for (char *p = partial + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(partial, 0777) != 0 && errno != EEXIST)
            return hb_fail(HB_ERR_IO, "cannot create %s %s: %s", what, partial, strerror(errno));
        *p = saved;
        if (saved == '\0')
            break;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return hb_fail(HB_ERR_IO, "%s %s is not a folder", what, path);
    return HB_OK;
}

void hb_folder_of(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, size, ".");
    else if (slash == path)
        snprintf(out, size, "/");
    else
        snprintf(out, size, "%.*s", (int)(slash - path), path);
}

int hb_is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
