#include "bench/result/replay_capture.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/core/diag.h"

hb_replay_capture *hb_replay_capture_new(void)
{
    hb_replay_capture *capture = calloc(1, sizeof *capture);
    if (!capture)
        hb_fail(HB_ERR_INTERNAL, "out of memory for a launch capture (%zu bytes)", sizeof *capture);
    return capture;
}

void hb_replay_capture_free(hb_replay_capture *capture)
{
    free(capture);
}

void hb_capture_refuse(hb_replay_capture *capture, hb_replay_refusal refusal, const char *format, ...)
{
    if (capture->refusal != HB_REFUSE_NONE)
        return;
    capture->refusal = refusal;
    va_list ap;
    va_start(ap, format);
    vsnprintf(capture->reason, sizeof capture->reason, format, ap);
    va_end(ap);
}
