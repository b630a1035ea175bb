#include "bench/result/replay_plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

static const char *const target_names[HB_N_TARGETS] = {"a", "b", "b_col", "c", "workspace", "alloc"};

const char *hb_replay_target_name(hb_replay_target target)
{
    return (unsigned)target < HB_N_TARGETS ? target_names[target] : "?";
}

int hb_replay_target_of(const char *name)
{
    for (int i = 0; i < HB_N_TARGETS; i++)
        if (!strcmp(name, target_names[i]))
            return i;
    return -1;
}

const char *hb_replay_op_kind_name(hb_replay_op_kind kind)
{
    return kind == HB_OP_KERNEL ? "kernel" : kind == HB_OP_MEMSET ? "memset" : kind == HB_OP_COPY ? "copy" : "?";
}

static const char *const refusal_names[HB_N_REFUSALS] = {
    "", "calls-differ", "host-read", "library", "unknown-pointer", "unsupported", "limit", "no-launch", "failed",
};

const char *hb_replay_refusal_name(hb_replay_refusal refusal)
{
    return (unsigned)refusal < HB_N_REFUSALS ? refusal_names[refusal] : "?";
}

hb_replay_plan *hb_replay_plan_new(void)
{
    hb_replay_plan *plan = calloc(1, sizeof *plan);
    if (!plan)
        hb_fail(HB_ERR_INTERNAL, "out of memory for a replay plan (%zu bytes)", sizeof *plan);
    return plan;
}

void hb_replay_plan_free(hb_replay_plan *plan)
{
    free(plan);
}

void hb_replay_refuse(hb_replay_plan *plan, hb_replay_refusal refusal, const char *format, ...)
{
    if (plan->refusal != HB_REFUSE_NONE)
        return;
    plan->refusal = refusal;
    va_list ap;
    va_start(ap, format);
    vsnprintf(plan->reason, sizeof plan->reason, format, ap);
    va_end(ap);
}

uint32_t hb_replay_kernels_per_call(const hb_replay_plan *plan)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < plan->n_ops; i++)
        n += plan->ops[i].kind == HB_OP_KERNEL;
    return n;
}
