/* Whether a launcher manifest's library can be a shared library this process
 * can load, checked without a GPU (bench/driver/preflight.c): it must exist,
 * be a regular file this process can read, and be an ELF shared object for
 * this machine (docs/launchers.md).  Whether its symbols and ABI version are
 * right is for the loader to say (bench/candidate/launcher_library.c). */
#ifndef HB_LIBRARY_IMAGE_H
#define HB_LIBRARY_IMAGE_H

#include "bench/core/status.h"

/* HB_ERR_BAD_INPUT with a message naming the file and the manifest when
 * `path` cannot be opened or read, is empty, is not an ELF file, is a cubin,
 * is built for another machine or word size, or is an executable or an
 * object file rather than a shared library. */
hb_status hb_library_image_check(const char *path, const char *manifest_path);

#endif
