#define _POSIX_C_SOURCE 200809L
#include "bench/core/run_dir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/core/diag.h"

static hb_status make_parent(const char *parent)
{
    char partial[4096];
    if (!*parent)
        return hb_fail(HB_ERR_IO, "the results folder name is empty");
    if (snprintf(partial, sizeof partial, "%s", parent) >= (int)sizeof partial)
        return hb_fail(HB_ERR_IO, "--out path is too long");
    /* mkdir -p: create each component in turn. */
    for (char *p = partial + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(partial, 0777) != 0 && errno != EEXIST)
                return hb_fail(HB_ERR_IO, "cannot create results folder %s: %s", partial, strerror(errno));
            *p = saved;
            if (saved == '\0')
                break;
        }
    }
    struct stat st;
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        return hb_fail(HB_ERR_IO, "results folder %s is not a folder", parent);
    return HB_OK;
}

hb_status hb_run_dir_create(const char *parent, unsigned long long salt, char run_id[HB_RUN_ID_MAX],
                            char *path, unsigned path_size)
{
    HB_TRY(make_parent(parent));
    time_t now = time(NULL);
    struct tm utc;
    if (!gmtime_r(&now, &utc))
        return hb_fail(HB_ERR_INTERNAL, "gmtime_r failed");
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        unsigned suffix = (unsigned)((salt + attempt * 0x9e37u) & 0xFFFFu);
        snprintf(run_id, HB_RUN_ID_MAX, "%s-%04x", stamp, suffix);
        if (snprintf(path, path_size, "%s/%s", parent, run_id) >= (int)path_size)
            return hb_fail(HB_ERR_IO, "--out path is too long");
        if (mkdir(path, 0777) == 0)
            return HB_OK;
        if (errno != EEXIST)
            return hb_fail(HB_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    }
    return hb_fail(HB_ERR_IO, "could not find a free run folder name in %s", parent);
}
