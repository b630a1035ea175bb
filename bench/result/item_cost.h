/* Where one sweep item's time goes (docs/performance.md, "Where an item's
 * time goes"): its wall time split into the parts a process per item pays,
 * each measured where it happens (the worker, the parent of the item's
 * children, the evaluating child) and carried back in the item's result to
 * its journal line.  Parts done before the item began, by a child started
 * and readied while the GPU's previous item measured, are kept apart in
 * `ahead`: they cost the GPU no time of this item's.  Plain data. */
#ifndef HB_ITEM_COST_H
#define HB_ITEM_COST_H

#include <stddef.h>

typedef enum hb_cost_part {
    HB_COST_BETWEEN,       /* the worker idle between its last item's result and this item (the sweep's bookkeeping) */
    HB_COST_RECORDING,     /* a launcher's replay recorded in a throwaway process (or its folder reused) */
    HB_COST_REFERENCE,     /* the baselines' clean-process reference (measured, or read from its cache) */
    HB_COST_REFERENCE_WINDOWS, /* of which its warm-up and timed windows (--reference-warmup-s, --reference-time-s) */
    HB_COST_PROCESS_START, /* the evaluating child started (fork), or a readied one handed the item */
    HB_COST_CUPTI,         /* the call monitor opened (CUPTI subscribed, activity buffers) */
    HB_COST_CONTEXT,       /* the CUDA context and the timed stream */
    HB_COST_CODE_CHECK,    /* the timing entry points and every code page sealed, and checked after loads */
    HB_COST_SANDBOX,       /* the sandbox entered */
    HB_COST_LIBRARY_LOAD,  /* the candidate loaded: cubin, launcher library or replay, its module state audited */
    HB_COST_HANDLES,       /* the baselines created (cuBLAS and cuBLASLt handles, workspaces, heuristics) */
    HB_COST_AUTOTUNE,      /* of which the autotune baselines' cache lookup or search */
    HB_COST_PROBLEM,       /* the inputs, outputs and references made, the participants watched */
    HB_COST_BATTERY,       /* the correctness battery before timing */
    HB_COST_WARMUP,        /* the warm-up window */
    HB_COST_TIMED,         /* the timed window */
    HB_COST_OUTPUT_SCAN,   /* of the two windows, the output scans read back after each round */
    HB_COST_CHECKS_AFTER,  /* the battery after timing, the timers' and baselines' checks, the figures */
    HB_COST_TEARDOWN,      /* the calls judged, trace.json written, the GPU work freed */
    HB_COST_RESULT,        /* the result back to the worker, the child's exit (context destroyed) and reap; with a
                              readied child, the wait for the previous item's exit before the GPU work */
    HB_COST_PART_COUNT
} hb_cost_part;

typedef struct hb_item_cost {
    double wall_s;                       /* the item on its worker, from its hand-out to its result, seconds */
    double part_s[HB_COST_PART_COUNT];   /* seconds on the item's path (AUTOTUNE and OUTPUT_SCAN are parts of
                                            HANDLES and of the windows: not added to the rest) */
    double ahead_s[HB_COST_PART_COUNT];  /* seconds done before the item began, beside the previous item */
    double stamp_s;                      /* a monotonic clock reading in flight between processes (not written) */
} hb_item_cost;

/* The part's name in journals and tables ("process_start"), NULL past the end. */
const char *hb_cost_part_name(hb_cost_part part);

/* The part whose name is `name`: 1, or 0 for a name no part has. */
int hb_cost_part_parse(const char *name, hb_cost_part *out);

/* 1 for a part counted inside another (autotune in handles, the reference's windows in the reference, the output
 * scan in the windows). */
int hb_cost_part_is_inner(hb_cost_part part);

/* The windows' seconds of the item's path: its warm-up and timed windows, and its baselines' reference's. */
double hb_item_cost_windows_s(const hb_item_cost *cost);

/* What the parts on the path do not explain: wall - the sum of the outer parts (may be slightly negative where
 * clocks of two processes meet). */
double hb_item_cost_other_s(const hb_item_cost *cost);

/* The item's cost beyond its windows: wall - windows (the figure the overhead goal is about). */
double hb_item_cost_overhead_s(const hb_item_cost *cost);

/* Adds `seconds` to a part (negative readings count as 0). */
void hb_item_cost_add(hb_item_cost *cost, hb_cost_part part, double seconds);

/* Adds now - *since to a part and sets *since = now: successive parts of one process, timed back to back. */
void hb_item_cost_lap(hb_item_cost *cost, hb_cost_part part, double *since, double now);

/* Sums b into a (wall, parts, ahead): the sweep's totals. */
void hb_item_cost_sum(hb_item_cost *a, const hb_item_cost *b);

/* One line for `items` items whose costs `sum` adds up: the mean per item, its windows and what lies beyond them,
 * then every part's seconds summed (those done ahead apart), the parts with no time left out. */
void hb_item_cost_describe(const hb_item_cost *sum, size_t items, char *out, size_t size);

#endif
