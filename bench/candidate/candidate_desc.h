/* What the results record about a candidate, whichever its kind: the class
 * it claims, its entry (a launcher's marked "launcher:"), its workspace, the
 * B layout it reads and the padded size it sees (docs/results.md). */
#ifndef HB_CANDIDATE_DESC_H
#define HB_CANDIDATE_DESC_H

#include "bench/candidate/candidate_buffers.h"
#include "bench/candidate/manifest.h"
#include "bench/result/participant_desc.h"

void hb_candidate_describe(const hb_manifest *manifest, const hb_candidate_buffers *buffers, hb_participant_desc *out);

#endif
