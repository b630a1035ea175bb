#include "bench/core/array_room.h"

#include <stdlib.h>

int hb_array_room(void **items, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 1;
    size_t more = *cap ? *cap * 2 : 256;
    void *bigger = realloc(*items, more * size);
    if (!bigger)
        return 0;
    *items = bigger;
    *cap = more;
    return 1;
}
