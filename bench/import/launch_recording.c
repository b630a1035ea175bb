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
        if (role && strcmp(role, "allocation") != 0) {
            snprintf(form->params[i], sizeof form->params[i], "%s", role);
        } else if (cls && strcmp(cls, "int32") == 0) {
            snprintf(form->params[i], sizeof form->params[i], "%d", (int)(int32_t)value); /* a constant */
        } else {
            snprintf(form->reason, sizeof form->reason, "parameter %zu (%s) is %s", i, type ? type : "?",
                     role ? "memory the host code allocated" : "none of the buffers or sizes");
            return 0;
        }
    }
    form->n_params = json_array_size(params);
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
    else if (parameters(launch, form)) {
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
