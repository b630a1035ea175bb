#include "bench/result/reference_record.h"

#include <stdio.h>

const char *hb_ref_source_name(hb_ref_source source)
{
    switch (source) {
    case HB_REF_NONE: return "none";
    case HB_REF_OFF: return "off";
    case HB_REF_MEASURED: return "measured";
    case HB_REF_CACHED: return "cached";
    }
    return "none";
}

void hb_reference_cell(const hb_reference_record *r, char *out, size_t size)
{
    if (r->source == HB_REF_NONE && r->why[0])
        snprintf(out, size, "none (%s)", r->why);
    else
        snprintf(out, size, "%s", hb_ref_source_name(r->source));
}
