/* The optional sanitizer passes (`--sanitize [TOOLS]`, docs/cli.md): before
 * a configuration is evaluated, this same binary runs its checks for that
 * configuration (`check --no-isolate --exact-reps 1`) under
 * `compute-sanitizer --tool T`, once for each tool asked for (memcheck,
 * racecheck, synccheck), each in a watched child process.  Every tool runs;
 * the errors each counted go into r->sanitize (summary.csv's `sanitize`),
 * and the first tool that found any fails the candidate with its name as the
 * check and its first error line; the full logs stay in the run folder,
 * <run>/<tool>/M_N_K.log. */
#ifndef HB_SANITIZE_PASS_H
#define HB_SANITIZE_PASS_H

#include <stddef.h>

#include "bench/driver/child_argv.h"
#include "bench/result/config_result.h"
#include "bench/result/sanitize_record.h"
#include "bench/result/run_options.h"

/* Exit status every tool is told to use when it found errors. */
#define HB_MEMCHECK_ERROR_EXIT 86
#define HB_MEMCHECK_ERROR_EXIT_TEXT "86"

/* Finds compute-sanitizer: $HB_COMPUTE_SANITIZER, $CUDA_HOME/bin,
 * /usr/local/cuda/bin, then PATH.  HB_ERR_USAGE, saying so, when absent. */
hb_status hb_sanitizer_available(char *path, size_t size);

/* Runs the passes for configuration `index` with the compute-sanitizer at
 * `sanitizer`.  *status = HB_OK when no tool found anything (the caller then
 * evaluates as usual, keeping r->sanitize); otherwise `r` holds the verdict
 * and *status its status.  Returns an error only when a pass itself could
 * not be run. */
hb_status hb_sanitize_config(const hb_run_options *options, const char *sanitizer, size_t index, const char *run_path,
                             hb_config_result *r, hb_status *status);

/* The flags the pass sets itself (NULL-terminated, without "--"); every
 * other flag `check` takes reaches the inner run as the run's options say. */
extern const char *const hb_sanitize_pass_flags[];

/* One tool's command line for configuration `index`: compute-sanitizer at
 * `sanitizer` with --tool `tool` running `self check ...`, as below. */
hb_status hb_sanitize_tool_command(const hb_run_options *options, const char *sanitizer, hb_sanitizer_tool tool,
                                   const char *self, size_t index, const char *out_dir, const char *log, hb_argv *argv);

/* The memcheck pass's command line for configuration `index`: compute-sanitizer at
 * `sanitizer` running `self check ...` with its results in `out_dir` and its
 * log in `log`.  Built from the parsed options (bench/driver/options.h), so
 * no flag the inner check takes is lost. */
hb_status hb_sanitize_command(const hb_run_options *options, const char *sanitizer, const char *self, size_t index,
                              const char *out_dir, const char *log, hb_argv *argv);

#endif
