#include "bench/candidate/replay_file.h"

#include <stdio.h>

#include "bench/core/diag.h"

/* STUB (issue 31, helper A replaces it). */
hb_status hb_replay_write(const char *folder, hb_replay_plan *plan, const void *const *cubins, const size_t *sizes)
{
    (void)plan, (void)cubins, (void)sizes;
    return hb_fail(HB_ERR_INTERNAL, "%s: replay files are not built yet", folder);
}

hb_status hb_replay_read(const char *folder, hb_replay_plan *plan)
{
    (void)plan;
    return hb_fail(HB_ERR_INTERNAL, "%s: replay files are not built yet", folder);
}

void hb_replay_module_path(const char *folder, const hb_replay_module *module, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", folder, module->file);
}
