/* Result folders made for the report tests and scripts/bench_report.sh: a
 * run's folder (summary.csv through the real writer, bench/report/csv_writer.c,
 * and an env.json) or a sweep's (with a plan.json), holding configurations
 * with seeded random times and speedups, some of them failed.  What was
 * written is kept in plain records, so a test can compute the tables its own
 * way and hold the report to them. */
#ifndef HB_RESULT_FIXTURE_H
#define HB_RESULT_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/core/timing_policy.h"
#include "bench/result/verdict.h"

#define HB_FIXTURE_ROWS 16

/* One baseline or -max row as written: t_b / t_c by each estimator and timer; NaN: empty. */
typedef struct hb_fixture_row {
    char name[48];
    double paper, geomean, paper_wall, geomean_wall;
    double kernel; /* t_b / t_c on kernel time (speedup_kernel + 1); NaN where untraced */
} hb_fixture_row;

typedef struct hb_fixture_config {
    hb_mnk mnk;
    hb_mode mode;
    hb_verdict verdict;
    size_t n_rows;
    hb_fixture_row rows[HB_FIXTURE_ROWS];
    char *csv_rows;   /* its rows of summary.csv, as written (owned) */
    struct hb_config_result *result; /* what was written (owned) */
} hb_fixture_config;

typedef struct hb_fixture {
    hb_fixture_config *configs;
    size_t count;
} hb_fixture;

/* `count` distinct sizes of the paper's grid ({64, ..., 16384}^3), each in
 * every mode of `modes` (1 or 2 of them), seeded; `failed_share` of them get
 * a verdict other than pass (incorrect, crashed, timed-out, unsupported,
 * implausible, too-slow: too-slow still counts). */
hb_status hb_fixture_make(uint64_t seed, size_t count, const hb_mode *modes, size_t n_modes, double failed_share,
                          hb_fixture *out);
void hb_fixture_free(hb_fixture *f);

/* Writes `c`'s summary.csv rows and records again from c->result, once a
 * test has changed it (a wall headline, a trace note, another class). */
hb_status hb_fixture_rewrite(hb_fixture_config *c);

/* Writes configs [first, first + count) of `f` into `folder` (created):
 * summary.csv and, unless gpu_name is NULL, an env.json naming that GPU. */
hb_status hb_fixture_write_run(const hb_fixture *f, size_t first, size_t count, const char *folder,
                               const char *gpu_name);

/* Writes `folder`/plan.json: a sweep plan of every config of `f` plus
 * `extra` sizes of the grid it lacks, shard null; and, where the folder
 * has a summary.csv (hb_fixture_write_run), the journal.jsonl that vouches
 * for its rows, as a sweep folder has. */
hb_status hb_fixture_write_plan(const hb_fixture *f, size_t extra, const char *folder);

/* A sweep folder as `hgemm-bench sweep` writes it, through its own writers:
 * plan.json (this build's harness commit, `--candidate candidate`, the
 * fixture's modes, shard `shard`), env.json naming `gpu_name`, and
 * summary.csv and journal.jsonl holding the first `done` items of the
 * shard.  The fixture's configurations must be made with every mode of the
 * plan, each size's modes next to each other (hb_fixture_make does): config
 * i is item i of the plan. */
hb_status hb_fixture_write_sweep(const hb_fixture *f, const char *folder, const char *candidate, size_t shard_index,
                                 size_t shard_count, size_t done, const char *gpu_name);

/* Sets how configuration `c` was timed, as a run would have recorded it:
 * `trace_note` ("" for a call monitor that ran whole; "--no-trace") and
 * `timer_reasons` (HB_TIMER_REASON_*: the work left the events, so the
 * headline goes on the wall clock); its summary.csv rows are written again. */
hb_status hb_fixture_set_timing(hb_fixture_config *c, const char *trace_note, unsigned timer_reasons);

/* Gives every participant of `c` a kernel time from the call monitor, 0.6 x
 * its event median (the candidate's 0.9 x: a kernel speedup unlike the
 * event one); its records and summary.csv rows are written again. */
hb_status hb_fixture_set_kernel(hb_fixture_config *c);

/* Sets the candidate's speedup over the baseline or -max row `name` of `c`:
 * `headline` on the events (speedup_paper + 1) and `kernel` on kernel time
 * (the row's kernel span over the candidate's, which becomes 100 us); its
 * summary.csv rows are written again.  HB_ERR_INTERNAL when `c` has no
 * such row. */
hb_status hb_fixture_set_speedup(hb_fixture_config *c, const char *name, double headline, double kernel);

/* Gives `c` the verdict `verdict` with the failed check `check` (its
 * candidate's row; the baselines' rows as they were); its rows are written
 * again. */
hb_status hb_fixture_set_verdict(hb_fixture_config *c, hb_verdict verdict, const char *check);

/* Writes `folder`/env.json through the run's own writer (bench/report/env_json.h):
 * the GPU `gpu_name`, the candidate `candidate`, the call monitor on or off
 * (`traced`), seed `seed`, warm-up and timed window of 0.25 s and 1.5 s,
 * and `command_line` as typed. */
hb_status hb_fixture_write_env(const char *folder, const char *gpu_name, const char *candidate, int traced,
                               unsigned long long seed, const char *command_line);

#endif
