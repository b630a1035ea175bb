/* The error of a result file that is not what it should be (exit 11,
 * HB_ERR_BAD_RESULTS): the message names the file, the line and, where one
 * is to blame, the column, so the user can open the file at that place. */
#ifndef HB_BAD_RESULTS_H
#define HB_BAD_RESULTS_H

#include <stddef.h>

#include "bench/core/diag.h"

/* "PATH:LINE: column C (NAME): message" (line 0: "PATH: message"; column 0:
 * no column part; name NULL: the number alone).  Returns HB_ERR_BAD_RESULTS. */
hb_status hb_bad_results_at(const char *source_file, int source_line, const char *path, size_t line, size_t column,
                            const char *column_name, const char *fmt, ...) HB_PRINTF(7, 8);

#define hb_bad_results(path, line, column, column_name, ...)                                                           \
    hb_bad_results_at(__FILE__, __LINE__, (path), (line), (column), (column_name), __VA_ARGS__)

#endif
