/* The role table: the one place that names the values a cubin kernel can
 * take and says how many bytes each is (docs/candidates.md, "Parameter
 * order", shows it). */
#include "bench/result/kernel_params.h"

#include <stdio.h>
#include <string.h>

typedef struct role_row {
    const char *name;
    size_t size; /* bytes, as cuFuncGetParamInfo reports the parameter */
} role_row;

static const role_row roles[HB_N_PARAM_ROLES] = {
    [HB_PARAM_A] = {"a", 8},
    [HB_PARAM_B] = {"b", 8},
    [HB_PARAM_B_COL] = {"b_col", 8},
    [HB_PARAM_C] = {"c", 8},
    [HB_PARAM_M] = {"m", 4},
    [HB_PARAM_N] = {"n", 4},
    [HB_PARAM_K] = {"k", 4},
    [HB_PARAM_WORKSPACE] = {"workspace", 8},
    [HB_PARAM_M64] = {"m64", 8},
    [HB_PARAM_N64] = {"n64", 8},
    [HB_PARAM_K64] = {"k64", 8},
    [HB_PARAM_CONSTANT] = {"constant", 4},
};

/* A constant is written as its value, never by this name: "constant" in a
 * list would be a typo for a number, not a role. */
static int has_name(hb_param_role role)
{
    return role != HB_PARAM_CONSTANT;
}

int hb_param_role_find(const char *name, hb_param_role *out)
{
    for (int i = 0; i < HB_N_PARAM_ROLES; i++)
        if (has_name((hb_param_role)i) && !strcmp(name, roles[i].name)) {
            *out = (hb_param_role)i;
            return 1;
        }
    return 0;
}

const char *hb_param_role_name(hb_param_role role)
{
    return role < HB_N_PARAM_ROLES ? roles[role].name : "?";
}

size_t hb_param_role_size(hb_param_role role)
{
    return role < HB_N_PARAM_ROLES ? roles[role].size : 0;
}

/* `text` appended at out[*used], with ", " before all but the first. */
static void append(char *out, size_t size, size_t *used, int first, const char *text)
{
    if (*used >= size)
        return;
    int n = snprintf(out + *used, size - *used, "%s%s", first ? "" : ", ", text);
    *used += n > 0 ? (size_t)n : 0;
}

void hb_param_role_names(char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < HB_N_PARAM_ROLES; i++)
        if (has_name((hb_param_role)i))
            append(out, size, &used, used == 0, roles[i].name);
}

void hb_kernel_param_text(const hb_kernel_param *param, char *out, size_t size)
{
    if (param->role == HB_PARAM_CONSTANT)
        snprintf(out, size, "%ld", (long)param->constant);
    else
        snprintf(out, size, "%s", hb_param_role_name(param->role));
}

void hb_kernel_params_format(const hb_kernel_params *params, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    append(out, size, &used, 1, "(");
    for (int i = 0; i < params->n; i++) {
        char one[16];
        hb_kernel_param_text(&params->list[i], one, sizeof one);
        append(out, size, &used, i == 0, one);
    }
    append(out, size, &used, 1, ")");
}

int hb_kernel_params_count(const hb_kernel_params *params, hb_param_role role)
{
    int count = 0;
    for (int i = 0; i < params->n; i++)
        count += params->list[i].role == role;
    return count;
}

const hb_kernel_params *hb_kernel_params_contract(void)
{
    static const hb_kernel_params contract = {
        8,
        {{HB_PARAM_A, 0}, {HB_PARAM_B, 0}, {HB_PARAM_B_COL, 0}, {HB_PARAM_C, 0}, {HB_PARAM_M, 0}, {HB_PARAM_N, 0},
         {HB_PARAM_K, 0}, {HB_PARAM_WORKSPACE, 0}},
    };
    return &contract;
}
