/* Every page of code the process runs, checked (docs/methodology.md, "Every
 * page of code checked").  A launcher's host code runs in the process that
 * times it and can rewrite code below the entry points the harness checks
 * (bench/gpu/entry_points.h): libcuda's cuEventRecord, a baseline's launch
 * inside libcublasLt.  So, before any candidate code loads,
 * hb_code_pages_seal() takes every executable mapping of the process (the
 * harness, the CUDA libraries, libc, ld.so, [vdso], any other) and keeps
 * its identity (range, protection, file, offset) and a keyed hash of each
 * of its pages, on pages made read-only.  hb_code_pages_verify() then finds,
 * in this order:
 *   - a sealed range unmapped, mapped over by something else, or given
 *     another protection (made writable, made non-executable);
 *   - a page of a private file mapping (or of [vdso]) written since the
 *     seal: the kernel copied it on write, so it is no longer the file's
 *     page (/proc/self/pagemap), even when its bytes were put back;
 *   - a page whose bytes differ from the seal's.
 * Executable mappings that appear after the seal (the candidate's own
 * library and what it loads) are not checked; one that lies over a sealed
 * range is a mapping over it.
 *
 * The hash is XXH3-128 keyed with a secret drawn from getrandom() at the
 * seal: fast enough to run over the ~500 MB of code a process with cuBLASLt
 * holds several times per configuration, but not collision resistant
 * against code that reads the secret (it lies in this process's memory);
 * the pagemap check does not rely on it. */
#ifndef HB_CODE_PAGES_H
#define HB_CODE_PAGES_H

#include <stddef.h>

#include "bench/core/status.h"

typedef struct hb_code_pages hb_code_pages;

/* What the seal and the checks cost, for the results. */
typedef struct hb_code_pages_cost {
    size_t ranges;   /* executable mappings sealed */
    size_t bytes;    /* their bytes: every one hashed at the seal and at every check */
    double seal_ms;  /* the seal: the map read, every page hashed, the table protected */
    double check_ms; /* every check, summed */
    unsigned checks; /* hb_code_pages_verify calls */
} hb_code_pages_cost;

/* Seals the executable mappings present now into *out.  HB_ERR_INTERNAL
 * when the maps or pagemap cannot be read, or memory for the table cannot
 * be mapped or protected; *out is then NULL. */
hb_status hb_code_pages_seal(hb_code_pages **out);

/* What changed since the seal, in `what`: one line naming the library, the
 * page (its offset in the file) and the nearest symbol; *changed 0 when
 * nothing did (`what` then ""). HB_ERR_INTERNAL when the maps or pagemap
 * cannot be read. */
hb_status hb_code_pages_verify(hb_code_pages *sealed, int *changed, char *what, size_t what_size);

/* Zero for NULL (nothing sealed). */
hb_code_pages_cost hb_code_pages_cost_of(const hb_code_pages *sealed);

/* Where the sealed table lies (the tests check it is read-only). */
const void *hb_code_pages_table(const hb_code_pages *sealed);

void hb_code_pages_free(hb_code_pages *sealed);

#endif
