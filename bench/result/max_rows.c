#include "bench/result/max_rows.h"

#include <stdio.h>

#include "bench/result/baseline_registry.h"
#include "bench/result/gate.h"

static void add_max_row(hb_config_result *r, const hb_max_pair *pair)
{
    const hb_participant_result *nn = hb_find_participant(r, pair->nn);
    const hb_participant_result *tn = hb_find_participant(r, pair->tn);
    if (!nn || !tn || hb_find_participant(r, pair->name) || r->count >= HB_MAX_PARTICIPANTS)
        return;
    /* Ties go to NN, the layout the paper finds slightly faster. */
    const hb_participant_result *faster =
        hb_headline_times(r, tn)->median < hb_headline_times(r, nn)->median ? tn : nn;
    hb_participant_result *row = &r->participants[r->count++];
    *row = *faster;
    snprintf(row->name, sizeof row->name, "%s", pair->name);
    snprintf(row->max_of, sizeof row->max_of, "%s", faster->name);
}

void hb_add_max_rows(hb_config_result *r)
{
    if (!r->measured)
        return;
    for (size_t i = 0; i < hb_max_pair_count(); i++) {
        hb_max_pair pair = hb_max_pair_at(i);
        add_max_row(r, &pair);
    }
}
