/* One file of an import, from its selection to its candidate: what its
 * text says, the key of its build, and what came of it.  Plain data shared
 * by the import's steps (import_run.c, candidate_files.c,
 * import_report.c); what its text says is its format's reading
 * (bench/import/import_format.h). */
#ifndef HB_IMPORT_ITEM_H
#define HB_IMPORT_ITEM_H

#include "bench/candidate/manifest.h"
#include "bench/core/gemm_types.h"
#include "bench/import/build_job.h"
#include "bench/import/content_hash.h"
#include "bench/import/failure_class.h"
#include "bench/import/import_format.h"
#include "bench/import/launch_recording.h"
#include "bench/result/mma_audit.h"

typedef enum hb_item_state {
    HB_ITEM_SELECTED, /* not looked at yet */
    HB_ITEM_SKIPPED, /* not built: no file, not a file of the format, or refused for the architecture */
    HB_ITEM_CACHED,  /* its build is in the cache */
    HB_ITEM_BUILT,   /* built by this import */
    HB_ITEM_FAILED,  /* its build failed (this import or a cached outcome) */
    HB_ITEM_PENDING, /* to be built, or building: the report says so until it ends */
    HB_ITEM_UNFINISHED /* the import was interrupted before its build ended */
} hb_item_state;

const char *hb_item_state_name(hb_item_state state);

typedef struct hb_import_item {
    hb_mnk mnk;
    char name[64];                      /* "M_N_K" */
    char source[HB_PATH_MAX - 256];
    char source_sha256[HB_SHA256_HEX];
    hb_file_facts scan;                 /* what its text says (its format's read_file) */
    long padded[3];                     /* M, N, K rounded up to the tile sizes (the authors' padding) */
    size_t source_bytes;                /* the file's size */
    double model_s;                     /* its format's model of its build time (build_cost_s) */
    double predicted_s;                 /* the plan's prediction (bench/import/build_plan.h); 0: not built here */
    char key[HB_SHA256_HEX];            /* the build cache's key */
    char entry_dir[HB_PATH_MAX - 256];  /* the cache entry */
    hb_item_state state;
    char reason[640];                   /* why skipped or failed: the first error line */
    hb_build_outcome outcome;
    hb_launch_summary launches;
    hb_cubin_form cubin;
    hb_failure_class failure;           /* why its build failed, as a class (import.csv's failure_class) */
    char toolkit[128];                  /* nvcc --version's last line, of the toolkit that built it */
    int mma_audited;                    /* 1: its launcher library was audited (bench/import/sass_audit.h) */
    hb_mma_audit mma;                   /* its tensor-core instructions by accumulator */
} hb_import_item;

#endif
