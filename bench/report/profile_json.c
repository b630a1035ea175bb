#include "bench/report/profile_json.h"

#include <math.h>
#include <stdio.h>

/* A string that is not UTF-8 (a kernel name cut mid-character) as '?', never a missing key. */
static json_t *text(const char *value)
{
    json_t *s = json_string(value);
    if (s)
        return s;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", value);
    for (char *c = copy; *c; c++)
        if ((unsigned char)*c >= 0x80)
            *c = '?';
    return json_string(copy);
}

static json_t *kernel_object(const hb_kernel_profile *k)
{
    json_t *o = json_object();
    json_object_set_new(o, "participant", text(k->participant));
    json_object_set_new(o, "kernel", text(k->kernel));
    json_object_set_new(o, "grid", text(k->grid));
    json_object_set_new(o, "block", text(k->block));
    for (int m = 0; m < HB_N_PROFILE_METRICS; m++) {
        double v = k->value[m];
        json_object_set_new(o, hb_profile_metrics[m].key, isnan(v) || isinf(v) ? json_null() : json_real(v));
    }
    return o;
}

json_t *hb_profile_json(const hb_profile_record *p)
{
    if (!p->ran)
        return json_null();
    json_t *o = json_object(), *kernels = json_array();
    json_object_set_new(o, "tool", json_string("ncu"));
    json_object_set_new(o, "version", p->version[0] ? text(p->version) : json_null());
    json_object_set_new(o, "seconds", json_real(p->seconds));
    json_object_set_new(o, "missing", text(p->missing));
    json_object_set_new(o, "kernels_not_kept", json_integer((json_int_t)p->dropped));
    for (size_t i = 0; i < p->count; i++)
        json_array_append_new(kernels, kernel_object(&p->kernels[i]));
    json_object_set_new(o, "kernels", kernels);
    return o;
}
