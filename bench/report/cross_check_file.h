/* --raw: the cross-checked rounds of one configuration (docs/results.md,
 * "Cross-checked rounds (--raw)"), beside its samples file, as
 * <run>/raw/<index>_<M>x<N>x<K>.cross.csv: what the timed window's
 * cross-check judged (bench/result/cross_check.h), round by round, for the
 * power figures (scripts/bench_cross_check_power.sh) and for a look by hand.
 *
 * A header line, then one line per cross-checked round and participant,
 * round-major:
 *   round        the round's index among the cross-checked rounds, 0-based
 *   participant  index, as in the samples file
 *   name         the participant's name (a CSV text cell, docs/results.md "Text cells")
 *   role         candidate or baseline
 *   event_us     the harness's CUDA-event time of the call
 *   device_us    CUPTI's device timestamps of the same two events, stop - start
 *   diff_us      event_us - device_us
 *   paired_us    diff_us - the median diff_us of the round's baselines: the
 *                candidate's is what the paired rule judges
 * A figure CUPTI did not read is an empty cell. */
#ifndef HB_CROSS_CHECK_FILE_H
#define HB_CROSS_CHECK_FILE_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/cross_check.h"

#define HB_CROSS_CHECK_FILE_HEADER "round,participant,name,role,event_us,device_us,diff_us,paired_us"

/* Writes `rounds` cross-checked rounds of `count` participants to `path`
 * (through a temporary renamed over it).  HB_ERR_IO naming the path. */
hb_status hb_cross_check_file_write(const char *path, const hb_cross_series *series, size_t count, size_t rounds);

#endif
