/* SHA-256 of what an imported candidate is built from (nettle's sha256):
 * the source file, the flags, every CUTLASS header, the shim and adapter,
 * the compiler's version.  Its hex digest names the build cache's entry
 * (bench/import/build_cache.h) and goes into the candidate's record. */
#ifndef HB_CONTENT_HASH_H
#define HB_CONTENT_HASH_H

#include <stddef.h>
#include <nettle/sha2.h>

#include "bench/core/file_digest.h" /* HB_SHA256_HEX, hb_sha256_file_hex */
#include "bench/core/status.h"

typedef struct hb_content_hash {
    struct sha256_ctx ctx;
} hb_content_hash;

void hb_content_hash_init(hb_content_hash *h);
void hb_content_hash_bytes(hb_content_hash *h, const void *data, size_t size);
/* A string and its terminating NUL, so "ab","c" and "a","bc" differ. */
void hb_content_hash_text(hb_content_hash *h, const char *text);
/* A file's bytes, preceded by its name relative to the tree being hashed. HB_ERR_IO naming it when unreadable. */
hb_status hb_content_hash_file(hb_content_hash *h, const char *path, const char *name);
/* Every regular file under `dir`, in name order, each with its path below
 * `dir`: the same tree gives the same digest wherever it lies. */
hb_status hb_content_hash_tree(hb_content_hash *h, const char *dir);
void hb_content_hash_hex(hb_content_hash *h, char hex[HB_SHA256_HEX]);

#endif
