#define _POSIX_C_SOURCE 200809L
#include "bench/core/run_dir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"

hb_status hb_run_dir_create(const char *parent, unsigned long long salt, char run_id[HB_RUN_ID_MAX],
                            char *path, unsigned path_size)
{
    HB_TRY(hb_make_folders(parent, "results folder"));
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
