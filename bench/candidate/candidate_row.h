/* What both kinds of candidate share as a participant beyond their buffers
 * (bench/candidate/candidate_buffers.h): the row the results give it, and
 * what they record about it (docs/results.md). */
#ifndef HB_CANDIDATE_ROW_H
#define HB_CANDIDATE_ROW_H

#include <stddef.h>

#include "bench/candidate/candidate_buffers.h"
#include "bench/candidate/manifest.h"
#include "bench/candidate/participant.h"
#include "bench/result/participant_desc.h"

/* A candidate's row ("candidate") with `ops` and a zeroed impl of
 * impl_size bytes; HB_ERR_INTERNAL when host memory is out. */
hb_status hb_candidate_participant_init(hb_participant *out, const hb_participant_ops *ops, size_t impl_size);

/* What the results record about it (docs/results.md): the class it claims,
 * its entry (a launcher's marked "launcher:"), its workspace, the B layout it
 * reads and the padded size it sees. */
void hb_candidate_describe(const hb_manifest *manifest, const hb_candidate_buffers *buffers, hb_participant_desc *out);

#endif
