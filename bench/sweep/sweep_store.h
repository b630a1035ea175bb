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
    long long cut_journal_to;  /* >= 0: the journal's length once its last line, cut short, is dropped */
    long long cut_csv_to;      /* >= 0: summary.csv's once the rows of the item in flight are dropped */
    char in_flight[140];       /* that item's configuration, for the message */
    long long csv_read, journal_read; /* the files' lengths when they were read and checked */
} hb_sweep_store;

/* A new sweep folder's files: summary.csv with its header, an empty journal. */
hb_status hb_sweep_store_create(hb_sweep_store *store, const char *folder, const hb_sweep_plan *plan);

/* An existing folder's: the journal and summary.csv read and checked
 * against the plan and each other (bench/sweep/sweep_files.h: its header is
 * this harness's, it holds what the journal vouches for, at most one item's
 * rows past that), and opened to append (each a regular file, not a link).
 * A line cut short and the rows of an item in flight are dropped when the
 * first new item is appended (a resume that runs nothing changes nothing),
 * each said on stderr.  HB_ERR_BAD_RESULTS naming the file and line when
 * they disagree, or one is a link, FIFO or folder, with nothing changed. */
hb_status hb_sweep_store_open(hb_sweep_store *store, const char *folder, const hb_plan_file *plan);

/* 1 if summary.csv and the journal still have the lengths they had when
 * hb_sweep_store_open read and checked them (nothing appended since). */
int hb_sweep_store_unchanged(const hb_sweep_store *store);

/* What opening the folder found, applied: a journal line cut short and the
 * rows of the item that was in flight dropped (they run again).  Done by
 * the first append at the latest, and by a sweep once its GPUs are open;
 * never earlier, so a resume that finds no GPU leaves the folder as it
 * was.  A second call does nothing. */
hb_status hb_sweep_store_drop_in_flight(hb_sweep_store *store);

/* The item's rows into summary.csv (fsync), then its journal line (fsync);
 * `entry` gives the item and where it ran, the rest is taken from `result`. */
hb_status hb_sweep_store_append(hb_sweep_store *store, const char *run_id, const char *acc_class,
                                const hb_config_result *result, hb_journal_entry *entry);

void hb_sweep_store_close(hb_sweep_store *store);

#endif
