/* How a result folder's figures were taken, for the report's header
 * (docs/reports.md, "The header"): the candidate, the timing windows, how
 * many configurations of which plan and how they were drawn (--sample N
 * with --seed S), whether the call monitor ran (--no-trace), and the
 * harness's commit, from the folder's env.json (every run and sweep writes
 * one) and, for a sweep, its plan.json.  One line per folder, kept as a
 * note of the result set; the candidate's path is also kept, for the build
 * reasons of an imported set (bench/analysis/build_reasons.h) and the
 * figures' titles. */
#ifndef HB_RUN_PROTOCOL_H
#define HB_RUN_PROTOCOL_H

#include <jansson.h>

#include "bench/analysis/result_set.h"
#include "bench/sweep/plan_file.h"

/* Adds the protocol line of `folder` to `set`, from its env.json (`env`)
 * and, for a sweep, its plan (NULL for a run's folder); `configs` is how
 * many configurations were read from the folder (0: the line says none ran,
 * not the monitor's setting). */
hb_status hb_run_protocol_note(const char *folder, const json_t *env, const hb_plan_file *plan, size_t configs,
                               hb_result_set *set);

/* The value of `--flag VALUE` or `--flag=VALUE` in a command line of
 * blank-separated words (the last one given); 0 if it has none. */
int hb_command_line_flag(const char *command_line, const char *flag, char *out, size_t size);

#endif
