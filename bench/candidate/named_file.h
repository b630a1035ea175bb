/* A file a manifest names (a cubin, a launcher's library), opened and its
 * first bytes read without a GPU, for the checks before the GPU
 * (bench/driver/preflight.c): what each kind of file must start with is for
 * bench/candidate/kernel_image.c and bench/candidate/library_image.c. */
#ifndef HB_NAMED_FILE_H
#define HB_NAMED_FILE_H

#include <stddef.h>

#include "bench/core/status.h"

#define HB_NAMED_FILE_HEAD 4096 /* bytes: enough to see a PTX file's .version past its comment header */

/* Reads up to `size` bytes from the start of `path` into `head`, their count
 * into *n.  HB_ERR_BAD_INPUT with a message "<what> <path> named by
 * <manifest_path>: ..." when the file cannot be opened (missing, a
 * symbolic-link loop, no permission: "was it built? run make" when missing),
 * is not a regular file, or cannot be read. */
hb_status hb_named_file_head(const char *path, const char *what, const char *manifest_path, unsigned char *head,
                             size_t size, size_t *n);

#endif
