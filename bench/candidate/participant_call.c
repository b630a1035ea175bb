#include "bench/candidate/participant.h"

void hb_watch_call_begin(const hb_participant *p, hb_call_kind kind, long sample)
{
    if (p->watcher)
        p->watcher->call_begin(p->watcher->context, p, kind, sample);
}

void hb_watch_call_end(const hb_participant *p)
{
    if (p->watcher)
        p->watcher->call_end(p->watcher->context);
}

void hb_watch_call_timed(const hb_participant *p, double event_ms, double wall_ms)
{
    if (p->watcher && p->watcher->call_timed)
        p->watcher->call_timed(p->watcher->context, event_ms, wall_ms);
}

hb_status hb_participant_launch(hb_participant *p, const hb_gemm_io *io, cudaStream_t stream)
{
    const hb_call_watcher *w = p->watcher;
    if (w)
        w->launch_begin(w->context);
    hb_status status = p->ops->launch(p, io, stream);
    if (w)
        w->launch_end(w->context);
    return status;
}
