/* What a reproduction's folder holds of its sweep, for `reproduce
 * --tables-only` (docs/reproduce-cuda-l2.md): the tables are made from
 * measurements, so the folder must hold a sweep (OUT/sweep, or the shards'
 * OUT/sweep-shard-I-of-N to be merged into it) before anything is written,
 * and the comparisons and the summary page take the sweep's modes and
 * configuration count, not this command's flags (a --tables-only run has no
 * plan flags of its own).  Read from the sweep's plan.json where it has one;
 * from its summary.csv rows where it has none. */
#ifndef HB_REPRODUCE_SWEEP_H
#define HB_REPRODUCE_SWEEP_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/core/timing_policy.h"

typedef struct hb_repro_sweep {
    size_t n_configs;  /* the plan's configurations; without a plan.json, those its rows hold */
    int planned;       /* 1: n_configs and the modes are a plan.json's */
    hb_mode modes[2];  /* in the plan's order (offline first without one) */
    size_t n_modes;
} hb_repro_sweep;

/* Reads the sweep of the reproduction folder `out_dir`: `sweep_dir` when it
 * holds a plan.json or a summary.csv, else the shards' sweeps beside it
 * (`sweep_dir`-shard-I-of-N: OUT/sweep-shard-1-of-4, OUT/sweep-launcher-shard-1-of-4).
 * None of them: HB_ERR_BAD_RESULTS with a message that says the sweep must
 * be measured first, naming `measure_command` (the command that does).  A
 * folder that is there but not a sweep: HB_ERR_BAD_RESULTS naming the
 * place, as `report` would.  Nothing is written. */
hb_status hb_repro_sweep_read(const char *out_dir, const char *sweep_dir, const char *measure_command,
                              hb_repro_sweep *out);

/* 1 if the sweep holds `mode`. */
int hb_repro_sweep_has_mode(const hb_repro_sweep *sweep, hb_mode mode);

#endif
