#include "bench/result/replay_analysis.h"

/* STUB (issue 31, helper A replaces it). */
void hb_replay_analyse(const hb_replay_capture *capture, hb_replay_plan *plan)
{
    (void)capture;
    hb_replay_refuse(plan, HB_REFUSE_UNSUPPORTED, "the replay analysis is not built yet");
}
