/* The verdict of a whole run: the one of the configuration that set its exit
 * status, so the two always agree (docs/cli.md, "Exit codes"). */
#ifndef HB_RUN_VERDICT_H
#define HB_RUN_VERDICT_H

#include <stddef.h>

#include "bench/result/config_result.h"

/* The overall verdict name for an exit status ("pass", "incorrect", ...). */
const char *hb_overall_verdict(hb_status status, const hb_config_result *results, size_t count);

/* The reason of the first configuration with that status ("" for HB_OK). */
const char *hb_overall_reason(hb_status status, const hb_config_result *results, size_t count);

#endif
