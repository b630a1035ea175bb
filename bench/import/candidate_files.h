/* An imported file's candidate in the set's folder (docs/importer.md):
 *
 *   SET/M_N_K.json          the launcher form's manifest (run, sweep and gate take SET)
 *   SET/cubin/M_N_K.json    the cubin form's manifest, where the file has one (take SET/cubin)
 *   SET/M_N_K/              launcher.so, kernel.cubin, recording.json, build.log, record.json
 *
 * record.json says where the candidate came from and how it was built: the
 * source's SHA-256, CUTLASS's version, the architecture, the flags, nvcc,
 * the forms that exist and why a form does not. */
#ifndef HB_CANDIDATE_FILES_H
#define HB_CANDIDATE_FILES_H

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/import/cutlass_locate.h"
#include "bench/import/import_item.h"
#include "bench/import/launch_recording.h"
#include "bench/import/toolchain.h"

#define HB_CUBIN_SET_FOLDER "cubin"

/* What every candidate of one import shares. */
typedef struct hb_import_context {
    const char *format_name;   /* "cuda-l2": the manifests' comment names it */
    const char *out_dir;
    char set_name[128];        /* the kernel folder's name: "h100_F32F16F16F32" */
    hb_acc_class accumulator;  /* from the folder name */
    hb_target_arch arch;
    const hb_toolchain *toolchain;
    const hb_cutlass *cutlass;
    hb_recorder_device device;
    char flags[1024];          /* the nvcc flags, space-separated, as recorded */
} hb_import_context;

/* Writes the candidate of a built item; HB_ERR_IO naming the file on failure. */
hb_status hb_candidate_files_write(const hb_import_context *ctx, const hb_import_item *item);

#endif
