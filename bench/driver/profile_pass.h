/* The optional profile pass (`--profile`, docs/gate.md "Profile"): after a
 * configuration is evaluated, apart from its timed windows, this same binary
 * runs `check --no-isolate` for that configuration under Nsight Compute (ncu),
 * once per participant profiled, in a watched child.  The profiled process
 * (bench/driver/profile_calls.h) calls the candidate and the baseline untimed,
 * each inside an NVTX range that ncu's --nvtx-include selects, so only their
 * kernels are profiled.  What ncu reports per kernel goes into r->profile
 * (bench/result/kernel_profile.h); its CSV and log stay in the run folder,
 * <run>/profile/M_N_K.<mode>.<participant>.{csv,log}.  The pass never changes a
 * verdict: ncu missing, counters not permitted, a crash or a timeout leave
 * r->profile.ran 0 and a note. */
#ifndef HB_PROFILE_PASS_H
#define HB_PROFILE_PASS_H

#include <stddef.h>

#include "bench/driver/child_argv.h"
#include "bench/result/config_result.h"
#include "bench/result/run_options.h"

/* Names ncu's path instead of the search ($CUDA_HOME/bin, /usr/local/cuda/bin, PATH). */
#define HB_NCU_ENV "HB_NCU"

/* The most participants one configuration profiles: the candidate and a -max figure's two layouts. */
#define HB_PROFILE_MAX_PARTICIPANTS 3

/* The participants profiled for `r`: "candidate", then options->vs; for a
 * -max figure, the layout its row took, or both layouts where the
 * configuration has no such row.  Returns how many (<= max). */
size_t hb_profile_participants(const hb_run_options *options, const hb_config_result *r, const char **names,
                               size_t max);

/* ncu's command line profiling `participant` in configuration `index`:
 * ncu at `ncu` running `self check ...` with its results in `out_dir`, and
 * its report (the CSV) written to the file `report` (--log-file). */
hb_status hb_profile_command(const hb_run_options *options, const char *ncu, const char *self, size_t index,
                             const char *participant, const char *out_dir, const char *report, hb_argv *argv);

/* Runs the pass for configuration `index` when options->profile, into
 * r->profile; a configuration that did not pass its checks is not
 * profiled (the note says so).  Never fails: what went wrong is the note. */
void hb_profile_config(const hb_run_options *options, size_t index, const char *run_path, hb_config_result *r);

#endif
