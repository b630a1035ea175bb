#include "bench/candidate/replay_candidate.h"

#include "bench/core/diag.h"

/* STUB (issue 31, helper C replaces it). */
hb_status hb_replay_participant_create(const hb_manifest *manifest, const char *folder,
                                       const hb_device_limits *limits, hb_acc_class run_acc, long m, long n, long k,
                                       hb_participant *out)
{
    (void)manifest, (void)limits, (void)run_acc, (void)m, (void)n, (void)k, (void)out;
    return hb_fail(HB_ERR_INTERNAL, "%s: the replay participant is not built yet", folder);
}
