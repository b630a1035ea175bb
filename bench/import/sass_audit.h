/* The accumulator audit of one file (docs/validation.md, "Accumulator
 * audit"): `cuobjdump -sass FILE` on a cubin or a launcher library (its
 * embedded fatbin), read by bench/result/mma_audit.h.  A file-level
 * analysis, on the CPU: the importer runs it on each built file and the
 * driver on each candidate's file, before or without a GPU.  The result is
 * cached in a folder of the harness's own (never beside a candidate's file,
 * which its author could forge), under the SHA-256 of the file's bytes.
 * Never an error: without cuobjdump, or when it fails, the audit is unknown
 * and a note (once per process on stderr) says why. */
#ifndef HB_SASS_AUDIT_H
#define HB_SASS_AUDIT_H

#include <stddef.h>

#include "bench/result/mma_audit.h"

/* Where the audit looks for cuobjdump, in order: $HB_CUOBJDUMP, then beside
 * nvcc as the importer finds it (bench/import/toolchain.h: $CUDA_HOME/bin,
 * /usr/local/cuda/bin), then PATH.  1 and the path, or 0. */
int hb_cuobjdump_find(char *path, size_t size);

/* Audits `file` into *out.  `cache_dir` (NULL: none) is the folder whose
 * "mma-<sha256 of the file>.txt" holds an earlier audit of the same bytes;
 * it is read, and written when missing (a folder that cannot be written is
 * no error).  `note` (may be NULL) gets why the audit is unknown, "" when known. */
void hb_sass_audit_file(const char *file, const char *cache_dir, hb_mma_audit *out, char *note, size_t note_size);

#endif
