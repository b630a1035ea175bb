/* CUDA-L2's published speedup files (eval_results/..._speedup_offline.csv and
 * ..._server.csv) read back: the header exactly
 * mnk,torch.matmul,cuBLAS-tn,cuBLAS-nn,cuBLAS-max,cuBLASLt-heuristic-tn,...,
 * cuBLASLt-auto-tuning-max (from the baseline registry's published names,
 * bench/analysis/speedup_columns.h), then a row per configuration: M_N_K and
 * t_base/t_cand per column.  The report writes the same layout (its
 * speedup_<mode> tables); `compare` reads both. */
#ifndef HB_PUBLISHED_LAYOUT_H
#define HB_PUBLISHED_LAYOUT_H

#include <stddef.h>

#include "bench/analysis/speedup_columns.h"
#include "bench/core/status.h"

typedef struct hb_published_row {
    long m, n, k;
    double ratio[HB_MAX_SPEEDUP_COLUMNS]; /* by speedup column; NaN: an empty field */
    size_t line;
} hb_published_row;

typedef struct hb_published_table {
    hb_published_row *rows; /* sorted by M, N, K once read */
    size_t count, capacity;
} hb_published_table;

/* The header line the layout has, without its newline. */
const char *hb_published_header(void);

/* Reads `path`.  HB_ERR_BAD_RESULTS, naming file, line and column, for
 * another header, a size that is not M_N_K, a field that is not a positive
 * number (or empty), a short or long row, or a size given twice. */
hb_status hb_read_published(const char *path, hb_published_table *out);

/* `path` is there, a regular file of a size such a file can have, and opens
 * for reading: asked before anything is asked of what it holds (the mode its
 * name says), so that a wrong path is named as one.  HB_ERR_BAD_RESULTS
 * otherwise, as hb_read_published would say, naming --published. */
hb_status hb_published_check_file(const char *path);
void hb_published_free(hb_published_table *table);

/* The row of M, N, K, or NULL. */
const hb_published_row *hb_published_find(const hb_published_table *table, long m, long n, long k);

#endif
