/* The module-state check: before a candidate is first launched, its cubin
 * must not be able to carry a result from one call to the next, through more
 * than HB_MODULE_STATE_LIMIT bytes of module-scope device memory or through
 * device-heap allocations (bench/result/module_state.h says why).  Runs in
 * the configuration's child, once the cubin the driver loaded is known. */
#ifndef HB_MODULE_STATE_CHECK_H
#define HB_MODULE_STATE_CHECK_H

#include "bench/candidate/manifest.h"
#include "bench/result/module_state.h"
#include "verify/check_failure.h"

/* Reads the cubin of `manifest` for compute capability `sm` into `record`
 * and judges it.  HB_OK when it passes; HB_ERR_INCORRECT with check
 * "module-state" and the reason in `failure` when it is refused; the ELF
 * reader's HB_ERR_UNSUPPORTED (not an ELF cubin) or HB_ERR_BAD_INPUT
 * (unreadable, corrupt) with their messages. */
hb_status hb_check_module_state(const hb_manifest *manifest, int sm, hb_module_state *record,
                                hb_check_failure *failure);

/* The same for a launcher's replay (bench/candidate/replay_file.h): every
 * module of the replay in `folder` read, their figures summed into `record`
 * (the module-scope memory of all of them, the largest variable among them,
 * device malloc in any), judged as one cubin is.  A replay has no host code
 * to keep state in, so its modules are all it could keep a result in. */
hb_status hb_check_replay_module_state(const char *folder, hb_module_state *record, hb_check_failure *failure);

#endif
