#include "bench/report/profile_json.h"

#include "bench/report/json_values.h"

static json_t *kernel_object(const hb_kernel_profile *k)
{
    json_t *o = json_object();
    json_object_set_new(o, "participant", hb_json_text(k->participant));
    json_object_set_new(o, "kernel", hb_json_text(k->kernel));
    json_object_set_new(o, "grid", hb_json_text(k->grid));
    json_object_set_new(o, "block", hb_json_text(k->block));
    for (int m = 0; m < HB_N_PROFILE_METRICS; m++) {
        json_object_set_new(o, hb_profile_metrics[m].key, hb_json_number(k->value[m]));
    }
    return o;
}

json_t *hb_profile_json(const hb_profile_record *p)
{
    if (!p->ran)
        return json_null();
    json_t *o = json_object(), *kernels = json_array();
    json_object_set_new(o, "tool", json_string("ncu"));
    json_object_set_new(o, "version", p->version[0] ? hb_json_text(p->version) : json_null());
    json_object_set_new(o, "seconds", json_real(p->seconds));
    json_object_set_new(o, "missing", hb_json_text(p->missing));
    json_object_set_new(o, "kernels_not_kept", json_integer((json_int_t)p->dropped));
    for (size_t i = 0; i < p->count; i++)
        json_array_append_new(kernels, kernel_object(&p->kernels[i]));
    json_object_set_new(o, "kernels", kernels);
    return o;
}
