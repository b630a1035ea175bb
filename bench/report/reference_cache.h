/* The cache of the baselines' clean-process references
 * (bench/result/baseline_reference.h), so that a reference is measured once
 * per configuration key on a GPU, as the autotune cache keeps its choices
 * (baselines/autotune_cache.h).
 *
 * One JSON file, format "hgemm-bench-baseline-reference/1":
 *   {"format": ..., "entries": [{"key": {...}, "reference": {...}}, ...]}
 * `key` is hb_reference_key_json's object; an entry is reused only when its
 * key equals the configuration's in every field (same GPU, driver, harness
 * commit, configuration, timing policy, workspace and reference windows).
 * `reference` holds the baselines' figures, their kernels' names and their
 * medians and spread in microseconds (null for a timer that did not run).
 *
 * A file that does not parse, or an entry that does not, is ignored with a
 * warning naming the file (the reference is then measured again, and the
 * next store rewrites the file with the valid entries only): a lookup never
 * fails because of the file's content, only when it cannot be read at all.
 * A store holds an exclusive flock() on "<path>.lock" for its
 * read-modify-write and replaces the file atomically (bench/core/json_file.h),
 * so the workers of a sweep, one per GPU, never lose each other's entries. */
#ifndef HB_REFERENCE_CACHE_H
#define HB_REFERENCE_CACHE_H

#include <jansson.h>

#include "bench/core/status.h"
#include "bench/result/baseline_reference.h"

#define HB_REFERENCE_CACHE_FORMAT "hgemm-bench-baseline-reference/1"
#define HB_REFERENCE_CACHE_FILE "baseline-reference.json"

/* What a reference is reused for. */
typedef struct hb_reference_key {
    char gpu_uuid[64];          /* the GPU's UUID (its PCI bus id where it has none) */
    char driver[40];            /* the NVIDIA driver's version */
    char harness[64];           /* the harness's commit (bench/core/version.h) */
    long m, n, k;
    char acc[8];                /* accumulator class */
    char mode[16], gap[16];     /* timing mode; server mode's gap placement ("none" offline) */
    double mean_gap_ms;         /* server mode's mean gap; 0 offline */
    char l2[16], stream[16];    /* L2 policy, stream policy */
    unsigned long long workspace_bytes;
    double warmup_s, time_s;    /* the reference's windows */
    char monitor[64];           /* the call monitor: "all", "off", or the parts HB_MONITOR_PARTS named */
    char sandbox[8];            /* --sandbox: "on" or "off" ("off" with --no-isolate): its system calls cost more */
} hb_reference_key;

/* The key as the file holds it (a new reference). */
json_t *hb_reference_key_json(const hb_reference_key *key);

/* The entry of `key` in the file at `path` into *out, *found = 1; *found = 0
 * when the file does not exist or has no valid entry of that key (the last
 * one wins where a hand-edited file holds several).  HB_ERR_IO only when the
 * file exists but cannot be read (not a regular file, over 64 MiB). */
hb_status hb_reference_cache_lookup(const char *path, const hb_reference_key *key, hb_baseline_reference *out,
                                    int *found);

/* Adds `ref` under `key`, replacing an entry of the same key; creates the
 * file's folder when missing.  HB_ERR_IO naming the path on failure. */
hb_status hb_reference_cache_store(const char *path, const hb_reference_key *key, const hb_baseline_reference *ref);

/* The reference as the file holds it, and back (0 and why when `json` is not one). */
json_t *hb_reference_json(const hb_baseline_reference *ref);
int hb_reference_from_json(const json_t *json, hb_baseline_reference *out, char *why, size_t why_size);

#endif
