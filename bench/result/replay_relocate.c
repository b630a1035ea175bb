#include "bench/result/replay_relocate.h"

#include <stdio.h>
#include <string.h>

#include "bench/result/library_kernel.h"

void hb_replay_short_name(const char *name, char *out, size_t size)
{
    if (strlen(name) < size) {
        snprintf(out, size, "%s", name);
        return;
    }
    snprintf(out, size, "%.*s...", (int)(size - 4), name);
}

int hb_replay_resolve(const hb_relocator *r, uint64_t value, uint64_t seq, hb_replay_pointer *out)
{
    const hb_replay_capture *capture = r->capture;
    for (int t = 0; t < HB_TARGET_ALLOC; t++) {
        const hb_capture_buffer *b = &capture->buffers[t];
        if (b->bytes && value >= b->base && value - b->base < b->bytes) {
            *out = (hb_replay_pointer){.target = (hb_replay_target)t, .alloc = 0, .offset = value - b->base};
            return 1;
        }
    }
    for (size_t i = 0; i < capture->n_allocs; i++) {
        const hb_capture_alloc *a = &capture->allocs[i];
        int live = a->seq < seq && (a->freed_seq == 0 || a->freed_seq > seq);
        if (live && value >= a->base && value - a->base < a->bytes) {
            *out = (hb_replay_pointer){.target = HB_TARGET_ALLOC, .alloc = (uint32_t)r->slot_of[i],
                                       .offset = value - a->base};
            return 1;
        }
    }
    return 0;
}

/* The kernel's name, short, for a reason. */
static const char *kernel_name(const hb_relocator *r, const hb_replay_kernel *k, char *out, size_t size)
{
    hb_replay_short_name(r->plan->functions[k->function].name, out, size);
    return out;
}

static uint64_t word_at(const unsigned char *bytes)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | bytes[i];
    return v;
}

static int same_pointer(const hb_replay_pointer *a, const hb_replay_pointer *b)
{
    return a->target == b->target && a->alloc == b->alloc && a->offset == b->offset;
}

/* Two encodings of one descriptor: the same arguments, the same relocated
 * global address (the bytes, which hold the raw address, may differ). */
static int same_map(const hb_replay_map *a, const hb_replay_map *b)
{
    return a->data_type == b->data_type && a->rank == b->rank && same_pointer(&a->global, &b->global) &&
           !memcmp(a->dims, b->dims, sizeof a->dims) && !memcmp(a->strides, b->strides, sizeof a->strides) &&
           !memcmp(a->box, b->box, sizeof a->box) &&
           !memcmp(a->element_strides, b->element_strides, sizeof a->element_strides) &&
           a->interleave == b->interleave && a->swizzle == b->swizzle && a->l2_promotion == b->l2_promotion &&
           a->oob_fill == b->oob_fill;
}

/* The plan's index of `map`, added when new; -1 when the plan is full (refused). */
static int plan_map(hb_replay_plan *plan, const hb_replay_map *map)
{
    for (uint32_t i = 0; i < plan->n_maps; i++)
        if (same_map(&plan->maps[i], map))
            return (int)i;
    if (plan->n_maps == HB_REPLAY_MAX_MAPS) {
        hb_replay_refuse(plan, HB_REFUSE_LIMIT, "more than %d distinct TMA descriptors (HB_REPLAY_MAX_MAPS)",
                         HB_REPLAY_MAX_MAPS);
        return -1;
    }
    plan->maps[plan->n_maps] = *map;
    return (int)plan->n_maps++;
}

/* Byte ranges of the parameters a map use covers: not scanned for pointers. */
static int in_map_use(const hb_replay_kernel *k, uint32_t at)
{
    for (uint32_t i = 0; i < k->n_maps; i++)
        if (at + 8 > k->maps[i].at && at < k->maps[i].at + HB_REPLAY_MAP_BYTES)
            return 1;
    return 0;
}

/* Every capture map whose encoded bytes lie whole at a 64-byte aligned offset. */
static int find_maps(const hb_relocator *r, const hb_capture_op *op, int call, uint32_t index, hb_replay_kernel *k)
{
    char name[64];
    for (size_t m = 0; m < r->capture->n_maps; m++) {
        const hb_capture_map *cm = &r->capture->maps[m];
        for (uint32_t at = 0; at + HB_REPLAY_MAP_BYTES <= k->param_bytes; at += 64) {
            if (in_map_use(k, at) || memcmp(k->params + at, cm->map.bytes, HB_REPLAY_MAP_BYTES))
                continue;
            hb_replay_map map = cm->map;
            if (!hb_replay_resolve(r, cm->address, op->seq, &map.global)) {
                hb_replay_refuse(r->plan, HB_REFUSE_UNKNOWN_POINTER,
                                 "call %d, op %u (%s): the TMA descriptor at byte %u has global address 0x%llx, in "
                                 "no buffer or live allocation",
                                 call + 1, index + 1, kernel_name(r, k, name, sizeof name), at,
                                 (unsigned long long)cm->address);
                return 0;
            }
            int i = plan_map(r->plan, &map);
            if (i < 0)
                return 0;
            if (k->n_maps == HB_REPLAY_MAX_MAPS) {
                hb_replay_refuse(r->plan, HB_REFUSE_LIMIT, "call %d, op %u (%s): more than %d TMA descriptors "
                                 "(HB_REPLAY_MAX_MAPS)", call + 1, index + 1, kernel_name(r, k, name, sizeof name),
                                 HB_REPLAY_MAX_MAPS);
                return 0;
            }
            k->maps[k->n_maps++] = (hb_replay_map_use){.at = at, .map = (uint32_t)i};
        }
    }
    return 1;
}

/* Map uses in parameter order, whichever call encoded which descriptor first. */
static void sort_map_uses(hb_replay_kernel *k)
{
    for (uint32_t i = 1; i < k->n_maps; i++)
        for (uint32_t j = i; j > 0 && k->maps[j - 1].at > k->maps[j].at; j--) {
            hb_replay_map_use t = k->maps[j];
            k->maps[j] = k->maps[j - 1];
            k->maps[j - 1] = t;
        }
}

static int device_word(const hb_capture_op *op, uint32_t at)
{
    uint32_t word = at / 8;
    return (op->device_words[word / 64] >> (word % 64)) & 1;
}

/* Every aligned word outside the map uses: a relocation when it resolves;
 * a device address the recording does not know refuses the plan. */
static int find_relocs(const hb_relocator *r, const hb_capture_op *op, int call, uint32_t index, hb_replay_kernel *k)
{
    char name[64];
    for (uint32_t at = 0; at + 8 <= k->param_bytes; at += 8) {
        if (in_map_use(k, at))
            continue;
        uint64_t value = word_at(k->params + at);
        hb_replay_pointer to;
        if (hb_replay_resolve(r, value, op->seq, &to)) {
            if (k->n_relocs == HB_REPLAY_MAX_RELOCS) {
                hb_replay_refuse(r->plan, HB_REFUSE_LIMIT, "call %d, op %u (%s): more than %d pointers in the "
                                 "parameters (HB_REPLAY_MAX_RELOCS)", call + 1, index + 1,
                                 kernel_name(r, k, name, sizeof name), HB_REPLAY_MAX_RELOCS);
                return 0;
            }
            /* Field by field: the struct's padding stays the zero memset put there (a plan is compared whole). */
            k->relocs[k->n_relocs].at = at;
            k->relocs[k->n_relocs++].to = to;
        } else if (device_word(op, at)) {
            hb_replay_refuse(r->plan, HB_REFUSE_UNKNOWN_POINTER,
                             "call %d, op %u (%s): the parameter word at byte %u is the device address 0x%llx, in "
                             "no buffer or allocation the recording knows", call + 1, index + 1,
                             kernel_name(r, k, name, sizeof name), at, (unsigned long long)value);
            return 0;
        }
    }
    return 1;
}

/* The recorded launch within the plan's limits and naming a kernel it has. */
static int kernel_fits(const hb_relocator *r, const hb_replay_kernel *k, int call, uint32_t index)
{
    hb_replay_plan *plan = r->plan;
    if (k->function >= plan->n_functions) {
        hb_replay_refuse(plan, HB_REFUSE_FAILED, "call %d, op %u: the recording names kernel %u of %u", call + 1,
                         index + 1, k->function, plan->n_functions);
        return 0;
    }
    const char *limit = k->param_bytes > HB_REPLAY_MAX_PARAM_BYTES ? "HB_REPLAY_MAX_PARAM_BYTES"
                        : k->n_params > HB_REPLAY_MAX_PARAMS      ? "HB_REPLAY_MAX_PARAMS"
                        : k->n_attrs > HB_REPLAY_MAX_ATTRS        ? "HB_REPLAY_MAX_ATTRS"
                                                                  : NULL;
    if (limit) {
        char name[64];
        hb_replay_refuse(plan, HB_REFUSE_LIMIT, "call %d, op %u (%s): over %s", call + 1, index + 1,
                         kernel_name(r, k, name, sizeof name), limit);
        return 0;
    }
    const char *family = hb_library_family(plan->functions[k->function].name);
    if (hb_is_library_kernel(plan->functions[k->function].name, NULL)) {
        char name[64];
        hb_replay_refuse(plan, HB_REFUSE_LIBRARY, "call %d, op %u: %s is a %s kernel: the library's, not the "
                         "launcher's", call + 1, index + 1, kernel_name(r, k, name, sizeof name),
                         family ? family : "library");
        return 0;
    }
    return 1;
}

static int relocate_kernel(const hb_relocator *r, const hb_capture_op *op, int call, uint32_t index, hb_replay_op *out)
{
    hb_replay_kernel *k = &out->u.kernel;
    *k = op->kernel;
    k->n_relocs = 0;
    k->n_maps = 0;
    memset(k->relocs, 0, sizeof k->relocs);
    memset(k->maps, 0, sizeof k->maps);
    if (!kernel_fits(r, k, call, index))
        return 0;
    memset(k->params + k->param_bytes, 0, sizeof k->params - k->param_bytes);
    if (!find_maps(r, op, call, index, k))
        return 0;
    sort_map_uses(k);
    return find_relocs(r, op, call, index, k);
}

static int relocate_address(const hb_relocator *r, const hb_capture_op *op, int call, uint32_t index,
                            const char *what, uint64_t value, hb_replay_pointer *out)
{
    if (hb_replay_resolve(r, value, op->seq, out))
        return 1;
    hb_replay_refuse(r->plan, HB_REFUSE_UNKNOWN_POINTER,
                     "call %d, op %u (%s): its %s 0x%llx is in no buffer or allocation the recording knows",
                     call + 1, index + 1, hb_replay_op_kind_name(op->kind), what, (unsigned long long)value);
    return 0;
}

int hb_replay_relocate_op(const hb_relocator *r, const hb_capture_op *op, int call, uint32_t index, hb_replay_op *out)
{
    memset(out, 0, sizeof *out);
    out->kind = op->kind;
    out->stream = op->stream;
    if (op->stream >= r->plan->n_streams) {
        hb_replay_refuse(r->plan, HB_REFUSE_FAILED, "call %d, op %u: the recording names stream %u of %u", call + 1,
                         index + 1, op->stream, r->plan->n_streams);
        return 0;
    }
    switch (op->kind) {
    case HB_OP_KERNEL:
        return relocate_kernel(r, op, call, index, out);
    case HB_OP_MEMSET:
        if (op->element_bytes != 1 && op->element_bytes != 2 && op->element_bytes != 4) {
            hb_replay_refuse(r->plan, HB_REFUSE_UNSUPPORTED, "call %d, op %u: a memset of %u-byte elements",
                             call + 1, index + 1, op->element_bytes);
            return 0;
        }
        out->u.memset.value = op->value;
        out->u.memset.element_bytes = op->element_bytes;
        out->u.memset.count = op->bytes;
        return relocate_address(r, op, call, index, "destination", op->dst, &out->u.memset.dst);
    case HB_OP_COPY:
        out->u.copy.bytes = op->bytes;
        return relocate_address(r, op, call, index, "destination", op->dst, &out->u.copy.dst) &&
               relocate_address(r, op, call, index, "source", op->src, &out->u.copy.src);
    }
    hb_replay_refuse(r->plan, HB_REFUSE_UNSUPPORTED, "call %d, op %u: an operation of kind %d", call + 1, index + 1,
                     (int)op->kind);
    return 0;
}
