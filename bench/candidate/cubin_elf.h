/* Reads a cubin's ELF for what the module can keep from one call to the
 * next (bench/result/module_state.h): the size of its writable module-scope
 * device memory and whether it calls a device-heap allocator.  Plain file
 * reading with <elf.h>: no CUDA, no GPU, so it is testable anywhere. */
#ifndef HB_CUBIN_ELF_H
#define HB_CUBIN_ELF_H

#include "bench/core/status.h"
#include "bench/result/module_state.h"

/* Fills `out` from the cubin at `path` (out->scanned = 1 on success).
 * HB_ERR_UNSUPPORTED when the file is not an ELF file at all (a fatbin or
 * PTX: cuModuleLoad takes those, but their module state cannot be read here);
 * HB_ERR_BAD_INPUT when it cannot be read, is not a CUDA ELF64 file, or is
 * truncated or inconsistent.  Each with a message naming the file and what
 * is wrong. */
hb_status hb_cubin_module_state(const char *path, hb_module_state *out);

/* Whether the cubin at `path` is whole, for the checks before the GPU
 * (bench/candidate/kernel_image.c): a CUDA ELF64 file whose header,
 * program and section tables, segments and sections all lie in the file (a
 * cubin cut short anywhere fails: its tables come last).  HB_ERR_BAD_INPUT
 * naming `label` ("cubin x named by m.json"; NULL: the path) and what is
 * wrong; HB_ERR_UNSUPPORTED as hb_cubin_module_state for a file that is not
 * ELF at all. */
hb_status hb_cubin_elf_check(const char *path, const char *label);

/* Whether the cubin image `data` (`size` bytes, in memory: a module as the
 * launch recorder copied it, bench/trace/launch_recorder.h) defines the
 * kernel `name` (mangled): a function symbol of that name with a section of
 * its own, in .symtab or its sm_100 mirror.  *defines 1 or 0;
 * HB_ERR_UNSUPPORTED when the image is not ELF, HB_ERR_BAD_INPUT when it is
 * corrupt, each naming `label`. */
hb_status hb_cubin_defines_function(const void *data, size_t size, const char *label, const char *name,
                                    int *defines);

#endif
