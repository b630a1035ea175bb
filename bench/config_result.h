/* Everything measured or decided for one configuration: what the report
 * writers read.  Plain data, so the writers are testable without a GPU. */
#ifndef HB_CONFIG_RESULT_H
#define HB_CONFIG_RESULT_H

#include "../verify/deviation_check.h"
#include "cli.h"
#include "measure.h"
#include "stats.h"

typedef struct hb_participant_result {
    char name[64];
    int is_candidate;
    hb_participant_desc desc;
    hb_deviation deviation;          /* vs the fp32 reference, before timing */
    hb_time_summary event_ms;        /* CUDA-event times, milliseconds */
    hb_time_summary wall_ms;         /* host wall times, milliseconds */
    /* Candidate over this participant (baselines only): paired per round. */
    hb_speedup_summary speedup_event;
    hb_speedup_summary speedup_wall;
} hb_participant_result;

typedef struct hb_config_result {
    hb_mnk mnk;
    hb_status verdict;               /* HB_OK: checked and measured */
    char reason[512];                /* one line, when verdict != HB_OK */
    char manifest_path[4096];
    int checked;                     /* the deviation check ran */
    double deviation_bound;
    int measured;                    /* timing windows ran */
    size_t rounds;
    size_t count;
    hb_participant_result participants[HB_MAX_PARTICIPANTS];
} hb_config_result;

#endif
