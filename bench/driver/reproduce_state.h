/* Where a reproduction stands, on disk (docs/reproduce-cuda-l2.md, "Long
 * runs"): `reproduce` rewrites OUT/reproduce-state.json (a shard's:
 * reproduce-state-shard-I-of-N.json) atomically at every stage boundary:
 * which process runs it (pid and start time), since when, the stage and
 * its form, the stage's items in all and how many were done when it began,
 * and where its count is read (the sweep's journal, the import's progress
 * lines in the log).  `reproduce --status` reads it, with the journal and
 * the log, and says where the reproduction stands; --detach writes
 * OUT/reproduce.pid and refuses a second start while the first runs. */
#ifndef HB_REPRODUCE_STATE_H
#define HB_REPRODUCE_STATE_H

#include <stdio.h>
#include <sys/types.h>

#include "bench/core/status.h"

#define HB_REPRO_STATE_FORMAT "hgemm-bench reproduce state"

typedef struct hb_repro_state {
    long pid;                      /* the reproducing process */
    unsigned long long pid_start;  /* its start, clock ticks after boot (bench/core/process_start.h) */
    double started_s;              /* the reproduction's start (this run of it), seconds since the epoch */
    char stage[32];                /* import, merge, sweep, report, compare, summary; finished at the end */
    char form[16];                 /* the stage's form (sweep, report, compare); "" for the others */
    int stage_index, stage_count;  /* 1-based, of this run's stages */
    double stage_started_s;        /* seconds since the epoch */
    long long total;               /* the stage's items: configurations to build, sweep items; -1: none counted */
    long long done_at_start;       /* of them done before the stage began (a resumed sweep's journal) */
    char journal[4200];            /* the sweep's journal.jsonl the count is read from; "" for other stages */
    char log[4200];                /* the log a detached run writes (OUT/reproduce.log); "" when none */
    int ended;                     /* 1: the reproduction ended, with exit_code */
    int exit_code;
} hb_repro_state;

/* OUT/reproduce-state<suffix>.json, atomically (bench/core/json_file.h). */
hb_status hb_repro_state_write(const char *out_dir, const char *suffix, const hb_repro_state *s);

/* Reads the state file at `path`.  HB_ERR_BAD_RESULTS naming it when it is
 * missing or not a state file. */
hb_status hb_repro_state_read(const char *path, hb_repro_state *s);

/* The whole lines of a sweep's journal: its items done (0 when it has none yet). */
long long hb_repro_journal_done(const char *journal);

/* OUT/reproduce<suffix>.pid: "PID START_TICKS\n", atomically. */
hb_status hb_repro_pid_write(const char *out_dir, const char *suffix, pid_t pid, unsigned long long start);

/* The running reproduction of OUT (of its shard, `suffix`): its pid when the
 * pid file or the state file names a process that runs and started when
 * they say, else 0. */
pid_t hb_repro_running(const char *out_dir, const char *suffix);

/* `reproduce --status OUT`: every state file of OUT, said on `to`.
 * HB_ERR_BAD_RESULTS when OUT holds none (not a reproduction, or one from
 * before state files: its stages' own files say what they did). */
hb_status hb_repro_status_print(const char *out_dir, FILE *to);

#endif
