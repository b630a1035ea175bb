/* What the results record of a candidate's form (docs/results.md, `form`):
 * a cubin; a launcher's replay; or a launcher's own host code, by choice
 * (--form launcher) or because it has no replay (and why).  Plain data. */
#ifndef HB_REPLAY_RECORD_H
#define HB_REPLAY_RECORD_H

#include "bench/result/replay_plan.h"

typedef enum hb_candidate_form {
    HB_FORM_NONE,      /* no candidate loaded yet, or --aa */
    HB_FORM_CUBIN,     /* a cubin candidate */
    HB_FORM_REPLAY,    /* a launcher's recorded launches, issued by the harness */
    HB_FORM_LAUNCHER   /* a launcher's own host code, sealed */
} hb_candidate_form;

/* "", "cubin", "replay", "launcher". */
const char *hb_candidate_form_name(hb_candidate_form form);

/* What --form asks of a launcher. */
typedef enum hb_form_choice {
    HB_FORM_CHOICE_REPLAY,   /* the replay where one exists, else the launcher (the default) */
    HB_FORM_CHOICE_LAUNCHER  /* its own host code */
} hb_form_choice;

typedef struct hb_replay_record {
    hb_candidate_form form;          /* the form that was timed */
    int recorded;                    /* 1: a recording was attempted (a launcher under --form replay) */
    hb_replay_refusal refusal;       /* why the launcher has no replay (HB_REFUSE_NONE: it has one, or not recorded) */
    char reason[256];                /* its words */
    unsigned kernels_per_call;       /* the replay's steady state */
    unsigned ops_per_call;           /* kernels, memsets and copies */
    unsigned prologue_ops;           /* the first call's, issued once at load */
    unsigned allocs;                 /* the launcher's own allocations the replay makes */
    unsigned maps;                   /* TMA descriptors re-encoded */
    double record_s;                 /* the recording's wall time (its process), seconds */
    char folder[4096];               /* where replay.json and its cubins are ("" when none) */
} hb_replay_record;

#endif
