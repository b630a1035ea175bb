/* The "-max" figures (paper Table 1; docs/methodology.md): per configuration,
 * the faster of a baseline's NN and TN variants, the layout a user who can
 * choose would take.  "Faster" is the lower median CUDA-event time of the
 * baseline itself, so the choice does not depend on the candidate. */
#ifndef HB_MAX_ROWS_H
#define HB_MAX_ROWS_H

#include "bench/result/config_result.h"

/* Appends a row per -max pair whose NN and TN rows were both measured: a
 * copy of the faster variant's row, named e.g. "cublas-max", with max_of
 * naming the variant.  Rows already there are left alone. */
void hb_add_max_rows(hb_config_result *r);

#endif
