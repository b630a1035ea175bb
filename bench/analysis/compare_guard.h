/* Before `compare` compares: do the folders and the published file measure
 * the same thing (docs/reports.md, "What compare refuses")?
 *  - mode: the folders must hold configurations (run or planned) of the
 *    compared mode; an offline folder against a server file gives nothing,
 *    so it is refused (exit 14), and `--mode` compares ours of the mode it
 *    names against a file whose name says the other;
 *  - accumulator class: the file's name (cuda_l2_<gpu>_<class>_...) against
 *    summary.csv's acc_class: another class is other kernels, refused (14);
 *  - GPU: the file's name against env.json's GPU names: another GPU is
 *    allowed (CUDA-L2's sets are run on the GPU at hand to reproduce them),
 *    but warned on stderr and noted in the output's header.
 * What cannot be checked (a name that does not say, folders that do not
 * record) is noted in the header. */
#ifndef HB_COMPARE_GUARD_H
#define HB_COMPARE_GUARD_H

#include "bench/analysis/comparison.h"

/* HB_ERR_PUBLISHED_MISMATCH with a message for a mode or class the folders
 * do not share with the file; the header's notes into `doc`. */
hb_status hb_compare_guard(const hb_compare_input *in, hb_doc *doc);

#endif
