/* `hgemm-bench import FORMAT`: a format's published kernel files, unmodified,
 * into a candidate set (docs/importer.md).  The steps are the same for
 * every format; what they ask of one (bench/import/import_format.h: its
 * files' names, reading a file, its flags, shim and adapter) is its row of
 * bench/import/import_formats.c.  For each selected file: its text read by
 * the format (entry, tile sizes, kind, architecture-specific features), a
 * build keyed by content (source, flags, CUTLASS, nvcc, the importer's
 * data) done at most once, in parallel, into a cache; then the set's files written from the cache
 * (bench/import/candidate_files.h) and the build report
 * (bench/import/import_report.h).  A file that fails to build is listed,
 * never stops the import. */
#ifndef HB_IMPORT_RUN_H
#define HB_IMPORT_RUN_H

#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/import/import_format.h"
#include "bench/import/launch_recording.h"
#include "bench/import/toolchain.h"

typedef struct hb_import_options {
    const char *kernels_dir;   /* the set's folder of files (CUDA-L2: kernels/<gpu>_<class>/ of a clone) */
    const char *out_dir;       /* the set */
    const char *cutlass_dir;   /* --cutlass, or NULL */
    const char *cache_dir;     /* NULL: OUT/.cache */
    const char *nvcc;          /* --nvcc PATH; NULL: $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc */
    const char *report_name;   /* --report NAME: the report's file name in the set; NULL: import.csv */
    hb_target_arch arch;
    hb_recorder_device device; /* what the launch recorder describes */
    const hb_mnk *configs;     /* the selection; NULL: every M_N_K.cu in the folder */
    size_t n_configs;
    int jobs;                  /* builds at once; 0: min(cores, memory available / HB_BUILD_PEAK_BYTES) */
    int order_given;           /* 1: build in the set's order (--order given), else costliest first */
    int allow_arch_mismatch;   /* build Hopper-only files for another target, with a warning */
    int rebuild;               /* ignore the cache */
    int build_timeout_s;       /* per nvcc call */
    int (*interrupted)(void);  /* the signal that asked the import to stop, 0 if none; NULL: never asked */
} hb_import_options;

/* HB_OK when every selected file built (or came from the cache);
 * HB_ERR_BAD_INPUT after writing the set and its report when some failed
 * or were skipped; HB_ERR_BAD_INPUT / HB_ERR_USAGE before building when
 * the folder, CUTLASS or the toolchain is not usable. */
hb_status hb_import_run(const hb_import_format *format, const hb_import_options *options);

/* The inputs that need no GPU and no target, checked first: --kernels is a
 * folder whose name gives the format's accumulator class.  HB_ERR_BAD_INPUT
 * naming the folder otherwise. */
hb_status hb_import_check_inputs(const hb_import_format *format, const char *kernels_dir);

#endif
