/* Whether the files a manifest names can be kernel images, checked without a
 * GPU (bench/driver/preflight.c): each must exist, be a regular file this
 * process can read, and start as a cubin (an ELF file for the CUDA machine),
 * a fatbin or PTX text does (docs/candidates.md).  Whether the driver can
 * load it on this GPU is for the driver to say later (bench/candidate/cubin_kernel.c). */
#ifndef HB_KERNEL_IMAGE_H
#define HB_KERNEL_IMAGE_H

#include "bench/candidate/manifest.h"
#include "bench/core/status.h"

/* HB_ERR_BAD_INPUT with a message naming the file and the manifest when
 * `path` cannot be opened (missing, a symbolic-link loop, no permission), is
 * not a regular file, is empty, or is none of the three formats. */
hb_status hb_kernel_image_check(const char *path, const char *manifest_path);

/* Every file the manifest lists, for every architecture: kernel images for a
 * cubin manifest, shared libraries for a launcher's
 * (bench/candidate/library_image.h).  A manifest that names a file that is
 * not there is broken whichever GPU runs it. */
hb_status hb_manifest_check_images(const hb_manifest *manifest);

#endif
