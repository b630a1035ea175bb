/* The flags of `import cuda-l2` (bench/driver/cmd_import.c): its own rows
 * and the build flags that reproduce passes on to it. */
#include <string.h>

#include "bench/core/diag.h"
#include "bench/driver/command_options.h"
#include "bench/driver/option_values.h"

/* A file name in the set, not a path: "import-shard-0-of-4.csv". */
static hb_status parse_report_name(const hb_option_row *o, const char *text, hb_run_options *run)
{
    size_t n = strlen(text);
    if (!*text || strchr(text, '/') || !strcmp(text, ".") || !strcmp(text, "..") || n < 5 ||
        strcmp(text + n - 4, ".csv"))
        return hb_fail(HB_ERR_USAGE, "--%s expects a file name ending in .csv (no folder), got '%s'", o->flag, text);
    return hb_opt_parse_text(o, text, run);
}

/* "cost" (costliest first, the default) or "given" (the set's order). */
static hb_status parse_order(const hb_option_row *o, const char *text, hb_run_options *run)
{
    if (strcmp(text, "cost") != 0 && strcmp(text, "given") != 0)
        return hb_fail(HB_ERR_USAGE, "--%s expects cost (the costliest builds first) or given (the set's order), "
                       "got '%s'", o->flag, text);
    return hb_opt_parse_text(o, text, run);
}

static const hb_option_row import_rows[] = {
    {.flag = "kernels", .value = "DIR", .section = HB_SECTION_INPUT, HB_OPT_TEXT,
     HB_OPTION_FIELD(import.kernels_dir),
     .help = "the set's folder in a CUDA-L2 clone: kernels/<gpu>_<class>/ (required)", .doc_default = "required",
     .doc = "the set's folder in a CUDA-L2 clone, `kernels/<gpu>_<class>/`; its name gives the accumulator class"},
    {.flag = "out", .value = "SET", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(import.out_dir),
     .help = "the candidate set to write (required): SET/M_N_K.json, SET/cubin/, SET/import.csv",
     .doc_default = "required",
     .doc = "the candidate set: `SET/M_N_K.json` (launcher forms), `SET/cubin/M_N_K.json` (cubin forms), "
            "`SET/import.csv`"},
    /* The importer times nothing and draws no inputs: the seed draws --sample alone. */
    {.flag = "seed", .value = "N", .section = HB_SECTION_PLAN, HB_OPT_SEED, .shown_default = "0",
     .help = "seed of --sample's draw of the files to build",
     .doc = "seeds `--sample`'s draw of the files to build, and nothing else (the import times nothing); a sweep's "
            "default is 20251201, so `--seed 20251201` builds the files a sweep of the same plan and `--sample` "
            "runs"},
    {.flag = "report", .value = "NAME", .section = HB_SECTION_INPUT, .parse = parse_report_name,
     .format = hb_opt_format_text, HB_OPTION_FIELD(import.report_name),
     .help = "the build report's file name in SET (default import.csv): the shards of one reproduction import into "
             "one set, each with a report of its own",
     .doc_default = "`import.csv`",
     .doc = "the build report's file name in SET (a name ending in `.csv`, no folder): the shards of one "
            "`reproduce` import into one set, each writing `import-shard-I-of-N.csv`"},
};
static const hb_option_group import_options = HB_OPTION_GROUP(import_rows);

static const hb_option_row build_rows[] = {
    {.flag = "cutlass", .value = "DIR", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(import.cutlass_dir),
     .help = "a CUTLASS checkout (v4.2.1 for CUDA-L2); default: $CUTLASS_DIR, else a pip-installed nvidia-cutlass",
     .doc_default = "`$CUTLASS_DIR`, else pip's `nvidia-cutlass`",
     .doc = "a CUTLASS checkout (v4.2.1 for CUDA-L2; another version is warned about)"},
    {.flag = "arch", .value = "SM", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(import.arch),
     .help = "the target: sm_80, sm_86, sm_90a, ... (default: this GPU's, sm_90a on Hopper)",
     .doc_default = "this GPU's (`sm_90a` on Hopper)",
     .doc = "the target: `sm_80`, `sm_86`, `sm_90a`, ...; without a GPU it is required (but by `reproduce --dry-run`, "
            "which prints the set's own target)"},
    {.flag = "jobs", .value = "N", .short_name = 'j', .section = HB_SECTION_INPUT, HB_OPT_COUNT(1, 1024),
     HB_OPTION_FIELD(import.jobs),
     .help = "builds at once; also -j N (default: the cores this process may use, at most one per 8 GiB of memory "
             "available)",
     .doc_default = "min(cores, available memory / 8 GiB)",
     .doc = "builds at once; also `-j N`. By default one per core of the process's CPU affinity, at most as many as "
            "the memory available holds at a CUTLASS build's peak (8 GiB)"},
    {.flag = "order", .value = "HOW", .section = HB_SECTION_INPUT, .parse = parse_order,
     .format = hb_opt_format_text, HB_OPTION_FIELD(import.order),
     .help = "the order builds start in: cost (the costliest predicted first, from earlier builds and the file's kind "
             "and size) or given (the set's order)",
     .doc_default = "`cost`",
     .doc = "the order the builds start in: `cost`, the costliest predicted first (from the cache's build history, "
            "else the file's kind and size), or `given`, the set's order (M, N, K)"},
    {.flag = "cache", .value = "DIR", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(import.cache_dir),
     .help = "the build cache, keyed by content (default: SET/.cache)", .doc_default = "`SET/.cache`",
     .doc = "the build cache, keyed by the content of what a build is made from"},
    {.flag = "nvcc", .value = "PATH", .section = HB_SECTION_INPUT, HB_OPT_TEXT, HB_OPTION_FIELD(import.nvcc),
     .help = "the nvcc to build with, e.g. another installed toolkit's for files written for it (default: "
             "$CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc)",
     .doc_default = "`$CUDA_HOME/bin/nvcc`, else `/usr/local/cuda/bin/nvcc`",
     .doc = "the nvcc to build with: another installed toolkit's, for files written for it (docs/importer.md, "
            "\"Toolkits\"); recorded in `record.json` and `import.csv`"},
    {.flag = "rebuild", .section = HB_SECTION_INPUT, HB_OPT_SWITCH(1), HB_OPTION_FIELD(import.rebuild),
     .help = "build every selected file again, whatever the cache holds", .doc = "build every selected file again"},
    {.flag = "allow-arch-mismatch", .section = HB_SECTION_INPUT, HB_OPT_SWITCH(1),
     HB_OPTION_FIELD(import.allow_arch_mismatch),
     .help = "build files that use Hopper-only features for a target other than sm_90a, with a warning (default: "
             "refuse them)",
     .doc = "build files with Hopper-only features for a target other than sm_90a (warned), instead of refusing "
            "them"},
    {.flag = "build-timeout", .value = "S", .section = HB_SECTION_INPUT, .fallback = "1800", HB_OPT_SECONDS(1, 86400),
     HB_OPTION_FIELD(import.build_timeout_s),
     .help = "seconds one nvcc call may take; a file past it is listed as failed (timeout) and built again by the "
             "next import",
     .doc = "seconds one nvcc call may take; a file that takes longer is listed as failed (`failure_class` "
            "`timeout`) and built again by the next import"},
};
const hb_option_group hb_build_options = HB_OPTION_GROUP(build_rows);

const hb_option_group *const hb_import_option_list[] = {&import_options, &hb_mnk_options, &hb_plan_options,
                                                        &hb_build_options, &hb_common_options, NULL};
