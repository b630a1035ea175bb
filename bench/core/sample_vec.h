/* A growable array of samples (times in milliseconds, ratios, ...). */
#ifndef HB_SAMPLE_VEC_H
#define HB_SAMPLE_VEC_H

#include <stddef.h>

#include "bench/core/status.h"

typedef struct hb_sample_vec {
    double *data;
    size_t len;
    size_t cap;
} hb_sample_vec;

hb_status hb_sample_vec_push(hb_sample_vec *vec, double value);
/* Sets element `index`, growing the vector with NaN up to it. */
hb_status hb_sample_vec_set(hb_sample_vec *vec, size_t index, double value);
void hb_sample_vec_clear(hb_sample_vec *vec);
/* Keeps the first `len` samples (all of them when there are fewer). */
void hb_sample_vec_truncate(hb_sample_vec *vec, size_t len);
void hb_sample_vec_free(hb_sample_vec *vec);

#endif
