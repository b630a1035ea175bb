/* Round order: every round runs each participant once, in a freshly
 * shuffled order, so no participant always runs first (after the idle host
 * work between rounds) or always follows the same neighbour. */
#ifndef HB_SHUFFLE_H
#define HB_SHUFFLE_H

#include <stddef.h>

#include "bench/core/rng.h"

/* Fisher-Yates: fills order[0..n) with a uniformly random permutation of 0..n-1. */
void hb_shuffle_order(hb_rng *rng, size_t *order, size_t n);

#endif
