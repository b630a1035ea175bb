/* The readable table on stdout, one block per configuration. */
#ifndef HB_REPORT_TABLE_H
#define HB_REPORT_TABLE_H

#include <stdio.h>

#include "config_result.h"

void hb_report_config(FILE *out, const hb_config_result *result);

#endif
