#include "bench/sweep/shard.h"

#include <errno.h>
#include <stdlib.h>

#include "bench/core/diag.h"

static int read_count(const char *start, char **end, unsigned long *out)
{
    if (*start < '0' || *start > '9')
        return 0;
    errno = 0;
    *out = strtoul(start, end, 10);
    return errno == 0 && *out <= HB_MAX_SHARDS;
}

hb_status hb_shard_parse(const char *text, hb_shard *out)
{
    unsigned long index, count;
    char *end = NULL;
    if (read_count(text, &end, &index) && *end == '/' && read_count(end + 1, &end, &count) && *end == '\0' &&
        count >= 1 && index < count) {
        *out = (hb_shard){index, count};
        return HB_OK;
    }
    return hb_fail(HB_ERR_USAGE, "--shard expects I/N with 0 <= I < N <= %d (Slurm: "
                   "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT with --array=0-(N-1)), got '%s'", HB_MAX_SHARDS, text);
}

int hb_shard_holds(const hb_shard *shard, size_t item)
{
    return item % shard->count == shard->index;
}

size_t hb_shard_size(const hb_shard *shard, size_t plan_items)
{
    return plan_items / shard->count + (shard->index < plan_items % shard->count);
}
