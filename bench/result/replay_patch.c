#include "bench/result/replay_patch.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"

uint64_t hb_replay_address(const hb_replay_bases *bases, const hb_replay_pointer *pointer)
{
    if (pointer->target == HB_TARGET_ALLOC)
        return (pointer->alloc < bases->n_allocs ? bases->allocs[pointer->alloc] : 0) + pointer->offset;
    if ((unsigned)pointer->target < HB_TARGET_ALLOC)
        return bases->target[pointer->target] + pointer->offset;
    return pointer->offset;
}

void hb_replay_patch_params(const hb_replay_kernel *kernel, const hb_replay_bases *bases,
                            const unsigned char (*maps)[HB_REPLAY_MAP_BYTES], unsigned char *out)
{
    memcpy(out, kernel->params, kernel->param_bytes);
    for (uint32_t i = 0; i < kernel->n_relocs; i++) {
        const uint64_t address = hb_replay_address(bases, &kernel->relocs[i].to);
        /* memcpy: a pointer may sit at any byte of a packed parameter struct.
         * x86-64 and the GPU are both little-endian, so the host's bytes are
         * the bytes the kernel reads. */
        memcpy(out + kernel->relocs[i].at, &address, sizeof address);
    }
    for (uint32_t i = 0; i < kernel->n_maps; i++)
        memcpy(out + kernel->maps[i].at, maps[kernel->maps[i].map], HB_REPLAY_MAP_BYTES);
}

/* Where a check stands: the label, the list ("prologue" or "steady state")
 * and the operation, for the message. */
typedef struct bounds_walk {
    const hb_replay_plan *plan;
    const hb_replay_sizes *sizes;
    const char *label;
    const char *list;
    uint32_t op;
} bounds_walk;

static uint64_t target_bytes(const bounds_walk *w, const hb_replay_pointer *p)
{
    if (p->target == HB_TARGET_ALLOC)
        return p->alloc < w->plan->n_allocs ? w->plan->allocs[p->alloc].bytes : 0;
    return (unsigned)p->target < HB_TARGET_ALLOC ? w->sizes->target[p->target] : 0;
}

static void target_text(const hb_replay_pointer *p, char *out, size_t size)
{
    if (p->target == HB_TARGET_ALLOC)
        snprintf(out, size, "allocation %" PRIu32, p->alloc);
    else
        snprintf(out, size, "%s", hb_replay_target_name(p->target));
}

/* `extent` bytes from p (0: p itself must point inside). */
static hb_status check_pointer(const bounds_walk *w, const hb_replay_pointer *p, uint64_t extent, const char *what)
{
    const uint64_t size = target_bytes(w, p);
    const int inside = extent == 0 ? p->offset < size : p->offset <= size && extent <= size - p->offset;
    if (inside)
        return HB_OK;
    char target[32];
    target_text(p, target, sizeof target);
    return hb_fail(HB_ERR_BAD_INPUT,
                   "replay %s: %s operation %" PRIu32 ": %s reaches byte %" PRIu64 " of %s, which is %" PRIu64
                   " bytes; the replay was recorded for other buffers (delete the folder to record it again)",
                   w->label, w->list, w->op, what, p->offset + (extent ? extent : 1), target, size);
}

static hb_status check_kernel(const bounds_walk *w, const hb_replay_kernel *k)
{
    char what[64];
    for (uint32_t i = 0; i < k->n_relocs; i++) {
        snprintf(what, sizeof what, "the pointer at parameter byte %" PRIu32, k->relocs[i].at);
        HB_TRY(check_pointer(w, &k->relocs[i].to, 0, what));
    }
    for (uint32_t i = 0; i < k->n_maps; i++) {
        if (k->maps[i].map >= w->plan->n_maps)
            return hb_fail(HB_ERR_BAD_INPUT, "replay %s: %s operation %" PRIu32 " uses TMA descriptor %" PRIu32
                           " of %" PRIu32, w->label, w->list, w->op, k->maps[i].map, w->plan->n_maps);
        snprintf(what, sizeof what, "the TMA descriptor at parameter byte %" PRIu32, k->maps[i].at);
        HB_TRY(check_pointer(w, &w->plan->maps[k->maps[i].map].global, 0, what));
    }
    return HB_OK;
}

static hb_status check_op(const bounds_walk *w, const hb_replay_op *op)
{
    switch (op->kind) {
    case HB_OP_KERNEL:
        return check_kernel(w, &op->u.kernel);
    case HB_OP_MEMSET: {
        const hb_replay_memset *s = &op->u.memset;
        if (s->count > UINT64_MAX / 4)
            return hb_fail(HB_ERR_BAD_INPUT, "replay %s: %s operation %" PRIu32 ": a memset of %" PRIu64 " elements",
                           w->label, w->list, w->op, s->count);
        return check_pointer(w, &s->dst, s->count * s->element_bytes, "the memset");
    }
    case HB_OP_COPY:
        HB_TRY(check_pointer(w, &op->u.copy.dst, op->u.copy.bytes, "the copy's destination"));
        return check_pointer(w, &op->u.copy.src, op->u.copy.bytes, "the copy's source");
    }
    return hb_fail(HB_ERR_BAD_INPUT, "replay %s: %s operation %" PRIu32 " is of no known kind", w->label, w->list,
                   w->op);
}

static hb_status check_list(bounds_walk *w, const char *list, const hb_replay_op *ops, uint32_t n)
{
    w->list = list;
    for (w->op = 0; w->op < n; w->op++)
        HB_TRY(check_op(w, &ops[w->op]));
    return HB_OK;
}

hb_status hb_replay_check_bounds(const hb_replay_plan *plan, const hb_replay_sizes *sizes, const char *label)
{
    bounds_walk w = {.plan = plan, .sizes = sizes, .label = label};
    HB_TRY(check_list(&w, "prologue", plan->prologue, plan->n_prologue));
    return check_list(&w, "steady-state", plan->ops, plan->n_ops);
}
