#include "bench/core/timing_policy.h"

#include <string.h>

const char *hb_mode_name(hb_mode mode)
{
    return mode == HB_MODE_SERVER ? "server" : "offline";
}

const char *hb_gap_name(hb_mode mode, hb_gap_placement gap)
{
    if (mode != HB_MODE_SERVER)
        return "none";
    return gap == HB_GAP_PER_ROUND ? "per-round" : "per-call";
}

static const char *const l2_names[] = {"fresh", "flush", "warm"};

const char *hb_l2_policy_name(hb_l2_policy policy)
{
    return l2_names[policy];
}

const char *hb_l2_policy_description(hb_l2_policy policy)
{
    switch (policy) {
    case HB_L2_FRESH: return "fresh: new N(0,1) inputs every round, generated on the GPU before the round, untimed";
    case HB_L2_FLUSH:
        return "flush: the same inputs, stirred before every round (one fresh element in every row of A and column "
               "of B); before every call a write of twice the L2 size evicts them, untimed";
    case HB_L2_WARM: break;
    }
    return "warm: the same inputs every round, stirred before it (one fresh element in every row of A and column "
           "of B, untimed); they may sit in L2 from the previous call";
}

int hb_mode_parse(const char *text, hb_mode *out)
{
    if (!strcmp(text, "offline") || !strcmp(text, "server")) {
        *out = !strcmp(text, "server") ? HB_MODE_SERVER : HB_MODE_OFFLINE;
        return 1;
    }
    return 0;
}

int hb_gap_parse(const char *text, hb_gap_placement *out)
{
    if (!strcmp(text, "per-call") || !strcmp(text, "per-round")) {
        *out = !strcmp(text, "per-round") ? HB_GAP_PER_ROUND : HB_GAP_PER_CALL;
        return 1;
    }
    return 0;
}

int hb_l2_policy_parse(const char *text, hb_l2_policy *out)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(text, l2_names[i])) {
            *out = (hb_l2_policy)i;
            return 1;
        }
    return 0;
}

const char *hb_stream_policy_name(hb_stream_policy policy)
{
    return policy == HB_STREAM_OWN ? "own" : "legacy";
}

int hb_stream_policy_parse(const char *text, hb_stream_policy *out)
{
    if (!strcmp(text, "legacy") || !strcmp(text, "own")) {
        *out = !strcmp(text, "own") ? HB_STREAM_OWN : HB_STREAM_LEGACY;
        return 1;
    }
    return 0;
}
