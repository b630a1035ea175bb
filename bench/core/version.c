#include "bench/core/version.h"

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

const char *hb_harness_commit(void) { return HB_GIT_COMMIT; }
