#include "bench/import/cuda_l2/cuda_l2_format.h"

#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/import/cuda_l2/l2_build_cost.h"
#include "bench/import/cuda_l2/l2_source.h"

const char *const hb_cuda_l2_nvcc_flags[] = {
    "-O3", "-std=c++17",
    "-U__CUDA_NO_HALF_OPERATORS__", "-U__CUDA_NO_HALF_CONVERSIONS__", "-U__CUDA_NO_HALF2_OPERATORS__",
    "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
    "--expt-relaxed-constexpr", "--expt-extended-lambda", "--use_fast_math",
    "-diag-suppress", "177",
    "-DNO_MMA_HGEMM_BIN", "-DNO_WMMA_HGEMM_BIN", "-DNO_CUTE_HGEMM_BIN", "-DNO_CUBLAS_HGEMM_BIN",
    "-Xcompiler", "-fPIC",
    NULL,
};

/* CUDA-L2's kernel sets: the folder under kernels/, the GPU it was tuned on,
 * its accumulator class, and the architecture its files target on that GPU. */
static const hb_published_set l2_sets[] = {
    {"h100", "h100_F32F16F16F32", "H100", "fp32", 90, "sm_90a"},
    {"a100-fp32", "a100_F32F16F16F32", "A100", "fp32", 80, "sm_80"},
    {"a100-fp16", "a100_F16F16F16F16", "A100", "fp16", 80, "sm_80"},
    {"3090", "3090_F32F16F16F32", "RTX 3090", "fp32", 86, "sm_86"},
};

/* "h100_F32F16F16F32" -> fp32, "a100_F16F16F16F16" -> fp16. */
static hb_status set_class(const char *folder_name, hb_acc_class *acc)
{
    if (strstr(folder_name, "F32F16F16F32"))
        *acc = HB_ACC_FP32;
    else if (strstr(folder_name, "F16F16F16F16"))
        *acc = HB_ACC_FP16;
    else
        return hb_fail(HB_ERR_BAD_INPUT,
                       "--kernels %s: the folder's name gives CUDA-L2's accumulator class (..._F32F16F16F32 for fp32, "
                       "..._F16F16F16F16 for fp16); name one of kernels/<gpu>_<class>/",
                       folder_name);
    return HB_OK;
}

/* "4096_1024_64.cu" -> its configuration; 0 for any other name. */
static int config_of_file(const char *name, hb_mnk *out)
{
    long m, n, k;
    int used = 0;
    if (sscanf(name, "%ld_%ld_%ld.cu%n", &m, &n, &k, &used) != 3 || used == 0 || name[used] != '\0' || m < 1 ||
        n < 1 || k < 1)
        return 0;
    *out = (hb_mnk){m, n, k};
    return 1;
}

static void file_of_config(hb_mnk mnk, char *out, size_t size)
{
    snprintf(out, size, "%ld_%ld_%ld.cu", mnk.m, mnk.n, mnk.k);
}

static int entry_matches_class(const char *entry, hb_acc_class acc)
{
    const char *suffix = acc == HB_ACC_FP32 ? "_fp32" : "_fp16";
    size_t n = strlen(entry), s = strlen(suffix);
    return n > s && strcmp(entry + n - s, suffix) == 0;
}

/* The authors' padding: each dimension up to a multiple of its tile size. */
static void pad(const long dims[3], const long tile[3], long padded[3])
{
    for (int d = 0; d < 3; d++)
        padded[d] = tile[d] > 0 ? (dims[d] + tile[d] - 1) / tile[d] * tile[d] : dims[d];
}

static int read_file(const char *text, const char *path, hb_mnk mnk, const hb_file_rules *rules,
                     hb_file_facts *facts, long padded[3], char *why, size_t why_size)
{
    hb_l2_source scan;
    hb_status found = hb_l2_source_scan(text, path, &scan);
    memset(facts, 0, sizeof *facts);
    memcpy(facts->tile, scan.tile, sizeof facts->tile);
    snprintf(facts->features, sizeof facts->features, "%s", scan.hopper);
    if (found != HB_OK) {
        snprintf(why, why_size, "not a CUDA-L2 kernel file: no torch entry cuda_l2_<gpu>_<fp32|fp16>(a, b, b_col_major, c)");
        return 0;
    }
    snprintf(facts->entry, sizeof facts->entry, "%s", scan.entry);
    snprintf(facts->kind, sizeof facts->kind, "%s", hb_l2_kind_name(scan.kind));
    if (!entry_matches_class(scan.entry, rules->accumulator)) {
        snprintf(why, why_size, "its entry %s does not match the folder's class (%s)", scan.entry,
                 hb_acc_class_name(rules->accumulator));
        return 0;
    }
    int other_target = scan.hopper[0] && strcmp(rules->arch.name, "sm_90a") != 0;
    if (other_target && !rules->allow_arch_mismatch) {
        snprintf(why, why_size,
                 "uses Hopper-only features (%s) and the target is %s: they need sm_90a (--arch sm_90a on an "
                 "H100/H200); --allow-arch-mismatch builds it anyway",
                 scan.hopper, rules->arch.name);
        return 0;
    }
    if (other_target)
        hb_warn("%s uses Hopper-only features (%s) but is built for %s (--allow-arch-mismatch): it may compile "
                "into code that aborts or lacks its wgmma instructions",
                path, scan.hopper, rules->arch.name);
    const long dims[3] = {mnk.m, mnk.n, mnk.k};
    pad(dims, scan.tile, padded);
    return 1;
}

static void set_files_dir(const char *repo, const hb_published_set *set, char *out, size_t size)
{
    snprintf(out, size, "%.3000s/kernels/%s", repo, set->folder);
}

/* eval_results/cuda_l2_<folder>_speedup_<mode>.csv. */
static void published_results(const char *repo, const hb_published_set *set, const char *mode, char *out,
                              size_t size)
{
    snprintf(out, size, "%.3000s/eval_results/cuda_l2_%s_speedup_%s.csv", repo, set->folder, mode);
}

const hb_import_format hb_cuda_l2_format = {
    .name = "cuda-l2",
    .description = "CUDA-L2's published HGEMM files, kernels/<gpu>_<class>/M_N_K.cu with a torch entry",
    .folder_hint = "kernels/<gpu>_<class>/ of a CUDA-L2 clone",
    .file_pattern = "M_N_K.cu",
    .set_class = set_class,
    .config_of_file = config_of_file,
    .file_of_config = file_of_config,
    .read_file = read_file,
    .nvcc_flags = hb_cuda_l2_nvcc_flags,
    .cutlass_version = HB_CUDA_L2_CUTLASS_VERSION,
    .kernels_noun = "CUDA-L2's kernels",
    .shim = "torch_shim",
    .adapter = "cuda_l2_adapter.cu",
    .adapter_entry_macro = "HB_L2_ENTRY",
    .build_cost_s = hb_l2_build_cost_s,
    .repo_hint = "a clone of CUDA-L2 (git clone https://github.com/deepreinforce-ai/CUDA-L2)",
    .sets = l2_sets,
    .n_sets = sizeof l2_sets / sizeof l2_sets[0],
    .set_files_dir = set_files_dir,
    .published_results = published_results,
};
