/* The two files of a sweep folder that grow as it runs, kept in step
 * (docs/sweeps.md, "Resume"): summary.csv, the same columns as a run's, and
 * the journal (bench/sweep/journal.h).  An item finishes in this order:
 * its rows appended to summary.csv and fsync'd, then its journal line
 * appended and fsync'd.  A crash between the two leaves rows the journal
 * does not vouch for; opening the folder again cuts them (the journal's
 * last csv_end), so after any number of crashes and resumes summary.csv
 * holds every finished item's rows exactly once. */
#ifndef HB_SWEEP_STORE_H
#define HB_SWEEP_STORE_H

#include <stdio.h>

#include "bench/core/status.h"
#include "bench/result/config_result.h"
#include "bench/sweep/journal.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/sweep_plan.h"

typedef struct hb_sweep_store {
    char folder[4096];
    char csv_path[4200];
    char journal_path[4200];
    FILE *csv;
    int journal_fd;
    hb_journal_entry *entries; /* every finished item: earlier sessions' and this one's */
    size_t count, capacity;
    unsigned char *done;       /* per plan item */
    size_t plan_items;
} hb_sweep_store;

/* A new sweep folder's files: summary.csv with its header, an empty journal. */
hb_status hb_sweep_store_create(hb_sweep_store *store, const char *folder, const hb_sweep_plan *plan);

/* An existing folder's: the journal and summary.csv read and checked
 * against the plan and each other (bench/sweep/sweep_files.h: its header is
 * this harness's, it holds what the journal vouches for, at most one item's
 * rows past that); only then a line cut short is dropped and summary.csv
 * cut to the journal's last csv_end, each said on stderr.
 * HB_ERR_BAD_RESULTS naming the file and line when they disagree, with
 * nothing changed. */
hb_status hb_sweep_store_open(hb_sweep_store *store, const char *folder, const hb_plan_file *plan);

/* The item's rows into summary.csv (fsync), then its journal line (fsync);
 * `entry` gives the item and where it ran, the rest is taken from `result`. */
hb_status hb_sweep_store_append(hb_sweep_store *store, const char *run_id, const char *acc_class,
                                const hb_config_result *result, hb_journal_entry *entry);

void hb_sweep_store_close(hb_sweep_store *store);

#endif
