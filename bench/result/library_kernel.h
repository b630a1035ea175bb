/* Whether a kernel is the vendor library's (docs/trace.md, "library-kernel"):
 * a candidate that is a cuBLAS or cuBLASLt call is honest, but a reader of
 * "faster than cuBLAS" must be told that its kernel is cuBLAS's.  A kernel
 * is the library's when a baseline of the same process ran a kernel of the
 * same name (the strongest sign: the same module), or when its name belongs
 * to one of the families cuBLAS and cuBLASLt ship (the table in
 * library_kernel.c).  By name only: CUPTI's kernel records do not say which
 * module a kernel came from.  Plain data, no CUDA. */
#ifndef HB_LIBRARY_KERNEL_H
#define HB_LIBRARY_KERNEL_H

#include <stddef.h>

#include "bench/result/call_trace.h"

#define HB_LIBRARY_NAMES 64 /* kernel names the baselines ran, kept (more are rare: one or two per baseline) */

typedef struct hb_library_names {
    size_t n;
    char name[HB_LIBRARY_NAMES][HB_TRACE_KERNEL_NAME];
} hb_library_names;

/* Adds a kernel name a baseline ran (once; beyond HB_LIBRARY_NAMES, dropped). */
void hb_library_names_add(hb_library_names *names, const char *kernel_name);

/* The family `kernel_name` (mangled, as CUPTI gives it) belongs to
 * ("nvjet", "xmma", "cublasLt", ...), or NULL when none. */
const char *hb_library_family(const char *kernel_name);

/* 1 when `kernel_name` is the library's: in `baselines` (may be NULL) or of a family. */
int hb_is_library_kernel(const char *kernel_name, const hb_library_names *baselines);

#endif
