#include "bench/driver/replay_pass.h"

#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/candidate_buffers.h"
#include "bench/candidate/candidate_set.h"
#include "bench/candidate/hgemm_launch.h"
#include "bench/candidate/launch_plan.h"
#include "bench/candidate/launcher_left_error.h"
#include "bench/candidate/launcher_library.h"
#include "bench/candidate/replay_file.h"
#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/file_digest.h"
#include "bench/core/folders.h"
#include "bench/core/heartbeat.h"
#include "bench/driver/isolate.h"
#include "bench/driver/sandbox.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/device.h"
#include "bench/measure/sample_timer.h"
#include "bench/result/replay_analysis.h"
#include "bench/trace/launch_recorder.h"

/* Every input byte: 0x2C2C is 0.0693 in binary16, so a product of any K the
 * harness accepts stays finite; the values are not checked, only a launcher
 * that reads its inputs must not trip over them. */
#define INPUT_FILL_BYTE 0x2C
#define ERROR_BYTES 512

hb_replay_decision hb_replay_decide(const hb_run_options *options, hb_candidate_kind kind)
{
    if (options->aa || options->form == HB_FORM_CHOICE_LAUNCHER || kind != HB_CANDIDATE_LAUNCHER)
        return HB_REPLAY_SKIP;
    return options->isolate ? HB_REPLAY_RECORD : HB_REPLAY_NO_ISOLATE;
}

/* --- what the results record ---------------------------------------------------------------- */

static void record_of_plan(const hb_replay_plan *plan, hb_replay_record *out)
{
    out->refusal = plan->refusal;
    snprintf(out->reason, sizeof out->reason, "%s", plan->reason);
    out->kernels_per_call = hb_replay_kernels_per_call(plan);
    out->ops_per_call = plan->n_ops;
    out->prologue_ops = plan->n_prologue;
    out->allocs = plan->n_allocs;
    out->maps = plan->n_maps;
}

static void refuse_record(hb_replay_record *out, hb_replay_refusal refusal, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void refuse_record(hb_replay_record *out, hb_replay_refusal refusal, const char *format, ...)
{
    out->refusal = refusal;
    va_list ap;
    va_start(ap, format);
    vsnprintf(out->reason, sizeof out->reason, format, ap);
    va_end(ap);
}

/* --- the recording child ---------------------------------------------------------------------- */

typedef struct record_job {
    const hb_run_options *options;
    const hb_manifest *manifest;
    const hb_mnk *mnk;
    int sm;
    const char *folder;
    const char *library_sha256;
} record_job;

typedef struct record_state {
    const record_job *job;
    hb_launch_plan plan;
    hb_sample_timer timer;
    uint16_t *io_buffer[4];          /* A, B, B_col, C as the problem's (the launcher sees them unless it pads) */
    hb_gemm_io io, seen;
    hb_candidate_buffers buffers;
    int have_buffers;
    hb_replay_capture *capture;
    hb_launch_recorder *recorder;
    hb_launcher_library library;
    char error[ERROR_BYTES];
} record_state;

/* The problem's buffers and the candidate's, as the launcher participant
 * has them (bench/candidate/launcher_candidate.c), inputs filled. */
static hb_status create_buffers(record_state *s)
{
    const hb_mnk *c = s->job->mnk;
    const size_t sizes[4] = {(size_t)c->m * c->k, (size_t)c->k * c->n, (size_t)c->k * c->n, (size_t)c->m * c->n};
    for (int i = 0; i < 4; i++) {
        HB_CUDA_TRY(cudaMalloc((void **)&s->io_buffer[i], sizes[i] * sizeof(uint16_t)));
        HB_CUDA_TRY(cudaMemset(s->io_buffer[i], INPUT_FILL_BYTE, sizes[i] * sizeof(uint16_t)));
    }
    s->io = (hb_gemm_io){s->io_buffer[0], s->io_buffer[1], s->io_buffer[2], s->io_buffer[3], c->m, c->n, c->k};
    HB_TRY(hb_candidate_buffers_create(&s->plan, &s->buffers));
    s->have_buffers = 1;
    const long *p = s->buffers.padded;
    if (s->buffers.needs_padding) {
        HB_CUDA_TRY(cudaMemset(s->buffers.a, INPUT_FILL_BYTE, (size_t)p[0] * p[2] * sizeof(uint16_t)));
        HB_CUDA_TRY(cudaMemset(s->buffers.b, INPUT_FILL_BYTE, (size_t)p[2] * p[1] * sizeof(uint16_t)));
        HB_CUDA_TRY(cudaMemset(s->buffers.b_col, INPUT_FILL_BYTE, (size_t)p[2] * p[1] * sizeof(uint16_t)));
    }
    HB_CUDA_TRY(cudaDeviceSynchronize());
    s->seen = hb_candidate_buffers_io(&s->buffers, &s->io);
    return HB_OK;
}

/* What the analysis tells apart: the buffers the launcher is handed. */
static void describe_buffers(record_state *s)
{
    hb_replay_capture *c = s->capture;
    const hb_gemm_io *v = &s->seen;
    const uint64_t elements = sizeof(uint16_t);
    c->buffers[HB_TARGET_A] = (hb_capture_buffer){(uint64_t)(uintptr_t)v->a, (uint64_t)(v->m * v->k) * elements};
    c->buffers[HB_TARGET_B] = (hb_capture_buffer){(uint64_t)(uintptr_t)v->b, (uint64_t)(v->k * v->n) * elements};
    c->buffers[HB_TARGET_B_COL] = (hb_capture_buffer){(uint64_t)(uintptr_t)v->b_col, (uint64_t)(v->k * v->n) * elements};
    c->buffers[HB_TARGET_C] = (hb_capture_buffer){(uint64_t)(uintptr_t)v->c, (uint64_t)(v->m * v->n) * elements};
    c->buffers[HB_TARGET_WORKSPACE] =
        (hb_capture_buffer){(uint64_t)(uintptr_t)s->buffers.workspace, s->buffers.workspace ? s->buffers.workspace_bytes : 0};
    const hb_mnk *mnk = s->job->mnk;
    c->mnk[0] = mnk->m, c->mnk[1] = mnk->n, c->mnk[2] = mnk->k;
    c->padded[0] = v->m, c->padded[1] = v->n, c->padded[2] = v->k;
    c->sm = s->job->sm;
}

/* The device, the buffers, the recorder (before the library loads, so that
 * its constructors' modules and allocations are seen), the sandbox. */
static hb_status set_up(record_state *s)
{
    const record_job *job = s->job;
    hb_device_info device;
    HB_TRY(hb_device_open(job->options->device, &device));
    HB_TRY(hb_sample_timer_create(&s->timer, job->options->stream));
    HB_TRY(create_buffers(s));
    s->capture = hb_replay_capture_new();
    if (!s->capture)
        return HB_ERR_INTERNAL;
    describe_buffers(s);
    HB_TRY(hb_recorder_open(s->capture, s->timer.stream, &s->recorder));
    char sandbox[HB_CHILD_NOTE_SANDBOX];
    return hb_sandbox_enter(job->options, sandbox, sizeof sandbox);
}

/* A failure of the launcher's own code: the capture's refusal, in its words. */
static void launcher_failed(record_state *s, const char *when)
{
    hb_capture_refuse(s->capture, HB_REFUSE_FAILED, "the launcher failed %s: %.200s", when, hb_last_error());
}

static struct hgemm_launch_args call_args(record_state *s)
{
    struct hgemm_launch_args args = {
        .abi_version = HGEMM_LAUNCH_ABI_VERSION,
        .struct_size = sizeof args,
        .a = s->seen.a,
        .b = s->seen.b,
        .b_col = s->seen.b_col,
        .c = s->seen.c,
        .m = s->seen.m,
        .n = s->seen.n,
        .k = s->seen.k,
        .workspace = s->buffers.workspace,
        .workspace_bytes = s->buffers.workspace_bytes,
        .stream = s->timer.stream,
        .accumulator = s->job->manifest->accumulator == HB_ACC_FP16 ? HGEMM_LAUNCH_ACC_FP16 : HGEMM_LAUNCH_ACC_FP32,
        .error = s->error,
        .error_size = sizeof s->error,
    };
    return args;
}

/* One call between the recorder's marks, then everything it enqueued
 * finished (on any stream) and the error it left read. */
static hb_status one_call(record_state *s, int index)
{
    struct hgemm_launch_args args = call_args(s);
    hb_recorder_call_begin(s->recorder, index);
    hb_status status = hb_launcher_library_call(&s->library, &args);
    hb_recorder_call_end(s->recorder);
    cudaError_t done = cudaDeviceSynchronize();
    if (status == HB_OK && done != cudaSuccess)
        status = hb_fail(HB_ERR_CANDIDATE_FAULT, "the device failed after the call: %s (%s)", cudaGetErrorName(done),
                         cudaGetErrorString(done));
    if (status == HB_OK)
        status = hb_launcher_take_left_error(s->library.name, HB_LAUNCHER_AFTER_CALL);
    hb_heartbeat();
    return status;
}

/* The library loaded and HB_REPLAY_CALLS calls made under the recorder; a
 * failure is the capture's refusal, not the child's. */
static void run_launcher(record_state *s)
{
    hb_launcher_clear_last_error();
    if (hb_launcher_library_open(s->job->manifest, s->job->sm, &s->library) != HB_OK) {
        launcher_failed(s, "to load");
        return;
    }
    hb_heartbeat_phase(HB_PHASE_CANDIDATE);
    if (hb_launcher_take_left_error(s->library.name, HB_LAUNCHER_AT_LOAD) != HB_OK) {
        launcher_failed(s, "at load");
        return;
    }
    for (int i = 0; i < HB_REPLAY_CALLS; i++) {
        if (one_call(s, i) != HB_OK) {
            char when[32];
            snprintf(when, sizeof when, "in call %d", i + 1);
            launcher_failed(s, when);
            return;
        }
    }
}

/* The plan from the capture, written with its cubins (a refused one too: the record of why). */
static hb_status write_plan(record_state *s, hb_replay_record *out)
{
    hb_replay_plan *plan = hb_replay_plan_new();
    if (!plan)
        return HB_ERR_INTERNAL;
    const hb_replay_capture *c = s->capture;
    if (c->refusal != HB_REFUSE_NONE)
        hb_replay_refuse(plan, c->refusal, "%s", c->reason);
    else
        hb_replay_analyse(c, plan);
    memcpy(plan->mnk, c->mnk, sizeof plan->mnk);
    memcpy(plan->padded, c->padded, sizeof plan->padded);
    plan->sm = c->sm;
    plan->calls_recorded = c->calls;
    snprintf(plan->library_sha256, sizeof plan->library_sha256, "%s", s->job->library_sha256);
    const void *cubins[HB_REPLAY_MAX_MODULES] = {0};
    size_t sizes[HB_REPLAY_MAX_MODULES] = {0};
    for (uint32_t i = 0; i < plan->n_modules && i < HB_REPLAY_MAX_MODULES; i++)
        cubins[i] = hb_recorder_cubin(s->recorder, i, &sizes[i]);
    hb_status status = hb_replay_write(s->job->folder, plan, cubins, sizes);
    if (status == HB_OK)
        record_of_plan(plan, out);
    hb_replay_plan_free(plan);
    return status;
}

static void tear_down(record_state *s)
{
    hb_recorder_stop(s->recorder); /* before the library's destructors run */
    hb_launcher_library_close(&s->library);
    hb_recorder_close(s->recorder);
    hb_replay_capture_free(s->capture);
    if (s->have_buffers)
        hb_candidate_buffers_free(&s->buffers);
    for (int i = 0; i < 4; i++)
        if (s->io_buffer[i])
            (void)cudaFree(s->io_buffer[i]); /* the process ends next: a failure changes nothing */
    hb_sample_timer_destroy(&s->timer);
}

static hb_status record_in_child(void *context, void *result, size_t size)
{
    (void)size;
    static record_state state;
    record_state *s = &state;
    memset(s, 0, sizeof *s);
    s->job = context;
    hb_replay_record *out = result;
    hb_status status = hb_launch_plan_make(s->job->manifest, s->job->options->acc, s->job->mnk->m, s->job->mnk->n,
                                           s->job->mnk->k, &s->plan);
    if (status == HB_OK)
        status = set_up(s);
    if (status == HB_OK) {
        run_launcher(s);
        hb_recorder_stop(s->recorder);
        status = write_plan(s, out);
    }
    if (status != HB_OK)
        snprintf(out->reason, sizeof out->reason, "%s", hb_last_error());
    tear_down(s);
    return status;
}

/* --- the parent's side ------------------------------------------------------------------------ */

typedef struct replay_target {
    char folder[4096];
    char library_sha256[HB_SHA256_HEX];
} replay_target;

/* A replay of the same library, size and GPU already in the folder (not a
 * failed recording, which is tried again): 1 and the record filled. */
static int reuse(const replay_target *t, const hb_mnk *mnk, int sm, hb_replay_record *out)
{
    hb_replay_plan *plan = hb_replay_plan_new();
    if (!plan)
        return 0;
    const int quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(1); /* no replay there yet is the common case */
    const int read = hb_replay_read(t->folder, plan) == HB_OK;
    hb_diag_set_quiet(quiet);
    const int same = read && plan->mnk[0] == mnk->m && plan->mnk[1] == mnk->n && plan->mnk[2] == mnk->k &&
                     plan->sm == sm && !strcmp(plan->library_sha256, t->library_sha256) &&
                     plan->refusal != HB_REFUSE_FAILED;
    if (same)
        record_of_plan(plan, out);
    hb_replay_plan_free(plan);
    return same;
}

/* A recording that did not end with its plan written: the parent writes the refusal there. */
static void write_refusal(const replay_target *t, const hb_mnk *mnk, int sm, const hb_replay_record *record)
{
    hb_replay_plan *plan = hb_replay_plan_new();
    if (!plan)
        return;
    hb_replay_refuse(plan, record->refusal, "%s", record->reason);
    plan->mnk[0] = mnk->m, plan->mnk[1] = mnk->n, plan->mnk[2] = mnk->k;
    plan->sm = sm;
    snprintf(plan->library_sha256, sizeof plan->library_sha256, "%s", t->library_sha256);
    if (hb_replay_write(t->folder, plan, NULL, NULL) != HB_OK)
        hb_warn("%s", hb_last_error()); /* the results still say why; only the folder's record is missing */
    hb_replay_plan_free(plan);
}

/* The child's end made the record's refusal (HB_REFUSE_FAILED: never the configuration's error). */
static void settle_child(const hb_child_outcome *outcome, hb_replay_record *result, hb_replay_record *out)
{
    if (outcome->note[0])
        refuse_record(out, HB_REFUSE_FAILED, "the recording process made a call the sandbox refused: %.200s",
                      outcome->note);
    else if (outcome->end != HB_CHILD_RETURNED)
        refuse_record(out, HB_REFUSE_FAILED, "the recording process %.220s", outcome->message);
    else if (outcome->status != HB_OK)
        refuse_record(out, HB_REFUSE_FAILED, "the recording failed: %.220s", result->reason);
    else
        *out = *result;
    out->recorded = 1; /* the child's record says what it found; that a recording was made is this side's */
}

/* Whatever ends the recording badly is the record's refusal (HB_REFUSE_FAILED). */
static void record(const hb_run_options *o, const hb_manifest *manifest, const hb_mnk *mnk, int sm,
                   const replay_target *t, const hb_gpu_claim *claim, hb_replay_record *out, int *cut)
{
    if (hb_make_folders(t->folder, "replay folder") != HB_OK) {
        refuse_record(out, HB_REFUSE_FAILED, "%.240s", hb_last_error());
        return;
    }
    static hb_replay_record result;
    memset(&result, 0, sizeof result);
    record_job job = {o, manifest, mnk, sm, t->folder, t->library_sha256};
    hb_child_outcome outcome;
    hb_gpu_claim_take(claim);
    if (hb_run_isolated(record_in_child, &job, &result, sizeof result, o->timeout_s, &outcome) != HB_OK) {
        refuse_record(out, HB_REFUSE_FAILED, "the recording process could not be started: %.200s", hb_last_error());
        return;
    }
    if (outcome.end == HB_CHILD_INTERRUPTED) {
        *cut = 1;
        return;
    }
    settle_child(&outcome, &result, out);
    if (outcome.end != HB_CHILD_RETURNED || outcome.status != HB_OK || outcome.note[0])
        write_refusal(t, mnk, sm, out);
}

/* --- the pass ------------------------------------------------------------------------------------ */

/* The manifest of configuration `index`, or 0 when it cannot be read: the
 * evaluation then fails on it with its own message. */
static int manifest_of(const hb_run_options *o, const hb_mnk *mnk, hb_manifest *out)
{
    char path[HB_PATH_MAX];
    const int quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(1);
    const int read = hb_candidate_manifest_path(o->candidate_path, mnk->m, mnk->n, mnk->k, path) == HB_OK &&
                     hb_manifest_load(path, out) == HB_OK;
    hb_diag_set_quiet(quiet);
    return read;
}

/* Where the replay goes and the digest of the library it records; 0 when
 * the configuration cannot run at all (no library for this GPU, a size its
 * padding refuses): the evaluation says so, and nothing is recorded. */
static int target_of(const hb_run_options *o, const hb_manifest *manifest, const hb_mnk *mnk, int sm,
                     const char *run_path, replay_target *t)
{
    const hb_arch_file *library = hb_manifest_file_for(manifest, sm);
    hb_launch_plan plan;
    const int quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(1);
    const int runs = library && hb_launch_plan_make(manifest, o->acc, mnk->m, mnk->n, mnk->k, &plan) == HB_OK &&
                     hb_sha256_file_hex(library->path, t->library_sha256) == HB_OK;
    hb_diag_set_quiet(quiet);
    return runs && (size_t)snprintf(t->folder, sizeof t->folder, "%s/replay/%ld_%ld_%ld", run_path, mnk->m, mnk->n,
                                    mnk->k) < sizeof t->folder;
}

static void note(const hb_run_options *o, const hb_mnk *mnk, const hb_replay_record *rec, int reused)
{
    if (!o->verbose)
        return;
    if (rec->refusal == HB_REFUSE_NONE)
        fprintf(stderr, "hgemm-bench: M=%ld N=%ld K=%ld: replay %s (%u kernel(s) a call, %.2f s)\n", mnk->m, mnk->n,
                mnk->k, reused ? "used again" : "recorded", rec->kernels_per_call, rec->record_s);
    else
        fprintf(stderr, "hgemm-bench: M=%ld N=%ld K=%ld: no replay (%s: %s); the launcher is timed\n", mnk->m, mnk->n,
                mnk->k, hb_replay_refusal_name(rec->refusal), rec->reason);
}

hb_status hb_replay_prepare(const hb_run_options *options, const hb_device_info *device, const char *run_path,
                            size_t index, const hb_gpu_claim *claim, hb_config_result *r, char *folder, size_t size,
                            int *cut)
{
    const double start = hb_now_s();
    folder[0] = '\0';
    *cut = 0;
    const hb_mnk *mnk = &options->configs[index];
    static hb_manifest manifest;
    if (options->aa || options->form == HB_FORM_CHOICE_LAUNCHER || !manifest_of(options, mnk, &manifest)) {
        r->replay.recorded = 0;
        return HB_OK;
    }
    const hb_replay_decision decision = hb_replay_decide(options, manifest.kind);
    static replay_target target;
    if (decision == HB_REPLAY_SKIP ||
        (decision == HB_REPLAY_RECORD && (!device || !run_path ||
                                          !target_of(options, &manifest, mnk, device->sm, run_path, &target)))) {
        r->replay.recorded = 0;
        return HB_OK;
    }
    hb_replay_record *rec = &r->replay;
    memset(rec, 0, sizeof *rec);
    rec->recorded = 1;
    int reused = 0;
    if (decision == HB_REPLAY_NO_ISOLATE)
        refuse_record(rec, HB_REFUSE_UNSUPPORTED, "%s", HB_REPLAY_NO_ISOLATE_REASON);
    else if (!(reused = reuse(&target, mnk, device->sm, rec)))
        record(options, &manifest, mnk, device->sm, &target, claim, rec, cut);
    if (*cut)
        return HB_OK;
    rec->record_s = hb_now_s() - start;
    if (rec->refusal == HB_REFUSE_NONE) {
        snprintf(rec->folder, sizeof rec->folder, "%s", target.folder);
        snprintf(folder, size, "%s", target.folder);
        rec->form = HB_FORM_REPLAY;
    } else {
        rec->form = HB_FORM_LAUNCHER;
    }
    note(options, mnk, rec, reused);
    return HB_OK;
}

int hb_host_code_timed(const hb_run_options *options, size_t index, const hb_replay_record *recorded)
{
    static hb_manifest manifest;
    if (options->aa || recorded->form == HB_FORM_REPLAY)
        return 0;
    return manifest_of(options, &options->configs[index], &manifest) && manifest.kind == HB_CANDIDATE_LAUNCHER;
}

