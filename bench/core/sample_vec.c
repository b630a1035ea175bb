#include "bench/core/sample_vec.h"

#include <math.h>
#include <stdlib.h>

#include "bench/core/diag.h"

hb_status hb_sample_vec_push(hb_sample_vec *vec, double value)
{
    if (vec->len == vec->cap) {
        size_t cap = vec->cap ? vec->cap * 2 : 1024;
        double *grown = realloc(vec->data, cap * sizeof *grown);
        if (!grown)
            return hb_fail(HB_ERR_INTERNAL, "out of host memory storing %zu samples", cap);
        vec->data = grown;
        vec->cap = cap;
    }
    vec->data[vec->len++] = value;
    return HB_OK;
}

hb_status hb_sample_vec_set(hb_sample_vec *vec, size_t index, double value)
{
    while (vec->len <= index)
        HB_TRY(hb_sample_vec_push(vec, NAN));
    vec->data[index] = value;
    return HB_OK;
}

void hb_sample_vec_clear(hb_sample_vec *vec) { vec->len = 0; }

void hb_sample_vec_truncate(hb_sample_vec *vec, size_t len)
{
    if (len < vec->len)
        vec->len = len;
}

void hb_sample_vec_free(hb_sample_vec *vec)
{
    free(vec->data);
    vec->data = NULL;
    vec->len = vec->cap = 0;
}
