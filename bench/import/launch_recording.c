#include "bench/import/launch_recording.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/import/command_run.h"

/* The GPUs CUDA-L2's sets were tuned on, as the stand-in describes them when
 * no GPU of the target's architecture is here (CUDA's device queries on each). */
static const hb_recorder_device device_table[] = {
    {80, 108, 166912, 167936, 40u << 20, "A100 (table: 108 SMs)"},
    {86, 82, 101376, 102400, 6u << 20, "RTX 3090 (table: 82 SMs)"},
    {90, 132, 232448, 233472, 50u << 20, "H100 SXM (table: 132 SMs)"},
};

int hb_recorder_device_for_arch(int sm, hb_recorder_device *out)
{
    for (size_t i = 0; i < sizeof device_table / sizeof device_table[0]; i++)
        if (device_table[i].sm == sm) {
            *out = device_table[i];
            return 1;
        }
    return 0;
}

hb_status hb_launch_record(const char *recorder, const char *library, const long mnk[3],
                           const hb_recorder_device *d, int timeout_s, const char *json_path, const char *log_path)
{
    char words[9][32];
    const long long values[9] = {mnk[0], mnk[1], mnk[2], d->sm, d->sms, (long long)d->smem_per_block_optin,
                                 (long long)d->smem_per_sm, (long long)d->l2_bytes, 2};
    char *argv[12] = {(char *)recorder, (char *)library};
    for (int i = 0; i < 9; i++) {
        snprintf(words[i], sizeof words[i], "%lld", values[i]);
        argv[2 + i] = words[i];
    }
    argv[11] = NULL;
    hb_command_end end;
    HB_TRY(hb_command_run(argv, NULL, json_path, log_path, timeout_s, &end));
    if (end.exited && end.code == 0)
        return HB_OK;
    char how[96];
    hb_command_end_text(&end, timeout_s, how, sizeof how);
    return hb_fail(HB_ERR_CANDIDATE_FAULT, "the launch recorder ended with %s on %s (see %s)", how, library, log_path);
}

/* --- reading ---------------------------------------------------------------------- */

static long launches_of(json_t *call)
{
    return (long)json_integer_value(json_object_get(call, "launches_total"));
}

/* "cudaMemsetAsync x1, cudaMalloc x1": the calls of `call` that do device work or allocate. */
static void device_work(json_t *call, char *out, size_t size)
{
    static const char *const work[] = {"cudaMalloc", "cudaMallocAsync", "cudaFree",   "cudaFreeAsync",
                                       "cudaMemset", "cudaMemsetAsync", "cudaMemcpy", "cudaMemcpyAsync",
                                       "cudaGraphLaunch", "cudaDeviceSynchronize", "cudaStreamSynchronize", NULL};
    out[0] = '\0';
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(call, "runtime_calls"), i, c) {
        const char *name = json_string_value(json_object_get(c, "name"));
        for (size_t w = 0; name && work[w]; w++)
            if (strcmp(name, work[w]) == 0) {
                size_t used = strlen(out);
                snprintf(out + used, size - used, "%s%s x%lld", used ? ", " : "", name,
                         (long long)json_integer_value(json_object_get(c, "count")));
            }
    }
}

static void add_note(hb_cubin_form *form, const char *text)
{
    size_t used = strlen(form->notes);
    snprintf(form->notes + used, sizeof form->notes - used, "%s%s", used ? "; " : "", text);
}

static void apis_of(json_t *call, char *out, size_t size)
{
    out[0] = '\0';
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(call, "launches"), i, l) {
        const char *api = json_string_value(json_object_get(l, "api"));
        if (!api || strstr(out, api))
            continue;
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", used ? ", " : "", api);
    }
}

/* --- the roles of size parameters ------------------------------------------------- */

static const char *const size_roles[2][3] = {{"m", "n", "k"}, {"m64", "n64", "k64"}};

/* 1 when `role` is a size's ("m" .. "k64"); *dim and *wide say which. */
static int size_role(const char *role, int *dim, int *wide)
{
    for (int w = 0; w < 2; w++)
        for (int d = 0; d < 3; d++)
            if (strcmp(role, size_roles[w][d]) == 0) {
                *dim = d, *wide = w;
                return 1;
            }
    return 0;
}

/* The sizes (bit d for M, N, K) that a parameter's value equals: an int32
 * compares in 32 bits, as the recorder does. */
static unsigned sizes_matched(json_int_t value, int wide, const long sizes[3])
{
    unsigned mask = 0;
    for (int d = 0; d < 3; d++)
        if (wide ? value == (json_int_t)sizes[d] : (uint32_t)value == (uint32_t)sizes[d])
            mask |= 1u << d;
    return mask;
}

static int bits(unsigned mask)
{
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1);
}

/* The ambiguous size parameters named in the kernel's declared order: each
 * takes the first of its sizes that no earlier size parameter took, so
 * (a, b_col, c, 64, 64, 64) at M = N = K = 64 reads (..., m, n, k), the
 * order CUDA-L2's kernels declare them in. */
static void name_in_declared_order(hb_cubin_form *form)
{
    unsigned used = 0;
    int dim, wide;
    for (size_t i = 0; i < form->n_params; i++)
        if (!form->ambiguous[i] && size_role(form->params[i], &dim, &wide))
            used |= 1u << dim;
    for (size_t i = 0; i < form->n_params; i++) {
        unsigned mask = form->ambiguous[i];
        if (!mask || !size_role(form->params[i], &dim, &wide))
            continue;
        unsigned pick = mask & ~used ? mask & ~used : mask;
        for (dim = 0; !(pick >> dim & 1); dim++)
            ;
        used |= 1u << dim;
        snprintf(form->params[i], sizeof form->params[i], "%s", size_roles[wide][dim]);
    }
}

int hb_cubin_form_ambiguous(const hb_cubin_form *form)
{
    for (size_t i = 0; i < form->n_params; i++)
        if (form->ambiguous[i])
            return 1;
    return 0;
}

void hb_distinct_sizes(const long padded[3], long out[3])
{
    static const int multipliers[6][3] = {{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}};
    for (int t = 0; t < 6; t++) {
        for (int d = 0; d < 3; d++)
            out[d] = padded[d] * multipliers[t][d];
        if (out[0] != out[1] && out[1] != out[2] && out[0] != out[2])
            return;
    }
    /* unreachable for positive sizes: some order of x, 2y, 3z differs */
}

/* "parameters 3, 4, 5" of the ambiguous ones, and the sizes they matched ("M = N = K = 64"). */
static void ambiguity_text(const hb_cubin_form *form, char *out, size_t size)
{
    unsigned all = 0;
    size_t used = (size_t)snprintf(out, size, "parameters");
    for (size_t i = 0; i < form->n_params && used < size; i++)
        if (form->ambiguous[i]) {
            used += (size_t)snprintf(out + used, size - used, "%s %zu", all ? "," : "", i);
            all |= form->ambiguous[i];
        }
    static const char *const names[3] = {"M", "N", "K"};
    long value = 0;
    for (int d = 0, first = 1; d < 3 && used < size; d++)
        if (all >> d & 1) {
            used += (size_t)snprintf(out + used, size - used, "%s%s", first ? " take " : " = ", names[d]);
            first = 0, value = form->sizes[d];
        }
    if (used < size)
        snprintf(out + used, size - used, " = %ld", value);
}

/* Why a second recording cannot name the sizes; "" when it can. */
static void second_recording_fits(json_t *doc, const hb_cubin_form *form, long sizes[3], json_t **params,
                                  char *why, size_t size)
{
    why[0] = '\0';
    json_t *calls = json_object_get(doc, "calls");
    json_t *last = json_array_get(calls, json_array_size(calls) ? json_array_size(calls) - 1 : 0);
    json_t *launches = json_object_get(last, "launches");
    json_t *launch = json_array_get(launches, 0);
    const char *kernel = json_string_value(json_object_get(launch, "kernel"));
    *params = json_object_get(launch, "params");
    for (int d = 0; d < 3; d++)
        sizes[d] = (long)json_integer_value(json_object_get(json_object_get(doc, "sizes"), size_roles[0][d]));
    if (!doc)
        snprintf(why, size, "it is not JSON");
    else if (json_integer_value(json_object_get(last, "returned")) != 0)
        snprintf(why, size, "the entry returned %d at those sizes",
                 (int)json_integer_value(json_object_get(last, "returned")));
    else if (json_array_size(launches) != 1 || !kernel || strcmp(kernel, form->kernel) != 0)
        snprintf(why, size, "the host code launched another kernel at those sizes");
    else if (json_array_size(*params) != form->n_params)
        snprintf(why, size, "the kernel got %zu parameters at those sizes", json_array_size(*params));
}

/* The roles the second recording gives the ambiguous parameters, into `roles`; 0 with `why` when one is not told. */
static int roles_of_second(json_t *params, const long sizes[3], const hb_cubin_form *form,
                           const char *roles[], char *why, size_t size)
{
    for (size_t i = 0; i < form->n_params; i++) {
        int dim, wide;
        if (!form->ambiguous[i] || !size_role(form->params[i], &dim, &wide))
            continue;
        json_int_t value = json_integer_value(json_object_get(json_array_get(params, i), "value"));
        unsigned mask = sizes_matched(value, wide, sizes);
        if (bits(mask) != 1 || !(mask & form->ambiguous[i])) {
            snprintf(why, size, "parameter %zu took %lld there, not one of the sizes it could be", i, (long long)value);
            return 0;
        }
        for (dim = 0; !(mask >> dim & 1); dim++)
            ;
        roles[i] = size_roles[wide][dim];
    }
    return 1;
}

void hb_launch_roles_from_second(const char *json_path, const char *why_not, hb_cubin_form *form)
{
    char which[160], why[200] = "", note[600];
    ambiguity_text(form, which, sizeof which);
    long sizes[3] = {0, 0, 0};
    json_t *doc = json_path ? json_load_file(json_path, 0, NULL) : NULL;
    json_t *params = NULL;
    const char *roles[HB_CUBIN_MAX_PARAMS] = {NULL};
    if (!json_path)
        snprintf(why, sizeof why, "%s", why_not ? why_not : "no second recording");
    else
        second_recording_fits(doc, form, sizes, &params, why, sizeof why);
    if (!why[0] && roles_of_second(params, sizes, form, roles, why, sizeof why)) {
        for (size_t i = 0; i < form->n_params; i++)
            if (form->ambiguous[i]) {
                snprintf(form->params[i], sizeof form->params[i], "%s", roles[i]);
                form->ambiguous[i] = 0;
            }
        snprintf(note, sizeof note, "%s, so their values cannot tell their roles: named by a second recording at "
                 "M, N, K = %ld, %ld, %ld", which, sizes[0], sizes[1], sizes[2]);
    } else {
        snprintf(note, sizeof note, "%.100s, so their values cannot tell their roles, and a second recording at distinct "
                 "sizes could not either (%.150s): named in the kernel's declared order; the role is ambiguous, and "
                 "safe at this configuration only, where those sizes are equal and any order passes the same values",
                 which, why);
    }
    json_decref(doc);
    add_note(form, note);
}

/* Which B the kernel reads, as b_layout says it; 0 with a reason when it gets neither. */
static int b_layout(hb_cubin_form *form)
{
    int b = 0, b_col = 0;
    for (size_t i = 0; i < form->n_params; i++) {
        b |= strcmp(form->params[i], "b") == 0;
        b_col |= strcmp(form->params[i], "b_col") == 0;
    }
    if (!b && !b_col) {
        snprintf(form->reason, sizeof form->reason, "the kernel gets neither B buffer (b or b_col)");
        return 0;
    }
    snprintf(form->b_layout, sizeof form->b_layout, "%s", b_col ? "col" : "row");
    if (!b_col)
        add_note(form, "the kernel gets the row-major B (b), so the cubin form's b_layout is row");
    return 1;
}

/* The one launch's parameters as roles; 0 with a reason when one cannot be named. */
static int parameters(json_t *launch, hb_cubin_form *form)
{
    json_t *params = json_object_get(launch, "params");
    if (json_array_size(params) > HB_CUBIN_MAX_PARAMS) {
        snprintf(form->reason, sizeof form->reason, "the kernel takes %zu parameters (at most %d)",
                 json_array_size(params), HB_CUBIN_MAX_PARAMS);
        return 0;
    }
    size_t i;
    json_t *p;
    json_array_foreach(params, i, p) {
        const char *cls = json_string_value(json_object_get(p, "class"));
        const char *type = json_string_value(json_object_get(p, "type"));
        const char *role = json_string_value(json_object_get(p, "role"));
        json_int_t value = json_integer_value(json_object_get(p, "value"));
        int dim, wide;
        if (role && strcmp(role, "allocation") != 0) {
            snprintf(form->params[i], sizeof form->params[i], "%s", role);
            if (size_role(role, &dim, &wide) && bits(sizes_matched(value, wide, form->sizes)) > 1)
                form->ambiguous[i] = sizes_matched(value, wide, form->sizes);
        } else if (cls && strcmp(cls, "int32") == 0) {
            snprintf(form->params[i], sizeof form->params[i], "%d", (int)(int32_t)value); /* a constant */
        } else {
            snprintf(form->reason, sizeof form->reason, "parameter %zu (%s) is %s", i, type ? type : "?",
                     role ? "memory the host code allocated" : "none of the buffers or sizes");
            return 0;
        }
    }
    form->n_params = json_array_size(params);
    name_in_declared_order(form);
    return 1;
}

static void triple(json_t *array, unsigned out[3])
{
    for (size_t i = 0; i < 3; i++)
        out[i] = (unsigned)json_integer_value(json_array_get(array, i));
}

static void notes(json_t *call, json_t *launch, long queries, hb_cubin_form *form)
{
    if (queries > 0)
        add_note(form, "the host code asked about the device (SM count, shared memory): the grid is the one "
                       "recorded for the device described");
    const char *stream = json_string_value(json_object_get(launch, "stream"));
    if (stream && strcmp(stream, "default") == 0)
        add_note(form, "the file launches on the default stream; the cubin form launches on the timed stream");
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(call, "runtime_calls"), i, c) {
        const char *name = json_string_value(json_object_get(c, "name"));
        const char *detail = json_string_value(json_object_get(c, "detail"));
        if (name && detail && strcmp(name, "cudaFuncSetAttribute") == 0 && !strstr(detail, "MaxDynamicSharedMemorySize")) {
            char text[200];
            snprintf(text, sizeof text, "the file sets %.120s, which the cubin form does not", strchr(detail, ' ') ? strchr(detail, ' ') + 1 : detail);
            add_note(form, text);
        }
    }
}

static void decide(json_t *call, long queries, hb_cubin_form *form, const hb_launch_summary *s)
{
    json_t *launch = json_array_get(json_object_get(call, "launches"), 0);
    const char *api = json_string_value(json_object_get(launch, "api"));
    json_t *cluster = json_object_get(launch, "cluster");
    if (s->returned != 0)
        snprintf(form->reason, sizeof form->reason, "the entry returned %d when recorded: %.200s", s->returned, s->error);
    else if (s->launches_per_call != 1)
        snprintf(form->reason, sizeof form->reason, "a call launches %ld kernels", s->launches_per_call);
    else if (!api || (strcmp(api, "<<<>>>") != 0 && strcmp(api, "cudaLaunchKernel") != 0))
        snprintf(form->reason, sizeof form->reason, "the kernel is launched with %s", api ? api : "?");
    else if (json_integer_value(json_array_get(cluster, 0)) != 0)
        snprintf(form->reason, sizeof form->reason, "the kernel is launched in clusters");
    else if (!json_is_true(json_object_get(launch, "typed")))
        snprintf(form->reason, sizeof form->reason, "the kernel's name carries no parameter types (extern \"C\")");
    else if (s->device_work[0])
        snprintf(form->reason, sizeof form->reason, "each call also does %.200s", s->device_work);
    else if (parameters(launch, form) && b_layout(form)) {
        form->possible = 1;
        snprintf(form->kernel, sizeof form->kernel, "%s", json_string_value(json_object_get(launch, "kernel")));
        triple(json_object_get(launch, "grid"), form->grid);
        triple(json_object_get(launch, "block"), form->block);
        form->smem = (size_t)json_integer_value(json_object_get(launch, "smem"));
        notes(call, launch, queries, form);
    }
}

/* What the first call did that the later one did not ("cudaMalloc x1"). */
static void first_call_extra(json_t *first, json_t *later, char *out, size_t size)
{
    char a[256], b[256];
    device_work(first, a, sizeof a);
    device_work(later, b, sizeof b);
    snprintf(out, size, "%s", strcmp(a, b) != 0 ? a : "");
}

hb_status hb_launch_recording_read(const char *json_path, hb_launch_summary *s, hb_cubin_form *form)
{
    memset(s, 0, sizeof *s);
    memset(form, 0, sizeof *form);
    json_error_t error;
    json_t *doc = json_load_file(json_path, 0, &error);
    json_t *calls = json_object_get(doc, "calls");
    size_t n = json_array_size(calls);
    if (!doc || n == 0) {
        json_decref(doc);
        return hb_fail(HB_ERR_BAD_INPUT, "%s is not a launch recording: %s", json_path,
                       doc ? "no calls" : error.text);
    }
    json_t *first = json_array_get(calls, 0), *last = json_array_get(calls, n - 1);
    for (int d = 0; d < 3; d++)
        form->sizes[d] = (long)json_integer_value(json_object_get(json_object_get(doc, "sizes"), size_roles[0][d]));
    s->returned = (int)json_integer_value(json_object_get(last, "returned"));
    snprintf(s->error, sizeof s->error, "%s", json_string_value(json_object_get(last, "error")) ? json_string_value(json_object_get(last, "error")) : "");
    s->launches_first = launches_of(first);
    s->launches_per_call = launches_of(last);
    s->device_queries = (long)json_integer_value(json_object_get(first, "device_queries"));
    apis_of(last, s->apis, sizeof s->apis);
    device_work(last, s->device_work, sizeof s->device_work);
    first_call_extra(first, last, s->first_call_extra, sizeof s->first_call_extra);
    decide(last, s->device_queries, form, s);
    json_decref(doc);
    return HB_OK;
}
