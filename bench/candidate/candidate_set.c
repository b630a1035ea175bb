#define _POSIX_C_SOURCE 200809L
#include "bench/candidate/candidate_set.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"

/* One name of a candidate set: *found = 1 for a regular file to use, 0 for
 * nothing usable there (absent, or a folder: look at the next name);
 * HB_ERR_BAD_INPUT for an entry that is there but cannot be read (a
 * symbolic-link loop, a link to nothing, no permission, a FIFO, a device),
 * which must not silently hand the configuration to generic.json. */
static hb_status probe_entry(const char *path, int *found)
{
    struct stat st;
    *found = 0;
    if (stat(path, &st) == 0) {
        *found = S_ISREG(st.st_mode);
        if (!*found && !S_ISDIR(st.st_mode))
            return hb_fail(HB_ERR_BAD_INPUT, "candidate manifest %s is %s, not a regular file", path,
                           hb_input_kind(path));
        return HB_OK;
    }
    const int stat_errno = errno;
    if (stat_errno == ENOENT && lstat(path, &st) != 0)
        return HB_OK; /* nothing under this name */
    return hb_fail(HB_ERR_BAD_INPUT, "candidate manifest %s cannot be read: %s", path,
                   stat_errno == ENOENT ? "a symbolic link to nothing" : strerror(stat_errno));
}

hb_status hb_candidate_manifest_path(const char *candidate, long m, long n, long k,
                                     char path[HB_PATH_MAX])
{
    struct stat st;
    if (stat(candidate, &st) != 0)
        return hb_fail(HB_ERR_BAD_INPUT, "candidate %s: %s (give a manifest .json or a candidate-set folder)",
                       candidate, strerror(errno));
    if (S_ISREG(st.st_mode)) {
        snprintf(path, HB_PATH_MAX, "%s", candidate);
        return HB_OK;
    }
    if (!S_ISDIR(st.st_mode))
        return hb_fail(HB_ERR_BAD_INPUT, "candidate %s is neither a file nor a folder", candidate);

    char specific[64];
    snprintf(specific, sizeof specific, "%ld_%ld_%ld.json", m, n, k);
    const char *const names[] = {specific, "generic.json", "manifest.json"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (snprintf(path, HB_PATH_MAX, "%s/%s", candidate, names[i]) >= HB_PATH_MAX)
            return hb_fail(HB_ERR_BAD_INPUT, "candidate path %s is too long", candidate);
        int found = 0;
        HB_TRY(probe_entry(path, &found));
        if (found)
            return HB_OK;
    }
    return hb_fail(HB_ERR_UNSUPPORTED, "candidate set %s has no manifest for %ld,%ld,%ld (looked for %s, generic.json, manifest.json)",
                   candidate, m, n, k, specific);
}
