/* The columns of summary.csv (docs/results.md), in order: each binds a
 * column's name to the code that computes its value for one row, in one
 * table, so a header and its rows cannot drift apart.  Sinks pick columns
 * from it: summary.csv writes them all; a markdown or paper table can take
 * a few by name.  New columns go at the end: scripts read summary.csv by
 * position as well as by name. */
#ifndef HB_SUMMARY_COLUMNS_H
#define HB_SUMMARY_COLUMNS_H

#include <stddef.h>

#include "bench/report/cell.h"
#include "bench/result/config_result.h"

/* One row of summary.csv: a participant of a configuration of a run. */
typedef struct hb_row {
    const char *run_id;
    const char *acc_class;                  /* the run's --acc, e.g. "fp32" */
    const hb_config_result *config;
    const hb_participant_result *participant; /* one of config->participants */
} hb_row;

typedef struct hb_column {
    const char *name;
    hb_cell (*value)(const hb_row *row);
} hb_column;

size_t hb_summary_column_count(void);
/* The column at `index` (0: run_id), NULL past the end. */
const hb_column *hb_summary_column(size_t index);
/* The column called `name`, NULL if there is none. */
const hb_column *hb_summary_column_find(const char *name);

#endif
