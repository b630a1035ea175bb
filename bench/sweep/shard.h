/* --shard I/N (docs/sweeps.md): the part of a plan one node of a cluster
 * runs.  Item i belongs to shard i mod N: a pure function of the item's
 * number, so every node computes the same parts, and consecutive items (the
 * two modes of one configuration, neighbouring sizes) spread over the
 * shards, which evens out their run times. */
#ifndef HB_SHARD_H
#define HB_SHARD_H

#include <stddef.h>

#include "bench/core/status.h"

typedef struct hb_shard {
    size_t index; /* I, 0 <= I < count */
    size_t count; /* N; 1 with index 0: the whole plan */
} hb_shard;

#define HB_MAX_SHARDS 100000

/* "I/N" with 0 <= I < N <= HB_MAX_SHARDS; HB_ERR_USAGE otherwise. */
hb_status hb_shard_parse(const char *text, hb_shard *out);

int hb_shard_holds(const hb_shard *shard, size_t item);

/* Items of the plan in the shard. */
size_t hb_shard_size(const hb_shard *shard, size_t plan_items);

#endif
