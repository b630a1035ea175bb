/* One CUPTI activity record copied into the record store, in the result
 * layer's types: kernels (CUpti_ActivityKernel10), copies (Memcpy6), sets
 * (Memset4), runtime and driver calls (CUpti_ActivityAPI; their names are
 * looked up after the flush) and the external correlations of
 * `external_kind`.  Records of other kinds are skipped. */
#ifndef HB_ACTIVITY_RECORDS_H
#define HB_ACTIVITY_RECORDS_H

#include <cupti.h>

#include "bench/trace/record_store.h"

void hb_activity_record_store(const CUpti_Activity *record, CUpti_ExternalCorrelationKind external_kind,
                              hb_record_store *store);

#endif
