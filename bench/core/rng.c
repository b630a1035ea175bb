#include "bench/core/rng.h"

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void hb_rng_seed(hb_rng *rng, uint64_t seed)
{
    uint64_t state = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&state);
}

uint64_t hb_rng_next(hb_rng *rng)
{
    uint64_t *s = rng->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t hb_rng_below(hb_rng *rng, uint64_t bound)
{
    /* Rejection sampling: drop the top partial bucket so every value in
     * [0, bound) has the same number of preimages. */
    const uint64_t limit = UINT64_MAX - (UINT64_MAX % bound);
    uint64_t x;
    do {
        x = hb_rng_next(rng);
    } while (x >= limit);
    return x % bound;
}

double hb_rng_uniform(hb_rng *rng)
{
    return (double)(hb_rng_next(rng) >> 11) * 0x1.0p-53; /* 53 random mantissa bits */
}
