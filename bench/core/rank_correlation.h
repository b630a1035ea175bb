/* Spearman's rank correlation: how well two measurements of the same
 * configurations agree on their order (which are fast, which are slow),
 * whatever their scales.  `compare` uses it per baseline column, ours
 * against a published table (docs/reports.md). */
#ifndef HB_RANK_CORRELATION_H
#define HB_RANK_CORRELATION_H

#include <stddef.h>

#include "bench/core/status.h"

/* The ranks of x[0..n) (1 = smallest) into rank[0..n); tied values share the
 * average of the ranks they span, so ties neither help nor hurt. */
hb_status hb_average_ranks(const double *x, size_t n, double *rank);

/* Spearman's rho of the pairs (x[i], y[i]): the Pearson correlation of their
 * average ranks, in [-1, 1].  NaN when it is undefined: fewer than 2 pairs,
 * or either side all ties. */
hb_status hb_spearman(const double *x, const double *y, size_t n, double *rho);

#endif
