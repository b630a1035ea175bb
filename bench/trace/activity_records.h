/* One CUPTI activity record copied into the record store, in the result
 * layer's types: kernels (CUpti_ActivityKernel10), copies (Memcpy6), sets
 * (Memset4) and CUDA events (CudaEvent2, with the device timestamp).
 * Records of other kinds are skipped. */
#ifndef HB_ACTIVITY_RECORDS_H
#define HB_ACTIVITY_RECORDS_H

#include <cupti.h>

#include "bench/trace/record_store.h"

void hb_activity_record_store(const CUpti_Activity *record, hb_record_store *store);

#endif
