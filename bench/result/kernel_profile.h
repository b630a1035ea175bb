/* What `--profile` found (docs/gate.md, "Profile"): per kernel that the
 * candidate and the named baseline launched in one call each, Nsight
 * Compute's figures for it, and what the pass cost.  The metric table below
 * is the one list of what is collected: the ncu metric, the key results use,
 * the unit ncu's raw page reports it in, and the table's column
 * head.  Plain data: no CUDA, no ncu. */
#ifndef HB_KERNEL_PROFILE_H
#define HB_KERNEL_PROFILE_H

#include <stddef.h>

typedef enum hb_profile_metric {
    HB_PROFILE_DRAM_PCT,      /* DRAM throughput, % of peak sustained, over the kernel's elapsed cycles */
    HB_PROFILE_SM_PCT,        /* SM throughput, % of peak (the busiest of the SM's units) */
    HB_PROFILE_TENSOR_PCT,    /* tensor pipe active, % of the SMs' active cycles (HMMA; on Hopper HGMMA too) */
    HB_PROFILE_OCCUPANCY_PCT, /* achieved occupancy: warps active, % of the SM's maximum */
    HB_PROFILE_L2_HIT_PCT,    /* L2 sector hit rate, % */
    HB_PROFILE_REGISTERS,     /* registers per thread */
    HB_PROFILE_SHARED_BYTES,  /* shared memory per block, bytes (static + dynamic + the driver's reserve) */
    HB_PROFILE_DURATION_NS,   /* the kernel's GPU time under ncu (its clocks and cache control), ns */
    HB_N_PROFILE_METRICS
} hb_profile_metric;

typedef struct hb_profile_metric_spec {
    const char *ncu_name;  /* as --metrics takes it and the CSV's header names it */
    const char *key;       /* verdict.json's key */
    const char *unit;      /* the raw page's unit row for it */
    const char *head;      /* the stdout table's column head */
} hb_profile_metric_spec;

extern const hb_profile_metric_spec hb_profile_metrics[HB_N_PROFILE_METRICS];

/* The metrics, comma-separated, as ncu's --metrics takes them. */
void hb_profile_metric_list(char *out, size_t size);

/* Kernels kept per configuration, over every participant's profiled call
 * (a candidate that launches several per call has a row for each); more
 * are counted in `dropped`. */
#define HB_PROFILE_MAX_KERNELS 16

typedef struct hb_kernel_profile {
    char participant[64];  /* "candidate", "torch", "cublas-nn", ... */
    char kernel[256];      /* the name as ncu gives it (demangled, without parameters) */
    char grid[40];         /* "(128, 1, 1)" as ncu gives it */
    char block[40];
    double value[HB_N_PROFILE_METRICS]; /* NaN: ncu did not report it */
} hb_kernel_profile;

typedef struct hb_profile_record {
    int asked;             /* --profile was given */
    int ran;               /* the pass ran to its end: `kernels` holds what ncu reported */
    char version[64];      /* ncu's version line, e.g. "Version 2025.3.1.0 (build ...)"; "" if unknown */
    double seconds;        /* the pass's wall time, every ncu process included */
    size_t count;
    size_t dropped;        /* kernels past HB_PROFILE_MAX_KERNELS, counted only */
    hb_kernel_profile kernels[HB_PROFILE_MAX_KERNELS];
    char missing[256];     /* the metrics ncu reported for no kernel, comma-separated ("" when none) */
    char note[400];        /* why there is no profile (ran == 0), or what is missing; "" otherwise */
} hb_profile_record;

/* Where `participant`'s kernel of most GPU time is in `p`, or NULL when the
 * pass profiled none of its kernels. */
const hb_kernel_profile *hb_profile_longest_kernel(const hb_profile_record *p, const char *participant);

#endif
