/* The reward's code length L (docs/gate.md, "Reward"): the size in bytes of
 * the --source file, measured once, before the GPU is touched, so that a
 * missing or unreadable source is a usage error (exit 2) within a moment,
 * not a reward of nothing after the windows ran.  Every configuration of
 * the run then gets the same L. */
#ifndef HB_REWARD_SOURCE_H
#define HB_REWARD_SOURCE_H

#include "bench/core/status.h"
#include "bench/result/run_options.h"

/* Sets options->reward.length_bytes: the source's size, or -1 without
 * --source.  HB_ERR_USAGE, naming the file and what is wrong, when it cannot
 * be opened or is not a regular file (a folder, a FIFO: never waited on). */
hb_status hb_reward_source_measure(hb_run_options *options);

#endif
