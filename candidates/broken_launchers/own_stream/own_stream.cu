// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: launches on a stream of its own, not on args->stream.  The stream is
// created once, when the library is loaded (a constructor), so that the calls
// differ from a correct launcher's in that one respect.  It is non-blocking,
// so it does not wait for the legacy default stream either: the timed events
// (on args->stream, cudaStreamLegacy or the harness's own) see nothing of its
// kernel, while the harness's device-wide synchronize, and so the wall time,
// does.
// Correct otherwise (the sample_simple product): verdict "pass"; the trace
// pass reports conduct "other-stream".
#include "../launcher_common.cuh"

static cudaStream_t own_stream;  // FAULT: where every call launches
static cudaError_t own_stream_error = cudaErrorNotReady;

__attribute__((constructor)) static void create_own_stream(void)
{
    own_stream_error = cudaStreamCreateWithFlags(&own_stream, cudaStreamNonBlocking);
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (own_stream_error != cudaSuccess) return launcher_cuda_failure(args, "cudaStreamCreateWithFlags", own_stream_error);
    return launch_simple_or_fail(args, own_stream);  // FAULT: not args->stream
}
