/* The page a reviewer hands on (OUT/summary.md of `reproduce`,
 * docs/reproduce-cuda-l2.md): what was reproduced and how (the protocol),
 * the census of the set, the verdicts by check, the kernels failing the
 * paper's own rule, the audit beside the deviation verdicts, the speedups on
 * every timer, then the comparison with the published CSVs and the report's
 * tables as their commands wrote them, and the figures.  With two forms
 * (replay and launcher) the forms come side by side per configuration
 * first (bench/analysis/reproduction_forms.h), then each form's sections. */
#ifndef HB_REPRODUCTION_PAGE_H
#define HB_REPRODUCTION_PAGE_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/core/timing_policy.h"

#define HB_PAGE_MAX_STAGES 8
#define HB_PAGE_MAX_FORMS 2

/* A form's sweep and what was made of it, under out_dir. */
typedef struct hb_repro_page_form {
    const char *name;           /* "replay", "launcher" */
    const char *sweep_dir;
    const char *report;         /* its report's name under out_dir: "report" (folder), "report.md" (its page) */
    const char *compare_prefix; /* its comparisons' names: "compare-" + mode (folder), + ".md" */
    int compared[2];            /* 1: compare ran for that mode (modes[] below) */
} hb_repro_page_form;

typedef struct hb_repro_page_input {
    const char *out_dir;      /* the reproduction's folder: summary.md goes here */
    const char *set_name, *set_folder, *tuned_for, *acc;
    const char *repo;         /* the CUDA-L2 clone */
    const char *gpu_here;     /* this GPU's name ("" unknown) */
    const char *arch;         /* what the import built for */
    const char *plan_source;
    size_t n_configs, set_files, without_file;
    int configs_from_rows;    /* 1: n_configs counts what the sweep's rows hold (it has no plan.json) */
    const char *command_line;
    const char *set_dir;
    hb_repro_page_form forms[HB_PAGE_MAX_FORMS]; /* the first's sweep describes the protocol */
    size_t n_forms;
    hb_mode modes[2];
    char published[2][3200];
    size_t n_modes;
    const char *stage_names[HB_PAGE_MAX_STAGES];
    double stage_seconds[HB_PAGE_MAX_STAGES];
    size_t n_stages;
} hb_repro_page_input;

/* Writes OUT/summary.md (atomically: summary.md.tmp, then a rename).
 * HB_ERR_BAD_RESULTS when import.csv or summary.csv is not what it should
 * be, HB_ERR_IO when the page cannot be written. */
hb_status hb_repro_page_write(const hb_repro_page_input *in);

#endif
