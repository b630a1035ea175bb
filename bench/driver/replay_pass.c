#include "bench/driver/replay_pass.h"

/* STUB (issue 31, helper B replaces it): the launcher itself is timed. */
hb_status hb_replay_prepare(const hb_run_options *options, const hb_device_info *device, const char *run_path,
                            size_t index, hb_config_result *r, char *folder, size_t size, int *cut)
{
    (void)options, (void)device, (void)run_path, (void)index, (void)r, (void)size, (void)cut;
    folder[0] = '\0';
    return HB_OK;
}
