/* Seeded pseudo-random numbers for the host side (shuffled round order,
 * input seeds).  xoshiro256** seeded through splitmix64: the same --seed gives
 * the same schedule on every machine, so a run can be replayed. */
#ifndef HB_RNG_H
#define HB_RNG_H

#include <stdint.h>

typedef struct hb_rng {
    uint64_t s[4];
} hb_rng;

void hb_rng_seed(hb_rng *rng, uint64_t seed);
uint64_t hb_rng_next(hb_rng *rng);
/* Uniform integer in [0, bound), without modulo bias; bound > 0. */
uint64_t hb_rng_below(hb_rng *rng, uint64_t bound);
/* Uniform double in [0, 1). */
double hb_rng_uniform(hb_rng *rng);

#endif
