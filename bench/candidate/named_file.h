/* A file a manifest names (a cubin, a launcher's library), opened and read
 * without a GPU, for the checks before the GPU (bench/driver/preflight.c):
 * what each kind of file must hold is for bench/candidate/kernel_image.c
 * and bench/candidate/library_image.c.  Opened through
 * bench/core/input_file.h: only a regular file, so a FIFO in a candidate's
 * folder is refused at once instead of blocking the open. */
#ifndef HB_NAMED_FILE_H
#define HB_NAMED_FILE_H

#include <stddef.h>
#include <sys/types.h>

#include "bench/core/status.h"

#define HB_NAMED_FILE_HEAD 4096 /* bytes: enough to see a PTX file's .version past its comment header */

/* Opens `path`: *fd (close it) and *size, its length.  HB_ERR_BAD_INPUT with
 * a message "<what> <path> named by <manifest_path>: ..." when the file
 * cannot be opened (missing: "was it built? run make"; a symbolic-link
 * loop, no permission) or is not a regular file. */
hb_status hb_named_file_open(const char *path, const char *what, const char *manifest_path, int *fd, size_t *size);

/* Up to `size` bytes at `offset` of the open file into `out`, their count
 * into *n (fewer at its end).  HB_ERR_BAD_INPUT when the read fails. */
hb_status hb_named_file_read_at(int fd, const char *path, off_t offset, void *out, size_t size, size_t *n);

/* Opens `path` as hb_named_file_open does and reads up to `size` bytes from
 * its start into `head`, their count into *n, its length into *file_size. */
hb_status hb_named_file_head(const char *path, const char *what, const char *manifest_path, unsigned char *head,
                             size_t size, size_t *n, size_t *file_size);

#endif
