/* The report's tables (docs/reports.md), built from a result set into a
 * report document: Table 1 (the candidate's mean speedup over each baseline
 * and -max figure, per mode, with win rates, by the paper's aggregate and by
 * ours), Table 2 (the same of max(candidate, baseline): per configuration
 * max(1, t_b / t_c)), Table 3 (the speedup over cuBLASLt-autotune-max by
 * problem size), the configurations left out and why, those a plan expects
 * and no folder holds, and per mode the per-configuration table in CUDA-L2's
 * published layout. */
#ifndef HB_PAPER_TABLES_H
#define HB_PAPER_TABLES_H

#include "bench/analysis/report_doc.h"
#include "bench/analysis/result_set.h"

/* The per-configuration speedup t_b / t_c of `entry` over column `column`:
 * the estimator's figure with `timer`, NaN where there is none.  The one
 * place a figure is picked, for the tables, the published layout and compare. */
double hb_config_ratio(const hb_config_entry *entry, hb_timer timer, hb_estimator estimator, size_t column);

/* "CUDA events" or "wall clock"; the summary.csv column an estimator is read from. */
const char *hb_timer_words(hb_timer timer);
const char *hb_estimator_column(hb_estimator estimator, hb_timer timer);

/* The name of a mode's published-layout table (and CSV file stem): "speedup_offline". */
void hb_published_table_name(hb_mode mode, char *out, size_t size);

/* Adds every table of the report on `set` to `doc`. */
hb_status hb_build_report(const hb_result_set *set, hb_timer timer, hb_doc *doc);

/* Adds the published-layout table of `mode` (detail) to `doc`. */
hb_status hb_build_published_table(const hb_result_set *set, hb_timer timer, hb_mode mode, hb_doc *doc);

#endif
