#include "bench/result/replay_compare.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/result/replay_relocate.h"

static int say(char *why, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

static int say(char *why, size_t size, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, size, format, ap);
    va_end(ap);
    return 1;
}

static void pointer_text(const hb_replay_pointer *p, char *out, size_t size)
{
    if (p->target == HB_TARGET_ALLOC)
        snprintf(out, size, "alloc %u + %llu", p->alloc, (unsigned long long)p->offset);
    else
        snprintf(out, size, "%s + %llu", hb_replay_target_name(p->target), (unsigned long long)p->offset);
}

static int pointer_differs(const char *what, const hb_replay_pointer *a, const hb_replay_pointer *b, char *why,
                           size_t size)
{
    if (a->target == b->target && a->alloc == b->alloc && a->offset == b->offset)
        return 0;
    char ta[64], tb[64];
    pointer_text(a, ta, sizeof ta);
    pointer_text(b, tb, sizeof tb);
    return say(why, size, "%s %s against %s", what, ta, tb);
}

static int dim3_differs(const char *what, const uint32_t *a, const uint32_t *b, char *why, size_t size)
{
    if (!memcmp(a, b, 3 * sizeof *a))
        return 0;
    return say(why, size, "%s %ux%ux%u against %ux%ux%u", what, a[0], a[1], a[2], b[0], b[1], b[2]);
}

static int launch_differs(const hb_replay_plan *plan, const hb_replay_kernel *a, const hb_replay_kernel *b, char *why,
                          size_t size)
{
    if (a->function != b->function) {
        char na[64], nb[64];
        hb_replay_short_name(plan->functions[a->function].name, na, sizeof na);
        hb_replay_short_name(plan->functions[b->function].name, nb, sizeof nb);
        return say(why, size, "kernel %s against %s", na, nb);
    }
    if (dim3_differs("grid", a->grid, b->grid, why, size) || dim3_differs("block", a->block, b->block, why, size))
        return 1;
    if (a->smem != b->smem)
        return say(why, size, "dynamic shared memory %u bytes against %u", a->smem, b->smem);
    if (a->n_attrs != b->n_attrs)
        return say(why, size, "%u launch attributes against %u", a->n_attrs, b->n_attrs);
    for (uint32_t i = 0; i < a->n_attrs; i++)
        if (a->attrs[i].id != b->attrs[i].id || memcmp(a->attrs[i].value, b->attrs[i].value, sizeof a->attrs[i].value))
            return say(why, size, "launch attribute %u (id %u against %u, or its value)", i + 1, a->attrs[i].id,
                       b->attrs[i].id);
    if (a->n_params != b->n_params || a->param_bytes != b->param_bytes ||
        memcmp(a->param_offset, b->param_offset, a->n_params * sizeof *a->param_offset) ||
        memcmp(a->param_size, b->param_size, a->n_params * sizeof *a->param_size))
        return say(why, size, "parameter layout (%u parameters, %u bytes, against %u, %u bytes)", a->n_params,
                   a->param_bytes, b->n_params, b->param_bytes);
    return 0;
}

static int relocs_differ(const hb_replay_kernel *a, const hb_replay_kernel *b, char *why, size_t size)
{
    if (a->n_relocs != b->n_relocs)
        return say(why, size, "%u pointers in the parameters against %u", a->n_relocs, b->n_relocs);
    for (uint32_t i = 0; i < a->n_relocs; i++) {
        if (a->relocs[i].at != b->relocs[i].at)
            return say(why, size, "a pointer at parameter byte %u against %u", a->relocs[i].at, b->relocs[i].at);
        char what[48];
        snprintf(what, sizeof what, "the pointer at parameter byte %u:", a->relocs[i].at);
        if (pointer_differs(what, &a->relocs[i].to, &b->relocs[i].to, why, size))
            return 1;
    }
    if (a->n_maps != b->n_maps)
        return say(why, size, "%u TMA descriptors against %u", a->n_maps, b->n_maps);
    for (uint32_t i = 0; i < a->n_maps; i++)
        if (a->maps[i].at != b->maps[i].at || a->maps[i].map != b->maps[i].map)
            return say(why, size, "TMA descriptor %u at parameter byte %u against %u at %u", a->maps[i].map,
                       a->maps[i].at, b->maps[i].map, b->maps[i].at);
    return 0;
}

/* Whether parameter byte `at` is one a relocation or map use covers. */
static int patched(const hb_replay_kernel *k, uint32_t at)
{
    for (uint32_t i = 0; i < k->n_relocs; i++)
        if (at >= k->relocs[i].at && at < k->relocs[i].at + 8)
            return 1;
    for (uint32_t i = 0; i < k->n_maps; i++)
        if (at >= k->maps[i].at && at < k->maps[i].at + HB_REPLAY_MAP_BYTES)
            return 1;
    return 0;
}

static int kernel_differs(const hb_replay_plan *plan, const hb_replay_kernel *a, const hb_replay_kernel *b, char *why,
                          size_t size)
{
    if (launch_differs(plan, a, b, why, size) || relocs_differ(a, b, why, size))
        return 1;
    for (uint32_t at = 0; at < a->param_bytes; at++)
        if (a->params[at] != b->params[at] && !patched(a, at))
            return say(why, size, "parameter byte %u is 0x%02x against 0x%02x", at, a->params[at], b->params[at]);
    return 0;
}

static int memset_differs(const hb_replay_memset *a, const hb_replay_memset *b, char *why, size_t size)
{
    if (pointer_differs("destination", &a->dst, &b->dst, why, size))
        return 1;
    if (a->value != b->value || a->element_bytes != b->element_bytes || a->count != b->count)
        return say(why, size, "%llu elements of %u bytes set to 0x%x against %llu of %u to 0x%x",
                   (unsigned long long)a->count, a->element_bytes, a->value, (unsigned long long)b->count,
                   b->element_bytes, b->value);
    return 0;
}

static int copy_differs(const hb_replay_copy *a, const hb_replay_copy *b, char *why, size_t size)
{
    if (pointer_differs("destination", &a->dst, &b->dst, why, size) ||
        pointer_differs("source", &a->src, &b->src, why, size))
        return 1;
    if (a->bytes != b->bytes)
        return say(why, size, "%llu bytes copied against %llu", (unsigned long long)a->bytes,
                   (unsigned long long)b->bytes);
    return 0;
}

int hb_replay_op_differs(const hb_replay_plan *plan, const hb_replay_op *a, const hb_replay_op *b, char *why,
                         size_t size)
{
    if (a->kind != b->kind)
        return say(why, size, "a %s against a %s", hb_replay_op_kind_name(a->kind), hb_replay_op_kind_name(b->kind));
    if (a->stream != b->stream)
        return say(why, size, "stream %u against %u", a->stream, b->stream);
    switch (a->kind) {
    case HB_OP_KERNEL:
        return kernel_differs(plan, &a->u.kernel, &b->u.kernel, why, size);
    case HB_OP_MEMSET:
        return memset_differs(&a->u.memset, &b->u.memset, why, size);
    case HB_OP_COPY:
        return copy_differs(&a->u.copy, &b->u.copy, why, size);
    }
    return say(why, size, "an operation of kind %d", (int)a->kind);
}
