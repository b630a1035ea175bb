/* CUDA-L2's model of a file's build time (hb_import_format's build_cost_s):
 * what the import's plan orders the builds by when no earlier build of the
 * file is known (bench/import/build_plan.h).  Only the order matters: the
 * history rescales it to the host. */
#ifndef HB_CUDA_L2_BUILD_COST_H
#define HB_CUDA_L2_BUILD_COST_H

#include <stddef.h>

#include "bench/import/import_format.h"

/* Seconds on an idle core: a fixed part for the headers the file includes
 * (CuTe and CUTLASS's templates go through the front end, cicc and the host
 * compiler whatever the file does with them) and a part per KiB of its own
 * text, largest for a CUTLASS-3 adapter file, whose text instantiates a
 * collective mainloop and epilogue per configuration it defines. */
double hb_l2_build_cost_s(const char *text, size_t size, const hb_file_facts *facts);

#endif
