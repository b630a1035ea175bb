#include "bench/import/cuda_l2/l2_source.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

static const char *const kind_names[HB_L2_KIND_COUNT] = {"adapter", "cooperative", "cluster", "multi-kernel",
                                                         "one-kernel"};

const char *hb_l2_kind_name(hb_l2_kind kind)
{
    return kind < HB_L2_KIND_COUNT ? kind_names[kind] : "?";
}

/* Words that mark a kind (searched outside comments). */
static const struct {
    hb_l2_kind kind;
    const char *word;
} kind_marks[] = {
    {HB_L2_ADAPTER, "GemmUniversalAdapter"},
    {HB_L2_COOPERATIVE, "cudaLaunchCooperativeKernel"},
    {HB_L2_COOPERATIVE, "this_grid"},
    {HB_L2_CLUSTER, "cluster_launch"},
    {HB_L2_CLUSTER, "launch_kernel_on_cluster"},
    {HB_L2_CLUSTER, "cudaLaunchKernelEx"},
    {HB_L2_CLUSTER, "__cluster_dims__"},
    {HB_L2_CLUSTER, "ClusterLaunchParams"},
};

/* Hopper-only features (they need an sm_90a build): the word searched, the
 * feature's name in messages. */
static const struct {
    const char *word;
    const char *feature;
} hopper_marks[] = {
    {"wgmma", "wgmma"},
    {"GMMA", "GMMA"},
    {"Sm90", "CUTLASS Sm90 collectives"},
    {"SM90", "SM90 atoms"},
    {"cp.async.bulk", "TMA"},
    {"make_tma_copy", "TMA"},
    {"setmaxnreg", "setmaxnreg"},
};

/* The text with // and block comments blanked (string literals kept). */
static char *without_comments(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    memcpy(out, text, n + 1);
    for (size_t i = 0; i < n; i++) {
        if (out[i] == '"') { /* skip a string literal */
            for (i++; i < n && out[i] != '"' && out[i] != '\n'; i++)
                if (out[i] == '\\')
                    i++;
        } else if (out[i] == '/' && out[i + 1] == '/') {
            while (i < n && out[i] != '\n')
                out[i++] = ' ';
        } else if (out[i] == '/' && out[i + 1] == '*') {
            out[i] = out[i + 1] = ' ';
            for (i += 2; i < n && !(out[i] == '*' && out[i + 1] == '/'); i++)
                if (out[i] != '\n')
                    out[i] = ' ';
            if (i < n)
                out[i] = out[i + 1] = ' ', i++;
        }
    }
    return out;
}

static int count_of(const char *text, const char *word)
{
    int count = 0;
    for (const char *p = strstr(text, word); p; p = strstr(p + strlen(word), word))
        count++;
    return count;
}

/* `void cuda_l2_<gpu>_<acc>(` followed by torch::Tensor: the entry's name. */
static int find_entry(const char *text, char *name, size_t size)
{
    for (const char *p = strstr(text, "cuda_l2_"); p; p = strstr(p + 1, "cuda_l2_")) {
        const char *end = p;
        while (isalnum((unsigned char)*end) || *end == '_')
            end++;
        const char *q = end;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '(')
            continue;
        q++;
        while (isspace((unsigned char)*q))
            q++;
        if (strncmp(q, "torch::Tensor", 13) != 0)
            continue;
        const char *before = p;
        while (before > text && isspace((unsigned char)before[-1]))
            before--;
        if (before - text < 4 || strncmp(before - 4, "void", 4) != 0)
            continue;
        size_t len = (size_t)(end - p);
        if (len >= size)
            return 0;
        memcpy(name, p, len);
        name[len] = '\0';
        return 1;
    }
    return 0;
}

/* One line of the authors' rule: the first (BM|BN|BK)=Int<digits> in the line without spaces. */
static void tile_line(const char *line, size_t len, long tile[3])
{
    char squeezed[1024];
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < sizeof squeezed; i++)
        if (line[i] != ' ')
            squeezed[n++] = line[i];
    squeezed[n] = '\0';
    static const char *const names[3] = {"BM", "BN", "BK"};
    for (size_t i = 0; i + 7 < n; i++)
        for (int d = 0; d < 3; d++) {
            if (strncmp(squeezed + i, names[d], 2) != 0 || strncmp(squeezed + i + 2, "=Int<", 5) != 0 ||
                !isdigit((unsigned char)squeezed[i + 7]))
                continue;
            char *end = NULL;
            long value = strtol(squeezed + i + 7, &end, 10);
            if (*end != '>')
                continue;
            tile[d] = value;
            return;
        }
}

void hb_l2_tile_sizes(const char *text, long tile[3])
{
    long found[3] = {-1, -1, -1};
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        tile_line(line, len, found);
        line += len + (end ? 1 : 0);
    }
    int all = found[0] > 0 && found[1] > 0 && found[2] > 0;
    for (int d = 0; d < 3; d++)
        tile[d] = all ? found[d] : 0;
}

static void hopper_features(const char *code, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < sizeof hopper_marks / sizeof hopper_marks[0]; i++) {
        if (!strstr(code, hopper_marks[i].word) || strstr(out, hopper_marks[i].feature))
            continue;
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", used ? ", " : "", hopper_marks[i].feature);
    }
}

static hb_l2_kind kind_of(const char *code, int launch_sites)
{
    hb_l2_kind kind = launch_sites > 1 ? HB_L2_MULTI_KERNEL : HB_L2_ONE_KERNEL;
    for (size_t i = 0; i < sizeof kind_marks / sizeof kind_marks[0]; i++)
        if (kind_marks[i].kind < kind && strstr(code, kind_marks[i].word))
            kind = kind_marks[i].kind;
    return kind;
}

hb_status hb_l2_source_scan(const char *text, const char *origin, hb_l2_source *out)
{
    memset(out, 0, sizeof *out);
    char *code = without_comments(text);
    if (!code)
        return hb_fail(HB_ERR_INTERNAL, "out of memory reading %s", origin);
    int found = find_entry(code, out->entry, sizeof out->entry);
    out->launch_sites = count_of(code, "<<<");
    out->kind = kind_of(code, out->launch_sites);
    hopper_features(code, out->hopper, sizeof out->hopper);
    free(code);
    hb_l2_tile_sizes(text, out->tile);
    if (!found)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "%s defines no CUDA-L2 entry \"void cuda_l2_<gpu>_<fp32|fp16>(torch::Tensor a, torch::Tensor b, "
                       "torch::Tensor b_col_major, torch::Tensor c)\"",
                       origin);
    return HB_OK;
}
