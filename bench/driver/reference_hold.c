#include "bench/driver/reference_hold.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Each baseline's reference medians into its row, for summary.csv. */
static void record_medians(const hb_baseline_reference *ref, hb_config_result *r, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        hb_participant_result *p = &r->participants[i];
        const hb_baseline_figures *clean = p->is_candidate ? NULL : hb_reference_find(ref, p->name);
        p->reference.held = clean != NULL;
        for (int f = 0; f < HB_REF_FIGURES; f++)
            p->reference.median_us[f] = clean && clean->timer[f].n ? clean->timer[f].median_us : NAN;
    }
}

hb_status hb_hold_baselines(const hb_held_reference *held, hb_config_result *r, const hb_watched *watched,
                            size_t count, hb_check_failure *failure)
{
    if (!held)
        return HB_OK;
    static hb_baseline_figures seen[HB_MAX_PARTICIPANTS]; /* 4 KB each: off the stack */
    size_t n = 0;
    for (size_t i = 0; i < count && i < HB_MAX_PARTICIPANTS; i++)
        if (!r->participants[i].is_candidate) /* --aa's copy is the candidate: not held */
            hb_baseline_figures_of(&r->participants[i], watched ? &watched[i] : NULL, r->rounds, &seen[n++]);
    static hb_ref_judgement judgement;
    hb_judge_baselines(held, seen, n, &judgement);
    record_medians(&held->reference, r, count);
    hb_reference_record *record = &r->baseline_reference;
    record->judged = 1;
    record->held = judgement.held;
    record->worst_ratio = judgement.worst_ratio;
    snprintf(record->worst, sizeof record->worst, "%s", judgement.worst);
    snprintf(record->not_held, sizeof record->not_held, "%s", judgement.not_held);
    if (!judgement.interfered)
        return HB_OK;
    return hb_check_failed(failure, HB_ERR_BASELINE_INTERFERENCE, judgement.check, "%s", judgement.reason);
}
