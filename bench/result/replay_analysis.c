/* The replay analysis (replay_analysis.h): the driver.  Resolving addresses
 * and relocating one operation is replay_relocate.c's; whether two
 * operations are the same is replay_compare.c's.
 *
 * The launcher's allocations become the plan's slots (hb_replay_alloc):
 *
 * - kept (per_call 0): made before the first call (at load, by a
 *   constructor), or in the first call and not freed inside it: a buffer the
 *   launcher keeps across calls, made once at load;
 * - per call (per_call 1): made and freed inside one call.  Those of the
 *   steady calls (the second on) are matched across the calls by their order
 *   among that call's own allocations: the i-th of every steady call is one
 *   slot, and must be as many bytes in every one of them, else the calls
 *   differ.  A steady call's allocation that is never freed counts as per
 *   call too: the replay makes it once, where the launcher leaked one a
 *   call.  The first call's per-call allocations share the steady slot of
 *   their order when it is as large, else have slots of their own.
 *
 * Whether an allocation of the first call was freed inside it is told by
 * sequence: freed before anything of the second call was recorded.
 *
 * A pointer is resolved at the sequence of the operation that holds it: the
 * harness's buffers first, then the launcher's allocations live at that
 * moment, so an address reused by a later allocation resolves to the one
 * that held it then.
 *
 * Calls and operations are numbered from 1 in the reasons, as a reader
 * counts them ("call 3, op 1"); operations recorded before the first call
 * are "call 0"'s and lead the prologue. */
#include "bench/result/replay_analysis.h"

#include <stdlib.h>
#include <string.h>

#include "bench/result/replay_compare.h"
#include "bench/result/replay_relocate.h"

/* Everything of the capture the plan keeps as it is; 0 when a count is over a limit (refused). */
static int copy_tables(const hb_replay_capture *capture, hb_replay_plan *plan)
{
    memcpy(plan->mnk, capture->mnk, sizeof plan->mnk);
    memcpy(plan->padded, capture->padded, sizeof plan->padded);
    plan->sm = capture->sm;
    plan->calls_recorded = capture->calls;
    const char *limit = capture->n_modules > HB_REPLAY_MAX_MODULES       ? "HB_REPLAY_MAX_MODULES"
                        : capture->n_functions > HB_REPLAY_MAX_FUNCTIONS ? "HB_REPLAY_MAX_FUNCTIONS"
                        : capture->n_func_attrs > HB_REPLAY_MAX_FUNC_ATTRS ? "HB_REPLAY_MAX_FUNC_ATTRS"
                                                                           : NULL;
    if (limit) {
        hb_replay_refuse(plan, HB_REFUSE_LIMIT, "the launcher used more modules, kernels or kernel attributes than "
                         "%s allows (%u modules, %u kernels, %u attributes)", limit, capture->n_modules,
                         capture->n_functions, capture->n_func_attrs);
        return 0;
    }
    plan->n_modules = capture->n_modules;
    memcpy(plan->modules, capture->modules, capture->n_modules * sizeof *plan->modules);
    plan->n_functions = capture->n_functions;
    memcpy(plan->functions, capture->functions, capture->n_functions * sizeof *plan->functions);
    plan->n_func_attrs = capture->n_func_attrs;
    memcpy(plan->func_attrs, capture->func_attrs, capture->n_func_attrs * sizeof *plan->func_attrs);
    plan->n_streams = capture->n_streams;
    return 1;
}

/* A capture the recorder could not have made: a bug or damage, not the launcher's doing. */
static int capture_sane(const hb_replay_capture *capture, hb_replay_plan *plan)
{
    if (capture->n_ops > HB_CAPTURE_MAX_OPS || capture->n_allocs > HB_CAPTURE_MAX_ALLOCS ||
        capture->n_maps > HB_CAPTURE_MAX_MAPS || capture->n_streams > HB_CAPTURE_MAX_STREAMS ||
        capture->calls > HB_CAPTURE_MAX_CALLS) {
        hb_replay_refuse(plan, HB_REFUSE_FAILED, "the recording's counts are past its own limits (%zu operations, "
                         "%zu allocations, %zu descriptors, %u streams, %d calls)", capture->n_ops, capture->n_allocs,
                         capture->n_maps, capture->n_streams, capture->calls);
        return 0;
    }
    if (capture->calls < 2) {
        hb_replay_refuse(plan, HB_REFUSE_FAILED, "the recording made %d call%s: a replay needs the first and at least "
                         "one more", capture->calls, capture->calls == 1 ? "" : "s");
        return 0;
    }
    for (size_t i = 0; i < capture->n_allocs; i++)
        if (capture->allocs[i].call < -1 || capture->allocs[i].call >= capture->calls) {
            hb_replay_refuse(plan, HB_REFUSE_FAILED, "the recording's allocation %zu is of call %d of %d", i + 1,
                             capture->allocs[i].call, capture->calls);
            return 0;
        }
    return 1;
}

/* The sequence at which call `call` began: the first thing recorded in it or after. */
static uint64_t call_start(const hb_replay_capture *capture, int call)
{
    uint64_t start = UINT64_MAX;
    for (size_t i = 0; i < capture->n_ops; i++)
        if (capture->ops[i].call >= call && capture->ops[i].seq < start)
            start = capture->ops[i].seq;
    for (size_t i = 0; i < capture->n_allocs; i++)
        if (capture->allocs[i].call >= call && capture->allocs[i].seq < start)
            start = capture->allocs[i].seq;
    return start;
}

static int new_slot(hb_replay_plan *plan, uint64_t bytes, int per_call)
{
    if (plan->n_allocs == HB_REPLAY_MAX_ALLOCS) {
        hb_replay_refuse(plan, HB_REFUSE_LIMIT, "the launcher made more than %d allocations (HB_REPLAY_MAX_ALLOCS)",
                         HB_REPLAY_MAX_ALLOCS);
        return -1;
    }
    plan->allocs[plan->n_allocs] = (hb_replay_alloc){.bytes = bytes, .per_call = per_call};
    return (int)plan->n_allocs++;
}

/* The steady calls' own allocations: slots by order in call 2 (index 1), checked in the others. */
static int steady_slots(const hb_replay_capture *capture, hb_replay_plan *plan, int *slot_of, int *steady,
                        uint32_t *n_steady)
{
    *n_steady = 0;
    for (size_t i = 0; i < capture->n_allocs; i++)
        if (capture->allocs[i].call == 1) {
            if ((slot_of[i] = new_slot(plan, capture->allocs[i].bytes, 1)) < 0)
                return 0;
            steady[(*n_steady)++] = (int)i;
        }
    for (int call = 2; call < capture->calls; call++) {
        uint32_t n = 0;
        for (size_t i = 0; i < capture->n_allocs; i++) {
            const hb_capture_alloc *a = &capture->allocs[i];
            if (a->call != call)
                continue;
            if (n < *n_steady && a->bytes != capture->allocs[steady[n]].bytes) {
                hb_replay_refuse(plan, HB_REFUSE_CALLS_DIFFER, "call %d's allocation %u is %llu bytes, call %d's is "
                                 "%llu", call + 1, n + 1, (unsigned long long)a->bytes, call,
                                 (unsigned long long)capture->allocs[steady[n]].bytes);
                return 0;
            }
            if (n < *n_steady)
                slot_of[i] = slot_of[steady[n]];
            n++;
        }
        if (n != *n_steady) {
            hb_replay_refuse(plan, HB_REFUSE_CALLS_DIFFER, "call %d made %u allocations of its own, call %d made %u",
                             call + 1, n, call, *n_steady);
            return 0;
        }
    }
    return 1;
}

/* Every allocation's slot (the rule in the comment at the top); 0 when refused. */
static int assign_slots(const hb_replay_capture *capture, hb_replay_plan *plan, int *slot_of)
{
    uint64_t second_call = call_start(capture, 1);
    for (size_t i = 0; i < capture->n_allocs; i++) {
        const hb_capture_alloc *a = &capture->allocs[i];
        int freed_in_first = a->call == 0 && a->freed_seq != 0 && a->freed_seq < second_call;
        slot_of[i] = -1;
        if ((a->call == -1 || (a->call == 0 && !freed_in_first)) && (slot_of[i] = new_slot(plan, a->bytes, 0)) < 0)
            return 0;
    }
    int steady[HB_CAPTURE_MAX_ALLOCS];
    uint32_t n_steady, n_first = 0;
    if (!steady_slots(capture, plan, slot_of, steady, &n_steady))
        return 0;
    for (size_t i = 0; i < capture->n_allocs; i++) {
        if (capture->allocs[i].call != 0 || slot_of[i] >= 0)
            continue;
        uint32_t order = n_first++;
        if (order < n_steady && capture->allocs[steady[order]].bytes == capture->allocs[i].bytes)
            slot_of[i] = slot_of[steady[order]];
        else if ((slot_of[i] = new_slot(plan, capture->allocs[i].bytes, 1)) < 0)
            return 0;
    }
    return 1;
}

/* Indices of operations in sequence order (a few hundred at most). */
static void sort_by_seq(const hb_capture_op *ops, size_t *order, size_t count)
{
    for (size_t i = 1; i < count; i++)
        for (size_t j = i; j > 0 && ops[order[j - 1]].seq > ops[order[j]].seq; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* The operations of one call, relocated, in the order they were made, after the `*n` already in `out`. */
static int relocate_call(const hb_relocator *r, int call, hb_replay_op *out, uint32_t *n, uint32_t limit)
{
    const hb_replay_capture *capture = r->capture;
    size_t order[HB_CAPTURE_MAX_OPS], count = 0;
    for (size_t i = 0; i < capture->n_ops; i++)
        if (capture->ops[i].call == call)
            order[count++] = i;
    if (*n + count > limit) {
        hb_replay_refuse(r->plan, HB_REFUSE_LIMIT, "call %d made %zu operations, more than %u (%s)", call + 1,
                         *n + count, limit, limit == HB_REPLAY_MAX_OPS ? "HB_REPLAY_MAX_OPS" : "HB_REPLAY_MAX_PROLOGUE_OPS");
        return 0;
    }
    sort_by_seq(capture->ops, order, count);
    for (size_t i = 0; i < count; i++, (*n)++)
        if (!hb_replay_relocate_op(r, &capture->ops[order[i]], call, (uint32_t)i, &out[*n]))
            return 0;
    return 1;
}

static uint32_t kernels_in(const hb_replay_op *ops, uint32_t n)
{
    uint32_t kernels = 0;
    for (uint32_t i = 0; i < n; i++)
        kernels += ops[i].kind == HB_OP_KERNEL;
    return kernels;
}

/* 1 when `ops` (call `call`) are the steady state's; else 0 and, when `refuse`, the plan refused naming the first difference. */
static int same_as_steady(hb_replay_plan *plan, int call, const hb_replay_op *ops, uint32_t n, int refuse)
{
    uint32_t kernels = kernels_in(ops, n), steady = kernels_in(plan->ops, plan->n_ops);
    if (n != plan->n_ops) {
        if (!refuse)
            return 0;
        if (kernels != steady)
            hb_replay_refuse(plan, HB_REFUSE_CALLS_DIFFER, "call %d launched %u kernel%s, call %d launched %u",
                             call + 1, kernels, kernels == 1 ? "" : "s", call, steady);
        else
            hb_replay_refuse(plan, HB_REFUSE_CALLS_DIFFER, "call %d made %u operations, call %d made %u", call + 1, n,
                             call, plan->n_ops);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        char why[200];
        if (hb_replay_op_differs(plan, &ops[i], &plan->ops[i], why, sizeof why)) {
            if (refuse)
                hb_replay_refuse(plan, HB_REFUSE_CALLS_DIFFER, "call %d, op %u: %s", call + 1, i + 1, why);
            return 0;
        }
    }
    return 1;
}

static int launched(hb_replay_plan *plan, int call, const hb_replay_op *ops, uint32_t n)
{
    if (kernels_in(ops, n))
        return 1;
    hb_replay_refuse(plan, HB_REFUSE_NO_LAUNCH, "call %d launched no kernel (%u other operation%s)", call + 1, n,
                     n == 1 ? "" : "s");
    return 0;
}

/* Call 2 as the steady state, every later call held to it. */
static int steady_state(const hb_relocator *r, hb_replay_op *scratch)
{
    hb_replay_plan *plan = r->plan;
    if (!relocate_call(r, 1, plan->ops, &plan->n_ops, HB_REPLAY_MAX_OPS) || !launched(plan, 1, plan->ops, plan->n_ops))
        return 0;
    for (int call = 2; call < r->capture->calls; call++) {
        uint32_t n = 0;
        if (!relocate_call(r, call, scratch, &n, HB_REPLAY_MAX_OPS) || !launched(plan, call, scratch, n) ||
            !same_as_steady(plan, call, scratch, n, 1))
            return 0;
    }
    return 1;
}

/* What was recorded before the first call, then the first call; none when that is just the steady state. */
static int prologue(const hb_relocator *r)
{
    hb_replay_plan *plan = r->plan;
    uint32_t n_before = 0;
    if (!relocate_call(r, -1, plan->prologue, &n_before, HB_REPLAY_MAX_PROLOGUE_OPS))
        return 0;
    plan->n_prologue = n_before;
    if (!relocate_call(r, 0, plan->prologue, &plan->n_prologue, HB_REPLAY_MAX_PROLOGUE_OPS))
        return 0;
    if (n_before == 0 && same_as_steady(plan, 0, plan->prologue, plan->n_prologue, 0))
        plan->n_prologue = 0;
    return 1;
}

static void analyse(const hb_replay_capture *capture, hb_replay_plan *plan)
{
    int slot_of[HB_CAPTURE_MAX_ALLOCS];
    if (!capture_sane(capture, plan) || !assign_slots(capture, plan, slot_of))
        return;
    hb_replay_op *scratch = calloc(HB_REPLAY_MAX_OPS, sizeof *scratch);
    if (!scratch) {
        hb_replay_refuse(plan, HB_REFUSE_FAILED, "out of memory for the replay analysis");
        return;
    }
    hb_relocator r = {.capture = capture, .slot_of = slot_of, .plan = plan};
    if (steady_state(&r, scratch))
        prologue(&r);
    free(scratch);
}

void hb_replay_analyse(const hb_replay_capture *capture, hb_replay_plan *plan)
{
    if (!copy_tables(capture, plan))
        return;
    if (capture->refusal != HB_REFUSE_NONE) {
        hb_replay_refuse(plan, capture->refusal, "%s", capture->reason);
        return;
    }
    analyse(capture, plan);
    if (plan->refusal != HB_REFUSE_NONE)
        plan->n_ops = plan->n_prologue = 0;
}
