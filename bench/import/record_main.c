/* hgemm-l2-record: runs a launcher library's entry on the CPU against the
 * recording runtime (record_runtime.c, linked in, so its definitions come
 * first) and writes what the entry did as JSON on stdout
 * ("hgemm-bench-launch-recording/1"; read by bench/import/launch_recording.c).
 *
 *   hgemm-l2-record LIBRARY M N K SM SMS SMEM_OPTIN SMEM_PER_SM L2_BYTES CALLS
 *
 * M, N, K are the sizes the entry gets (already padded); SM .. L2_BYTES the
 * device the runtime describes when host code asks; CALLS how many calls to
 * record (the first may differ from the rest: a workspace cached after it).
 * The buffers are fake device addresses, one per role, so each recorded
 * argument can be named by its value.  Exit 0 with the JSON whatever the
 * entry returned; 2 on bad usage, 3 when the library cannot be loaded. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/hgemm_launch.h"
#include "bench/import/recording.h"

/* The fake buffers: far apart, 2 MiB aligned, below the stand-in's allocations (0x7e..). */
static const struct {
    const char *role;
    uint64_t address;
} fake_buffers[] = {
    {"a", 0x7a0000000000ull},
    {"b", 0x7b0000000000ull},
    {"b_col", 0x7c0000000000ull},
    {"c", 0x7d0000000000ull},
};
#define FAKE_STREAM ((cudaStream_t)(uintptr_t)0x5e00) /* the call's stream, as the harness would pass it */
#define FAKE_ALLOCATIONS 0x7e0000000000ull

static uint64_t fake_address(const char *role)
{
    for (size_t i = 0; i < sizeof fake_buffers / sizeof fake_buffers[0]; i++)
        if (strcmp(fake_buffers[i].role, role) == 0)
            return fake_buffers[i].address;
    return 0;
}

static const char *param_class_name(hb_param_class cls)
{
    switch (cls) {
    case HB_PARAM_POINTER: return "pointer";
    case HB_PARAM_INT32: return "int32";
    case HB_PARAM_INT64: return "int64";
    default: return "other";
    }
}

/* The role an argument's value names: a buffer for a pointer, a dimension
 * for an integer (the first of m, n, k when two are equal: the same value). */
static const char *role_of(hb_param_class cls, uint64_t value, const int64_t mnk[3])
{
    static const char *const dims[3] = {"m", "n", "k"};
    static const char *const dims64[3] = {"m64", "n64", "k64"};
    if (cls == HB_PARAM_POINTER) {
        for (size_t i = 0; i < sizeof fake_buffers / sizeof fake_buffers[0]; i++)
            if (value == fake_buffers[i].address)
                return fake_buffers[i].role;
        return value >= FAKE_ALLOCATIONS ? "allocation" : NULL;
    }
    for (int d = 0; d < 3; d++)
        if ((cls == HB_PARAM_INT32 && value == (uint64_t)(uint32_t)mnk[d]) ||
            (cls == HB_PARAM_INT64 && value == (uint64_t)mnk[d]))
            return cls == HB_PARAM_INT32 ? dims[d] : dims64[d];
    return NULL;
}

static json_t *triple(const unsigned v[3])
{
    return json_pack("[III]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

static const char *stream_name(uintptr_t stream)
{
    if (stream == (uintptr_t)FAKE_STREAM)
        return "given";
    if (stream == 0 || stream == (uintptr_t)cudaStreamLegacy || stream == (uintptr_t)cudaStreamPerThread)
        return "default";
    return "other";
}

static json_t *launch_json(const hb_recorded_launch *l, const int64_t mnk[3])
{
    json_t *params = json_array();
    for (size_t i = 0; l->have_signature && i < l->signature.count; i++) {
        const hb_kernel_param *p = &l->signature.params[i];
        const char *role = p->cls == HB_PARAM_OTHER ? NULL : role_of(p->cls, l->value[i], mnk);
        json_t *param = json_pack("{s:s, s:s, s:I}", "type", p->type, "class", param_class_name(p->cls), "size",
                                  (json_int_t)p->size);
        if (p->cls != HB_PARAM_OTHER)
            json_object_set_new(param, "value", json_integer((json_int_t)l->value[i]));
        json_object_set_new(param, "role", role ? json_string(role) : json_null());
        json_array_append_new(params, param);
    }
    return json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:I, s:s, s:b, s:b, s:o}", "api", l->api, "kernel", l->kernel,
                     "demangled", l->demangled, "grid", triple(l->grid), "block", triple(l->block), "cluster",
                     triple(l->cluster), "smem", (json_int_t)l->smem, "stream", stream_name(l->stream),
                     "typed", l->have_signature, "plain", l->have_signature && l->signature.plain, "params", params);
}

static json_t *call_json(const hb_recording *r, int returned, const char *error, const int64_t mnk[3])
{
    json_t *launches = json_array();
    for (size_t i = 0; i < r->n_launches && i < HB_REC_MAX_LAUNCHES; i++)
        json_array_append_new(launches, launch_json(&r->launches[i], mnk));
    json_t *calls = json_array();
    for (size_t i = 0; i < r->n_calls; i++)
        json_array_append_new(calls, json_pack("{s:s, s:s, s:I}", "name", r->calls[i].name, "detail",
                                               r->calls[i].detail, "count", (json_int_t)r->calls[i].count));
    return json_pack("{s:i, s:s, s:I, s:o, s:o, s:I}", "returned", returned, "error", error, "launches_total",
                     (json_int_t)r->n_launches, "launches", launches, "runtime_calls", calls, "device_queries",
                     (json_int_t)r->device_queries);
}

static int parse_u64(const char *text, uint64_t *out)
{
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    if (!*text || *end)
        return -1;
    *out = v;
    return 0;
}

typedef int (*entry_fn)(const struct hgemm_launch_args *);

int main(int argc, char **argv)
{
    uint64_t v[9];
    if (argc != 11) {
        fprintf(stderr, "usage: %s LIBRARY M N K SM SMS SMEM_OPTIN SMEM_PER_SM L2_BYTES CALLS\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < 9; i++)
        if (parse_u64(argv[2 + i], &v[i]) != 0) {
            fprintf(stderr, "%s: '%s' is not a number\n", argv[0], argv[2 + i]);
            return 2;
        }
    hb_recording *r = hb_recording_state();
    r->device = (hb_recorded_device){(int)v[3], (int)v[4], (size_t)v[5], (size_t)v[6], (size_t)v[7]};
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "%s: cannot load %s: %s\n", argv[0], argv[1], dlerror());
        return 3;
    }
    entry_fn entry = (entry_fn)(uintptr_t)dlsym(library, HGEMM_LAUNCH_DEFAULT_ENTRY);
    if (!entry) {
        fprintf(stderr, "%s: %s exports no %s\n", argv[0], argv[1], HGEMM_LAUNCH_DEFAULT_ENTRY);
        return 3;
    }
    const int64_t mnk[3] = {(int64_t)v[0], (int64_t)v[1], (int64_t)v[2]};
    json_t *calls = json_array();
    for (uint64_t call = 0; call < v[8]; call++) {
        char error[1024] = "";
        struct hgemm_launch_args args = {
            .abi_version = HGEMM_LAUNCH_ABI_VERSION, .struct_size = sizeof args,
            .a = (const void *)(uintptr_t)fake_address("a"), .b = (const void *)(uintptr_t)fake_address("b"),
            .b_col = (const void *)(uintptr_t)fake_address("b_col"), .c = (void *)(uintptr_t)fake_address("c"),
            .m = mnk[0], .n = mnk[1], .k = mnk[2], .stream = FAKE_STREAM, .error = error, .error_size = sizeof error,
        };
        hb_recording_clear();
        r->active = 1;
        int returned = entry(&args);
        r->active = 0;
        error[sizeof error - 1] = '\0';
        json_array_append_new(calls, call_json(r, returned, error, mnk));
        fflush(stdout); /* a later call that crashes still leaves this one's words unwritten: one document at the end */
    }
    json_t *doc = json_pack("{s:s, s:s, s:{s:I, s:I, s:I}, s:{s:i, s:i, s:I, s:I, s:I}, s:o}", "format",
                            "hgemm-bench-launch-recording/1", "library", argv[1], "sizes", "m", (json_int_t)mnk[0], "n",
                            (json_int_t)mnk[1], "k", (json_int_t)mnk[2], "device", "sm", r->device.sm, "sms",
                            r->device.sms, "smem_per_block_optin", (json_int_t)r->device.smem_per_block_optin,
                            "smem_per_sm", (json_int_t)r->device.smem_per_sm, "l2_bytes", (json_int_t)r->device.l2_bytes,
                            "calls", calls);
    if (!doc || json_dumpf(doc, stdout, JSON_INDENT(1)) != 0) {
        fprintf(stderr, "%s: cannot write the recording\n", argv[0]);
        return 1;
    }
    putchar('\n');
    json_decref(doc);
    return 0;
}
