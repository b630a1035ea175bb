/* The journal of a sweep folder (docs/sweeps.md): one JSON line per
 * finished item, appended and fsync'd as the item finishes, after its rows
 * are safely in summary.csv.  It is what `sweep --resume` trusts: an item
 * is done when its line is whole; a line cut short by a crash, a kill -9 or
 * a power loss is the item that was in flight, run again.  `csv_end` ties
 * the two files: summary.csv's length once the item's rows were on disk, so
 * a resume cuts the rows of an item whose line never made it. */
#ifndef HB_JOURNAL_H
#define HB_JOURNAL_H

#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/core/timing_policy.h"
#include "bench/result/item_cost.h"
#include "bench/sweep/shard.h"
#include "bench/sweep/sweep_plan.h"

#define HB_JOURNAL_NAME "journal.jsonl"

typedef struct hb_journal_entry {
    size_t item;            /* the plan's item number */
    hb_mnk mnk;
    hb_mode mode;
    hb_status status;       /* the configuration's status: its exit code had it been a run */
    char verdict[24];       /* pass, incorrect, crashed, ... (bench/result/verdict.h) */
    char check[24];
    char reason[512];
    int device;             /* the CUDA ordinal it ran on; -1: it never reached a GPU */
    char gpu_uuid[64];
    double seconds;         /* its wall time */
    long long csv_end;      /* summary.csv's length in bytes once its rows were on disk */
    char finished_utc[32];
    int has_cost;           /* the line has a "cost" object (journals before it have none) */
    hb_item_cost cost;      /* where the item's time went (bench/result/item_cost.h) */
    long line;              /* the journal line it was read from (messages); 0: not read from a file */
} hb_journal_entry;

/* A journal is a line of at most 4 KiB per item of a plan of at most
 * HB_MAX_CONFIGS x 2 modes: 32 MiB.  A file over 64 MiB is not a journal. */
#define HB_JOURNAL_MAX_BYTES ((size_t)64 << 20)

/* One line, '\n' included, into out; HB_ERR_INTERNAL when it does not fit,
 * or when its verdict is none or does not admit its status (a line every
 * reader would refuse: bench/result/verdict.h). */
hb_status hb_journal_format(const hb_journal_entry *entry, char *out, size_t size);

/* Appends the line with one write and fsyncs the file. */
hb_status hb_journal_append(int fd, const char *path, const hb_journal_entry *entry);

/* Every whole line of the journal at `path`, checked against the plan and
 * the folder's shard (NULL: the whole plan) and against each other: an
 * item of the shard, its configuration and mode, not seen twice, a status
 * that is an exit code of a configuration, a verdict that admits it
 * (bench/result/verdict.h), and a csv_end past the previous line's (the
 * rows of each item follow the last one's).  *valid_bytes is
 * where the last whole line ends: a tail after it, a line cut short, is
 * reported by *cut_tail (its length in bytes) and left for the caller to
 * cut.  *entries is malloc'd (free it).  A missing file is an empty journal
 * with *exists = 0.  HB_ERR_BAD_RESULTS naming the file, line and column of
 * a bad line, or saying what the path is when it is not a regular file. */
hb_status hb_journal_read(const char *path, const hb_sweep_plan *plan, const hb_shard *shard,
                          hb_journal_entry **entries, size_t *count, long long *valid_bytes, long long *cut_tail,
                          int *exists);

#endif
