/* A launcher's shared library (docs/launchers.md): loaded with
 * dlopen(RTLD_NOW | RTLD_LOCAL) in the configuration's child, its ABI version
 * checked against bench/candidate/hgemm_launch.h, its entry found, and each
 * call's return turned into the harness's status. */
#ifndef HB_LAUNCHER_LIBRARY_H
#define HB_LAUNCHER_LIBRARY_H

#include "bench/candidate/hgemm_launch.h"
#include "bench/candidate/manifest.h"
#include "bench/core/status.h"

typedef struct hb_launcher_library {
    void *handle;             /* dlopen's; NULL when closed */
    hgemm_launch_fn entry;    /* resolved at load, so a timed call does no lookup */
    char path[HB_PATH_MAX];   /* the file loaded */
    char name[128];           /* the candidate's, for messages */
} hb_launcher_library;

/* Loads the manifest's library for compute capability `sm`.  Loading runs
 * the library's own code (its constructors, hgemm_launch_abi_version), so
 * the heartbeat's phase is the candidate's meanwhile (bench/core/heartbeat.h).
 * HB_ERR_UNSUPPORTED when the manifest has no library for `sm`;
 * HB_ERR_BAD_INPUT, naming the file, when it is missing, dlopen refuses it
 * (dlerror's words), it lacks hgemm_launch_abi_version or the entry, or it
 * was built for another ABI version. */
hb_status hb_launcher_library_open(const hb_manifest *manifest, int sm, hb_launcher_library *out);

/* Calls the entry with `args` (its error buffer is cleared first and its
 * message made one line after).  HB_OK when it returns HGEMM_LAUNCH_OK;
 * HB_ERR_UNSUPPORTED ("declines", with its message) for
 * HGEMM_LAUNCH_UNSUPPORTED; HB_ERR_CANDIDATE_FAULT naming the value and the
 * message for any other. */
hb_status hb_launcher_library_call(const hb_launcher_library *library, struct hgemm_launch_args *args);

/* dlclose (which runs the library's destructors); a closed one is ignored. */
void hb_launcher_library_close(hb_launcher_library *library);

#endif
