#include "bench/result/replay_record.h"

const char *hb_candidate_form_name(hb_candidate_form form)
{
    switch (form) {
    case HB_FORM_CUBIN:
        return "cubin";
    case HB_FORM_REPLAY:
        return "replay";
    case HB_FORM_LAUNCHER:
        return "launcher";
    default:
        return "";
    }
}
