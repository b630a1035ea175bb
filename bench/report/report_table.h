/* The readable table on stdout, one block per configuration. */
#ifndef HB_REPORT_TABLE_H
#define HB_REPORT_TABLE_H

#include <stdio.h>

#include "bench/report/sink.h"
#include "bench/result/config_result.h"

void hb_report_config(FILE *out, const hb_config_result *result);

/* A sink that prints each configuration's block to `out` as it finishes, and
 * the run's verdict line ("verdict: NAME (exit N): reason") at the end. */
hb_sink hb_table_sink(FILE *out);

#endif
