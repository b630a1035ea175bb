#include "bench/candidate/launcher_candidate.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench/candidate/candidate_buffers.h"
#include "bench/candidate/candidate_row.h"
#include "bench/candidate/launch_plan.h"
#include "bench/candidate/launcher_left_error.h"
#include "bench/candidate/launcher_library.h"
#include "bench/core/diag.h"
#include "bench/core/heartbeat.h"
#include "bench/gpu/device_state.h"

#define ERROR_BYTES 512 /* the launcher's message buffer: a reason line holds about this much */

typedef struct launcher_impl {
    hb_candidate_buffers buffers; /* first: the shared ops read the impl as these (candidate_buffers.h) */
    hb_launcher_library library;
    int accumulator;         /* HGEMM_LAUNCH_ACC_* */
    hb_device_state device;  /* as the harness set it, before the library was loaded */
    int strayed_device;      /* the device a call left current (set back at once), -1 if none since after_call */
    cudaStream_t stream;     /* the last call's: after_call checks its access-policy window */
    char error[ERROR_BYTES];
} launcher_impl;

static struct hgemm_launch_args call_args(launcher_impl *impl, const hb_gemm_io *seen, cudaStream_t stream)
{
    struct hgemm_launch_args args = {
        .abi_version = HGEMM_LAUNCH_ABI_VERSION,
        .struct_size = sizeof args,
        .a = seen->a,
        .b = seen->b,
        .b_col = seen->b_col,
        .c = seen->c,
        .m = seen->m,
        .n = seen->n,
        .k = seen->k,
        .workspace = impl->buffers.workspace,
        .workspace_bytes = impl->buffers.workspace_bytes,
        .stream = stream,
        .accumulator = impl->accumulator,
        .error = impl->error,
        .error_size = sizeof impl->error,
    };
    return args;
}

/* The device state cannot be read or set back right after the launcher's
 * own code ran (it reset the device, say): the launcher's doing, a candidate
 * fault, not a harness error. */
static hb_status blame_launcher(const launcher_impl *impl, hb_status status)
{
    if (status == HB_OK)
        return HB_OK;
    char why[512];
    snprintf(why, sizeof why, "%s", hb_last_error());
    return hb_fail(HB_ERR_CANDIDATE_FAULT, "after a call of launcher %s the device state could not be read or set back: %s",
                   impl->library.name, why);
}

/* Timed: the call, then the current device checked (one cudaGetDevice) and
 * set back if the host code moved it, because the harness's stop event and
 * synchronize that follow must reach the device they belong to.  The stream
 * is kept for after_call, which reads its access-policy window. */
static hb_status launcher_launch(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    launcher_impl *impl = self->impl;
    const hb_gemm_io seen = hb_candidate_buffers_io(&impl->buffers, io);
    struct hgemm_launch_args args = call_args(impl, &seen, stream);
    impl->stream = stream;
    hb_status status = hb_launcher_library_call(&impl->library, &args);
    HB_TRY(blame_launcher(impl, hb_device_state_keep_device(&impl->device, &impl->strayed_device)));
    return status;
}

/* Untimed, after every call: the runtime's last error it left set is its
 * fault (read first: the device-state reads below clear errors of their
 * own); what the host code changed is set back; the first change found is
 * what the results say (participant.h). */
static hb_status launcher_after_call(hb_participant *self)
{
    launcher_impl *impl = self->impl;
    HB_TRY(hb_launcher_take_left_error(impl->library.name, HB_LAUNCHER_AFTER_CALL));
    char note[sizeof self->device_state];
    hb_status status = blame_launcher(impl, hb_device_state_restore(&impl->device, impl->strayed_device,
                                                                    impl->stream, note, sizeof note));
    impl->strayed_device = -1;
    if (note[0] && !self->device_state[0])
        snprintf(self->device_state, sizeof self->device_state, "%s", note);
    return status;
}

static void launcher_destroy(hb_participant *self)
{
    launcher_impl *impl = self->impl;
    if (!impl)
        return;
    hb_candidate_buffers_free(&impl->buffers);
    hb_launcher_library_close(&impl->library);
    free(impl);
    self->impl = NULL;
}

static const hb_participant_ops launcher_ops = {hb_candidate_prepare, hb_candidate_poison, launcher_launch,
                                                hb_candidate_collect, launcher_destroy,    launcher_after_call};

/* What its constructors left: the runtime's last error, and the device
 * synchronized (launcher_left_error.h).  The synchronize waits on work they
 * enqueued, so the heartbeat's phase is the candidate's meanwhile: a kernel
 * of theirs that never ends is the candidate's timeout. */
static hb_status constructors_left(const launcher_impl *impl)
{
    const hb_phase before = hb_heartbeat_current_phase();
    hb_heartbeat_phase(HB_PHASE_CANDIDATE);
    const hb_status status = hb_launcher_take_left_error(impl->library.name, HB_LAUNCHER_AT_LOAD);
    hb_heartbeat_phase(before);
    return status;
}

static hb_status setup(launcher_impl *impl, const hb_manifest *manifest, const hb_device_limits *limits,
                       hb_acc_class run_acc, long m, long n, long k)
{
    hb_launch_plan plan;
    HB_TRY(hb_launch_plan_make(manifest, run_acc, m, n, k, &plan));
    impl->accumulator = manifest->accumulator == HB_ACC_FP16 ? HGEMM_LAUNCH_ACC_FP16 : HGEMM_LAUNCH_ACC_FP32;
    impl->strayed_device = -1;
    HB_TRY(hb_device_state_read(&impl->device));
    hb_launcher_clear_last_error();
    HB_TRY(hb_launcher_library_open(manifest, limits->sm, &impl->library));
    HB_TRY(constructors_left(impl));
    return hb_candidate_buffers_create(&plan, &impl->buffers);
}

hb_status hb_launcher_participant_create(const hb_manifest *manifest, const hb_device_limits *limits,
                                         hb_acc_class run_acc, long m, long n, long k, hb_participant *out)
{
    HB_TRY(hb_candidate_participant_init(out, &launcher_ops, sizeof(launcher_impl)));
    launcher_impl *impl = out->impl;
    hb_status status = setup(impl, manifest, limits, run_acc, m, n, k);
    if (status != HB_OK) {
        launcher_destroy(out);
        return status;
    }
    hb_candidate_describe(manifest, &impl->buffers, &out->desc);
    return HB_OK;
}
