/* Table 3's bins of problem size (docs/reports.md, "Table 3"): three ways
 * of measuring a configuration's size, each with fixed bin edges.  A bin is
 * [lower edge, upper edge); the first is open below, the last above, so
 * every size has a bin.  One table in size_bins.c declares them. */
#ifndef HB_SIZE_BINS_H
#define HB_SIZE_BINS_H

#include <stddef.h>

#define HB_MAX_BIN_EDGES 12

typedef struct hb_size_binning {
    const char *name;                   /* "log2(MNK)" */
    double (*measure)(long m, long n, long k);
    double edges[HB_MAX_BIN_EDGES];     /* ascending */
    size_t n_edges;                     /* bins: n_edges + 1 */
} hb_size_binning;

size_t hb_size_binning_count(void);
const hb_size_binning *hb_size_binning_at(size_t index);

/* The bin of a configuration, 0 .. n_edges. */
size_t hb_size_bin_of(const hb_size_binning *binning, long m, long n, long k);
/* "<21", "[21,24)", ">=39" */
void hb_size_bin_label(const hb_size_binning *binning, size_t bin, char *out, size_t size);

#endif
