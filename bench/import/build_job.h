/* One file built into a cache entry (docs/importer.md): its kernel object
 * compiled with its format's flags and shim for the target (nvcc --keep
 * leaves the cubin of that same compile), linked with the format's adapter
 * into the launcher library, the library's calls recorded on the CPU, and the cubin
 * kept when the recording shows one plain launch.  Runs in a child process
 * of the import (bench/import/job_pool.h) and builds into a private folder
 * renamed into place at the end, so an entry is whole or absent.  Its
 * outcome, built or failed with the first error line, is cached as well. */
#ifndef HB_BUILD_JOB_H
#define HB_BUILD_JOB_H

#include "bench/candidate/manifest.h"
#include "bench/core/status.h"
#include "bench/import/build_stages.h"
#include "bench/import/cutlass_locate.h"
#include "bench/import/import_format.h"
#include "bench/import/launch_recording.h"
#include "bench/import/toolchain.h"

/* The files of a cache entry. */
#define HB_ENTRY_LIBRARY "launcher.so"
#define HB_ENTRY_CUBIN "kernel.cubin"
#define HB_ENTRY_RECORDING "recording.json"
#define HB_ENTRY_LOG "build.log"
#define HB_ENTRY_OUTCOME "outcome.json"
#define HB_ENTRY_STAGES "nvcc-time.csv" /* nvcc --time's table of the compile, read into the outcome and removed */
/* In the candidate's folder only: the recording at distinct sizes that names equal sizes' parameters. */
#define HB_DISTINCT_RECORDING "recording_distinct_sizes.json"
#define HB_DISTINCT_RECORDING_LOG "recording_distinct_sizes.log"

typedef struct hb_build_settings {
    const hb_import_format *format; /* its flags, shim and adapter */
    const hb_toolchain *toolchain;
    const hb_cutlass *cutlass;
    const hb_import_data *data;
    hb_target_arch arch;
    hb_recorder_device device;
    int build_timeout_s;   /* per compile */
    int record_timeout_s;
} hb_build_settings;

typedef struct hb_build_job {
    char source[HB_PATH_MAX - 256];
    char adapter_object[HB_PATH_MAX - 256];
    char entry_dir[HB_PATH_MAX - 256]; /* the cache entry to create */
    long padded[3];                    /* the sizes the recorder calls the entry with */
} hb_build_job;

/* Builds the entry; returns HB_OK when the entry was written (even for a
 * file that failed to build: that is its outcome), an error when the entry
 * itself could not be written. */
hb_status hb_build_job_run(const hb_build_settings *settings, const hb_build_job *job);

/* The adapter's object for `entry_name`, built once per import into `path`.
 * HB_ERR_BAD_INPUT when it does not build (this nvcc and CUTLASS build no
 * file) or its build was stopped by an interrupt. */
hb_status hb_build_adapter(const hb_build_settings *settings, const char *entry_name, const char *path,
                           const char *log_path);

typedef struct hb_build_outcome {
    int built;              /* the launcher library exists */
    int cubin;              /* the cubin form exists */
    char step[32];          /* the step that failed: "compile", "link", "record" */
    char first_error[512];  /* its first error line, or how it ended */
    int timed_out;          /* a step ran past --build-timeout: this host's limit, not the file's outcome, so
                               the import builds it again rather than reuse it */
    double seconds;         /* the build's wall time when it ran */
    hb_build_stages stages; /* where that time went (nvcc --time, then link and record); known = 0 in entries
                               built before the importer kept it */
    double peak_rss_mib;    /* the largest resident size of the build's processes (getrusage of its children);
                               0: unknown */
} hb_build_outcome;

/* Reads an entry's outcome.json; HB_ERR_BAD_INPUT when there is none. */
hb_status hb_build_outcome_read(const char *entry_dir, hb_build_outcome *out);

#endif
