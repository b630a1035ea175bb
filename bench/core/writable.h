/* Whether a run's outputs can be written, asked before the run starts
 * (bench/driver/preflight.c), so that a results folder under /proc or a
 * verdict file in a folder that does not exist fails the run in a moment,
 * not after an hour of measuring.  Both checks do what the run will do
 * later (create a folder, create a file beside the target) on a probe that
 * is removed at once: they leave nothing behind and never touch an existing
 * file's contents. */
#ifndef HB_WRITABLE_H
#define HB_WRITABLE_H

#include "bench/core/status.h"

/* `path` is a folder, or can be created as one (mkdir -p): its nearest
 * existing ancestor is a folder in which a folder can be created.
 * HB_ERR_IO with a message naming `what` and the path otherwise. */
hb_status hb_check_folder_creatable(const char *path, const char *what);

/* `path` can be written atomically (a temporary beside it, then a rename): its folder
 * exists and a file can be created in it, and `path` is not a folder or
 * another non-regular file.  HB_ERR_IO with a message otherwise. */
hb_status hb_check_file_writable(const char *path, const char *what);

#endif
