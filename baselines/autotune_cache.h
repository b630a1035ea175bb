/* On-disk cache of the cuBLASLt autotune baseline's choices (docs/methodology.md,
 * paper Listing 8): one plain-text line per key, so a search of up to 100
 * candidates runs once per GPU, driver, cuBLASLt version and problem, and a
 * person can read (and audit) which algorithm each run used.
 *
 * Format 1, UTF-8/ASCII text, '\n' line ends:
 *   line 1  "# hgemm-bench cuBLASLt autotune cache, format 1. ..." (a comment
 *           naming the format; lines after a header of another format are ignored)
 *   line 2  "# " and the tab-separated column names
 *   then    one line per key, 17 tab-separated fields: gpu_name gpu_id driver
 *           cublaslt_version acc layout workspace_bytes m n k algo_text median_us
 *           candidates search_s created algo_data checksum, where algo_data is the
 *           8 algorithm words as 16 lower-case hex digits joined by ':', doubles are
 *           written with %.17g (they read back bit for bit) and checksum is the
 *           64-bit FNV-1a of the line's bytes before its last tab, as 16 lower-case
 *           hex digits.
 * Other lines starting with '#' are comments; empty lines are skipped.  A line
 * that does not parse or whose checksum does not match is ignored with a
 * warning (a lookup never fails because of one) and dropped by the next store.
 *
 * Atomicity and locking: a store holds an exclusive flock() on "<path>.lock"
 * (left in place: removing a lock file races with its next user) for the whole
 * read-modify-write, writes the new file to "<path>.tmp.<pid>", fsync()s it,
 * rename()s it over <path> and fsync()s the folder.  So concurrent writers never
 * lose each other's entries, a crash leaves either the old or the new file, and
 * readers take no lock: they see one complete file or the other.  A crash can
 * leave a stale "<path>.tmp.<pid>" behind; it is never read. */
#ifndef HB_AUTOTUNE_CACHE_H
#define HB_AUTOTUNE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/result/device_info.h"

typedef struct hb_autotune_key {
    char gpu_name[128];    /* e.g. "NVIDIA H200" */
    char gpu_id[96];       /* GPU UUID, or PCI bus id where no UUID */
    char driver[32];       /* driver version string */
    long cublaslt_version; /* cublasLtGetVersion() */
    char acc[8];           /* accumulator class: "fp32" | "fp16" */
    char layout[4];        /* "nn" | "tn" */
    uint64_t workspace_bytes;
    long m, n, k;
} hb_autotune_key;

typedef struct hb_autotune_entry {
    hb_autotune_key key;
    uint64_t algo[8];    /* cublasLtMatmulAlgo_t.data: cuBLASLt documents it as trivially serializable for the same library version */
    char algo_text[192]; /* human-readable description, e.g. "id=21 tile=128x256 stages=64x4 splitk=1 reduction=none swizzle=0 custom=0 cluster=2x1x1" (no tab or newline) */
    double median_us;    /* the winner's median time in the search, microseconds */
    int candidates;      /* algorithms timed in the search */
    double search_s;     /* wall time of the search, seconds */
    char created[32];    /* UTC time of the search, ISO 8601, e.g. 2026-11-21T10:00:00Z */
} hb_autotune_entry;

/* Looks `key` up in the cache file at `path`.  *found = 0 when the file does not
 * exist or has no valid line with this key; where a hand-edited file holds several,
 * the last one wins.  Lines that do not parse (wrong field count, bad number, bad
 * checksum, wrong format version) are skipped with one hb_warn per file naming
 * path:line and what is wrong; they never make the lookup fail.  A file that exists
 * but cannot be read is HB_ERR_IO. */
hb_status hb_autotune_cache_lookup(const char *path, const hb_autotune_key *key, hb_autotune_entry *out, int *found);

/* Adds `entry` to the cache at `path`, replacing any line with the same key (the
 * new line goes last); creates the file's parent folders (mkdir -p) if missing.
 * Safe against crashes and concurrent writers (see above).  Valid lines of other
 * keys are kept; invalid lines are dropped (with a warning).  Text fields that
 * contain a tab or newline, or fill their array without a terminating NUL, are
 * rejected with HB_ERR_INTERNAL and the file is left as it was.  I/O failure:
 * HB_ERR_IO with a message naming the path and strerror. */
hb_status hb_autotune_cache_store(const char *path, const hb_autotune_entry *entry);

/* Default cache path: $HGEMM_BENCH_CACHE_DIR/cublaslt-autotune.tsv if that
 * variable is set, else $XDG_CACHE_HOME/hgemm-bench/cublaslt-autotune.tsv, else
 * $HOME/.cache/hgemm-bench/cublaslt-autotune.tsv.  A variable set to the empty
 * string counts as unset (as the XDG spec says of XDG_CACHE_HOME).  HB_ERR_IO if
 * none of the variables is set or the result does not fit in `size` bytes. */
hb_status hb_autotune_cache_default_path(char *out, size_t size);

/* The key of one cuBLASLt problem on `device`: the one the autotune
 * baselines look up and store under, and the one the baselines' clean
 * reference checks its choices against (bench/driver/reference_pass.c). */
void hb_autotune_key_make(const hb_device_info *device, hb_acc_class acc, hb_b_layout layout, uint64_t workspace_bytes,
                          long m, long n, long k, hb_autotune_key *key);

/* 1 if two keys are equal in every field, else 0. */
int hb_autotune_key_equal(const hb_autotune_key *a, const hb_autotune_key *b);

#endif
