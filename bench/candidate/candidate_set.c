#include "bench/candidate/candidate_set.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/diag.h"

static int is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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
        if (is_regular_file(path))
            return HB_OK;
    }
    return hb_fail(HB_ERR_UNSUPPORTED, "candidate set %s has no manifest for %ld,%ld,%ld (looked for %s, generic.json, manifest.json)",
                   candidate, m, n, k, specific);
}
