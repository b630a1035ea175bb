/* What one ncu process of the profile pass left (bench/driver/profile_pass.h),
 * read into the profile record: its CSV parsed (bench/analysis/ncu_csv.h), or
 * a note saying why there is nothing to read. */
#ifndef HB_PROFILE_OUTPUT_H
#define HB_PROFILE_OUTPUT_H

#include "bench/core/diag.h"
#include "bench/result/kernel_profile.h"

/* What ncu prints when the driver keeps the GPU's performance counters from this user. */
#define HB_NCU_COUNTERS_DENIED "ERR_NVGPUCTRPERM"

typedef struct hb_profile_output {
    char csv[4300];   /* ncu's report (--log-file): its own lines and the CSV, nothing the profiled program printed */
    char log[4300];   /* everything else: the profiled program's stdout and stderr, and ncu's outside its report */
} hb_profile_output;

/* Appends `participant`'s kernels to `p`, or a note naming the files when
 * the counters were denied, the CSV cannot be read, or it holds none of its
 * kernels.  `ended` says how ncu ended ("exited with status 0"). */
void hb_profile_output_read(const hb_profile_output *files, const char *participant, const char *ended,
                            hb_profile_record *p);

/* ncu --version's output at `path`: its "Version ..." line into p->version. */
void hb_profile_version_read(const char *path, hb_profile_record *p);

/* Appends one line to p->note ("; " between lines). */
void hb_profile_note(hb_profile_record *p, const char *fmt, ...) HB_PRINTF(2, 3);

#endif
