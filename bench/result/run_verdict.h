/* The verdict of a whole run: the one of the configuration that set its exit
 * status, so the two always agree (docs/cli.md, "Exit codes"). */
#ifndef HB_RUN_VERDICT_H
#define HB_RUN_VERDICT_H

#include <stddef.h>

#include "bench/result/config_result.h"
#include "bench/result/run_record.h"

/* The overall verdict name for an exit status ("pass", "incorrect", ...). */
const char *hb_overall_verdict(hb_status status, const hb_config_result *results, size_t count);

/* The reason of the first configuration with that status ("" for HB_OK). */
const char *hb_overall_reason(hb_status status, const hb_config_result *results, size_t count);

/* The same for a run's outcome: "interrupted" and "interrupted by SIGINT
 * after 1 of 3 configurations (2 not run)" (into `buffer`) when a signal
 * stopped it, else the two above. */
const char *hb_outcome_verdict(const hb_run_outcome *outcome);
const char *hb_outcome_reason(const hb_run_outcome *outcome, char *buffer, size_t size);

#endif
