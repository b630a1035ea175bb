/* A whole file read into memory, NUL-terminated (a journal, a summary.csv
 * being merged). */
#ifndef HB_WHOLE_FILE_H
#define HB_WHOLE_FILE_H

#include <stddef.h>

#include "bench/core/status.h"

/* *text is malloc'd (free it) and NUL-terminated, *size its length.  A
 * missing file is HB_OK with *text NULL when missing_ok; any other failure
 * is `failure`, with a message naming the file. */
hb_status hb_read_whole_file(const char *path, int missing_ok, hb_status failure, char **text, size_t *size);

#endif
