/* The SHA-256 of a file's bytes (nettle's sha256), in hex as sha256sum
 * prints it: how the harness recognises a file it wrote itself (a report's
 * manifest, bench/analysis/output_folder.h) and names what it imported. */
#ifndef HB_FILE_DIGEST_H
#define HB_FILE_DIGEST_H

#include <stddef.h>

#include "bench/core/status.h"

#define HB_SHA256_HEX 65 /* 64 hex digits and the NUL */

/* A 32-byte SHA-256 digest in hex. */
void hb_sha256_digest_hex(const unsigned char *digest, char hex[HB_SHA256_HEX]);

/* The digest of everything readable from `fd` (read to its end). */
hb_status hb_sha256_fd_hex(int fd, const char *label, char hex[HB_SHA256_HEX]);

/* The digest of the file at `path`; HB_ERR_IO naming it when unreadable. */
hb_status hb_sha256_file_hex(const char *path, char hex[HB_SHA256_HEX]);

#endif
