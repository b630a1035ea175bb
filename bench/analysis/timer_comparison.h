/* compare's per-timer tables (docs/reports.md, "compare"): each
 * configuration's status against its noise, ours on every timer (events,
 * wall, kernel, the CUDA-L2 repository's estimator) by size bin, and each
 * configuration on every timer. */
#ifndef HB_TIMER_COMPARISON_H
#define HB_TIMER_COMPARISON_H

#include "bench/analysis/compare_input.h"
#include "bench/analysis/report_doc.h"

/* compare_status, compare_timers_<column>, compare_timer_configs, on
 * `pairs`; the statuses counted into `out`. */
hb_status hb_build_timer_tables(const hb_compare_input *in, const hb_compare_pair *pairs, size_t count, hb_doc *doc,
                                hb_compare_outcome *out);

#endif
