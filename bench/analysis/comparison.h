/* `compare`: our per-configuration speedups against a published file's
 * (docs/reports.md, "compare"), for one mode.  Ours is the figure the
 * report's own published-layout table holds (the paper's per-configuration
 * estimator, with the chosen timer), so a report's speedup_<mode>.csv
 * compared with its own folders agrees exactly.  On the configurations both
 * sides have: per column the means of both sides, Spearman's rank
 * correlation, the share where both say the candidate wins; the largest
 * disagreements |log(ours / theirs)| over every configuration and column;
 * and the configurations only one side has, or that ours left out. */
#ifndef HB_COMPARISON_H
#define HB_COMPARISON_H

#include "bench/analysis/compare_input.h"
#include "bench/analysis/report_doc.h"

/* How many disagreements the table lists. */
#define HB_COMPARE_TOP_DISAGREEMENTS 10


/* Adds the comparison's tables to `doc` (docs/reports.md, "compare"):
 * compare_summary, compare_status, compare_timers_<column> (one per
 * column), compare_disagreements; and, CSV and JSON only, compare_missing,
 * compare_configs and compare_timer_configs.  `out`: the statuses' counts. */
hb_status hb_build_comparison(const hb_compare_input *in, hb_doc *doc, hb_compare_outcome *out);


#endif
