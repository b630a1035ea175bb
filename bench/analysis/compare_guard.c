#include "bench/analysis/compare_guard.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"

/* 1 if `needle` occurs in `text`, case aside ("h100" in "NVIDIA H100 80GB HBM3"). */
static int contains_folded(const char *text, const char *needle)
{
    size_t n = strlen(needle);
    for (; *text; text++) {
        size_t i = 0;
        while (i < n && text[i] && tolower((unsigned char)text[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* The modes the folders hold, run or planned: a bit per hb_mode. */
static unsigned folder_modes(const hb_result_set *set)
{
    unsigned modes = 0;
    for (size_t i = 0; i < set->count; i++)
        modes |= 1u << set->entries[i].key.mode;
    for (size_t i = 0; i < set->n_missing; i++)
        modes |= 1u << set->missing[i].key.mode;
    return modes;
}

static void mode_list(unsigned modes, char *out, size_t size)
{
    const hb_mode all[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    out[0] = '\0';
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (modes & (1u << all[i]))
            snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? " and " : "", hb_mode_name(all[i]));
    if (!out[0])
        snprintf(out, size, "no");
}

static hb_status check_mode(const hb_compare_input *in)
{
    unsigned modes = folder_modes(in->ours);
    if (modes & (1u << in->mode))
        return HB_OK;
    char held[64];
    mode_list(modes, held, sizeof held);
    if (in->mode_forced)
        return hb_fail(HB_ERR_PUBLISHED_MISMATCH,
                       "compare: --mode %s, but the folders hold %s configurations: nothing of that mode to compare "
                       "with %s",
                       hb_mode_name(in->mode), held, in->published_path);
    const char *other = modes & (1u << HB_MODE_OFFLINE) ? "offline" : "server";
    return hb_fail(HB_ERR_PUBLISHED_MISMATCH,
                   "compare: %s holds %s-mode speedups (its name says), but the folders hold %s configurations: the "
                   "two would share none. Give folders of the %s mode, or --mode %s to compare ours against this "
                   "file anyway",
                   in->published_path, hb_mode_name(in->mode), held, hb_mode_name(in->mode), other);
}

/* The first configuration of the compared mode whose class is not the file's. */
static const hb_config_entry *other_class(const hb_compare_input *in, const char *acc, size_t *recorded)
{
    *recorded = 0;
    for (size_t i = 0; i < in->ours->count; i++) {
        const hb_config_entry *e = &in->ours->entries[i];
        if (e->key.mode != in->mode || !e->timers.acc_class[0])
            continue;
        ++*recorded;
        if (strcmp(e->timers.acc_class, acc))
            return e;
    }
    return NULL;
}

static hb_status check_class(const hb_compare_input *in, hb_doc *doc)
{
    const hb_published_name *name = &in->name;
    if (!name->class_tag[0])
        return hb_doc_note(doc, "%s: its name is not cuda_l2_<gpu>_<class>_speedup_<mode>.csv, so the GPU and the "
                                "accumulator class it was measured with are not checked",
                           in->published_path);
    if (!name->acc)
        return hb_doc_note(doc, "%s: accumulator class '%s' is not one CUDA-L2 publishes (F32F16F16F32, "
                                "F16F16F16F16): not checked",
                           in->published_path, name->class_tag);
    size_t recorded;
    const hb_config_entry *e = other_class(in, name->acc, &recorded);
    if (e)
        return hb_fail(HB_ERR_PUBLISHED_MISMATCH,
                       "compare: %s is CUDA-L2's %s set (%s accumulation), but %s:%zu says acc_class %s: kernels of "
                       "another class are other kernels. Compare with the %s file "
                       "(cuda_l2_<gpu>_%s_speedup_<mode>.csv)",
                       in->published_path, name->class_tag, name->acc, e->source, e->candidate_line,
                       e->timers.acc_class, e->timers.acc_class,
                       !strcmp(e->timers.acc_class, "fp16") ? "F16F16F16F16" : "F32F16F16F32");
    if (!recorded)
        return hb_doc_note(doc, "the folders' summary.csv has no acc_class: the accumulator class (%s says %s) is "
                                "not checked",
                           in->published_path, name->acc);
    return HB_OK;
}

static hb_status check_gpu(const hb_compare_input *in, hb_doc *doc)
{
    const char *gpu = in->name.gpu;
    if (!gpu[0])
        return HB_OK; /* check_class has noted a name that says neither */
    if (!in->ours->n_gpus)
        return hb_doc_note(doc, "the folders record no GPU: whether they ran on the published figures' GPU (%s) is "
                                "not known",
                           gpu);
    for (size_t i = 0; i < in->ours->n_gpus; i++) {
        const char *ours = in->ours->gpus[i];
        if (contains_folded(ours, gpu))
            continue;
        hb_warn("compare: %s was measured on a GPU named '%s' (its name says), ours on %s: the figures come from "
                "different GPUs",
                in->published_path, gpu, ours);
        return hb_doc_note(doc, "GPU mismatch: the published figures were measured on '%s' (the file's name says), "
                                "ours on %s. That is legitimate when CUDA-L2's %s kernels are run here to reproduce "
                                "them, but a difference may be the GPU's",
                           gpu, ours, gpu);
    }
    return HB_OK;
}

hb_status hb_compare_guard(const hb_compare_input *in, hb_doc *doc)
{
    HB_TRY(check_mode(in));
    HB_TRY(check_class(in, doc));
    return check_gpu(in, doc);
}
