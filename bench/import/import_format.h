/* An import format: a published family of kernel files the importer turns
 * into candidate sets (docs/importer.md), as the importer's generic steps
 * (bench/import/import_run.c: select, read, build, record, publish, report)
 * and `reproduce` (bench/driver/cmd_reproduce.c) ask of it.  Each format's
 * code is a folder, bench/import/<format>/, and a row of the one table,
 * bench/import/import_formats.c, that `import FORMAT` and `reproduce FORMAT`
 * look their operand up in (docs/architecture.md, "Adding an import
 * format").  Every field of a row is required: tests/test_import_formats.c
 * checks each row. */
#ifndef HB_IMPORT_FORMAT_H
#define HB_IMPORT_FORMAT_H

#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/import/toolchain.h"

/* What one file's text says, in the words import.csv and record.json use. */
typedef struct hb_file_facts {
    char entry[64];     /* the function the adapter calls ("cuda_l2_h100_fp32"); "" when the file defines none */
    long tile[3];       /* the tile sizes its authors pad M, N, K to; all 0: no padding */
    char kind[32];      /* the format's name for the file's kind ("one-kernel"); "" when it has no entry */
    char features[160]; /* the architecture-specific features it uses ("wgmma, TMA"), record.json's
                           hopper_features; "" for none */
} hb_file_facts;

/* What decides whether a file is built: the set's class and the target. */
typedef struct hb_file_rules {
    hb_acc_class accumulator; /* the set's, from its folder */
    hb_target_arch arch;
    int allow_arch_mismatch;  /* --allow-arch-mismatch */
} hb_file_rules;

/* A set the format's authors published, as `reproduce` names it. */
typedef struct hb_published_set {
    const char *name;        /* as --set takes it: "h100" */
    const char *folder;      /* its folder in a clone (also accepted by --set): "h100_F32F16F16F32" */
    const char *tuned_for;   /* the GPU it was tuned on: "H100" */
    const char *acc;         /* its accumulator class: "fp32" */
    int sm;                  /* that GPU's compute capability, 10*major + minor */
    const char *native_arch; /* the target its files are built for on that GPU: "sm_90a" */
} hb_published_set;

typedef struct hb_import_format {
    const char *name;        /* as `import` and `reproduce` take it: "cuda-l2" */
    const char *description; /* one line, for the list of formats */

    /* --- a set's files ------------------------------------------------------------- */
    const char *folder_hint; /* what --kernels names, for messages: "kernels/<gpu>_<class>/ of a CUDA-L2 clone" */
    const char *file_pattern; /* a file's name in messages: "M_N_K.cu" */
    /* The set's accumulator class from its folder's last part; HB_ERR_BAD_INPUT
     * naming the folder and what a right name is. */
    hb_status (*set_class)(const char *folder_name, hb_acc_class *acc);
    /* 1 and the configuration when `file_name` is a file of a set, else 0. */
    int (*config_of_file)(const char *file_name, hb_mnk *out);
    /* The name of the file of a configuration (the inverse). */
    void (*file_of_config)(hb_mnk mnk, char *out, size_t size);
    /* Reads the text of the file of `mnk` (`path` for messages): its facts
     * and the sizes the recorder calls it with (M, N, K padded as its
     * authors' harness pads them).  1: build it; 0: skip it, `why` saying
     * why (the facts read so far are kept for the report). */
    int (*read_file)(const char *text, const char *path, hb_mnk mnk, const hb_file_rules *rules,
                     hb_file_facts *facts, long padded[3], char *why, size_t why_size);

    /* --- one file into a candidate (bench/import/build_job.c) ---------------------- */
    const char *const *nvcc_flags; /* the format's own compile flags, in its order, NULL-terminated; the
                                      target's -gencode follows them */
    const char *cutlass_version;   /* the CUTLASS its files were written for: located (--cutlass) and added to
                                      the kernel's include path; another version is warned about */
    const char *kernels_noun;      /* "CUDA-L2's kernels", for messages */
    const char *shim;              /* a folder of the importer's data first on every compile's include path
                                      ("torch_shim"): what the files include in place of a framework */
    const char *adapter;           /* the importer's data file compiled once per import and linked with each
                                      file: it exports hgemm_launch (docs/launchers.md) and calls the entry */
    const char *adapter_entry_macro; /* the macro the adapter takes the file's entry name in: -D<macro>=<entry> */
    /* A file's build time in seconds on an idle core, as the format's model
     * has it from the file's text (`size` bytes) and what read_file said of
     * it: the order of the builds for files no earlier build predicts
     * (bench/import/build_plan.h), scaled by what earlier builds of other
     * files took. */
    double (*build_cost_s)(const char *text, size_t size, const hb_file_facts *facts);

    /* --- reproduce ------------------------------------------------------------------- */
    const char *repo_hint;   /* what --repo names: "a clone of CUDA-L2 (git clone ...)" */
    const hb_published_set *sets;
    size_t n_sets;
    /* A set's folder of files in a clone at `repo`. */
    void (*set_files_dir)(const char *repo, const hb_published_set *set, char *out, size_t size);
    /* The authors' published results of `set` in `mode` ("offline", "server") in the clone. */
    void (*published_results)(const char *repo, const hb_published_set *set, const char *mode, char *out,
                              size_t size);
} hb_import_format;

#endif
