#include "bench/result/participant_desc.h"

#include <stdio.h>

void hb_algo_text(const hb_algo_record *a, char *out, size_t size)
{
    snprintf(out, size, "id=%d tile=%s stages=%s splitk=%d reduction=%s swizzle=%u custom=%u inner=%s cluster=%s",
             a->id, a->tile, a->stages, a->splitk, a->reduction, a->swizzle, a->custom, a->inner, a->cluster);
}
