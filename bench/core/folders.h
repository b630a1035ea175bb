/* Folders made on demand (`mkdir -p`): the results folder, the autotune
 * cache's folder. */
#ifndef HB_FOLDERS_H
#define HB_FOLDERS_H

#include <stddef.h>

#include "bench/core/status.h"

/* Creates `path` and every missing folder above it.  HB_ERR_IO with a message
 * naming `what` ("results folder", ...) and the path when a component cannot
 * be created, the path is too long, or it exists and is not a folder. */
hb_status hb_make_folders(const char *path, const char *what);

/* The folder part of `path` into `out`: "." for a bare name, "/" for a
 * name at the root. */
void hb_folder_of(const char *path, char *out, size_t size);

/* 1 if `path` is a folder (or a link to one). */
int hb_is_folder(const char *path);

#endif
