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

#include "bench/analysis/published_layout.h"
#include "bench/analysis/report_doc.h"
#include "bench/analysis/result_set.h"

/* How many disagreements the table lists. */
#define HB_COMPARE_TOP_DISAGREEMENTS 10

typedef struct hb_compare_input {
    const hb_result_set *ours;
    const hb_published_table *theirs;
    const char *published_path;
    hb_mode mode;
    const char *mode_source; /* how the mode was chosen, for the caption: "--mode", "the file name" */
    hb_timer timer;
} hb_compare_input;

/* Adds the comparison's tables to `doc`: compare_summary, compare_disagreements,
 * compare_missing, and compare_configs (detail). */
hb_status hb_build_comparison(const hb_compare_input *in, hb_doc *doc);

#endif
