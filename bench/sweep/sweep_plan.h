/* A sweep's plan (docs/sweeps.md): the configurations, in order, and the
 * modes each runs in.  Item i of the plan is configuration i / n_modes in
 * mode modes[i % n_modes]: both modes of a configuration are neighbours, and
 * an item's number is the same on every machine that builds the plan from
 * the same flags.  Plain data; no GPU. */
#ifndef HB_SWEEP_PLAN_H
#define HB_SWEEP_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/core/timing_policy.h"
#include "bench/result/run_options.h"

#define HB_PLAN_MAX_MODES 2

typedef struct hb_sweep_plan {
    hb_mnk configs[HB_MAX_CONFIGS];
    size_t n_configs;
    hb_mode modes[HB_PLAN_MAX_MODES];
    size_t n_modes;
} hb_sweep_plan;

typedef struct hb_plan_item {
    size_t config;  /* index into configs */
    hb_mode mode;
} hb_plan_item;

size_t hb_plan_item_count(const hb_sweep_plan *plan);
hb_plan_item hb_plan_item_at(const hb_sweep_plan *plan, size_t item);

/* The paper's grid: every (M, N, K) of {64, 128, 256, 512, 1024, 2048, 4096,
 * 8192, 12288, 16384}^3, M slowest, K fastest (the order of CUDA-L2's
 * published CSV files). */
void hb_plan_grid_paper(hb_sweep_plan *plan);

/* Every combination of three comma-separated lists of dimensions, M
 * slowest.  HB_ERR_USAGE naming the flag and the word when a list is bad or
 * the product exceeds HB_MAX_CONFIGS. */
hb_status hb_plan_axes(hb_sweep_plan *plan, const char *m_list, const char *n_list, const char *k_list);

/* Appends one configuration; HB_ERR_USAGE past HB_MAX_CONFIGS (`where`
 * names the source in the message). */
hb_status hb_plan_add(hb_sweep_plan *plan, hb_mnk mnk, const char *where);

/* Drops repeated configurations, keeping the first of each; returns how
 * many were dropped. */
size_t hb_plan_dedupe(hb_sweep_plan *plan);

/* "offline", "server" or "offline,server" (either order) into the plan's
 * modes; HB_ERR_USAGE otherwise. */
hb_status hb_plan_set_modes(hb_sweep_plan *plan, const char *list);

/* A reproducible subset of `count` configurations, stratified over
 * log2(M*N*K): the configurations sorted by size are cut into `count` groups
 * of (nearly) equal size and one is drawn from each with a generator seeded
 * by `seed`; the chosen keep their plan order.  Every size class of the plan
 * is represented in proportion, and the same flags give the same subset on
 * any machine.  A count at least the plan's size keeps the plan. */
void hb_plan_sample(hb_sweep_plan *plan, size_t count, uint64_t seed);

/* FNV-1a, 64 bits, continued from `hash` over `size` bytes: the sweep's
 * identity (bench/sweep/plan_file.h) is this hash of its canonical text. */
uint64_t hb_fnv1a(uint64_t hash, const void *data, size_t size);
#define HB_FNV1A_INIT 0xcbf29ce484222325ULL

#endif
