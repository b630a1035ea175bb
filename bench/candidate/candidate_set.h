/* Which manifest serves a configuration.  --candidate names either one
 * manifest file (used for every configuration) or a candidate-set folder:
 * DIR/M_N_K.json for that configuration, else DIR/generic.json, else
 * DIR/manifest.json (a folder holding a single candidate). */
#ifndef HB_CANDIDATE_SET_H
#define HB_CANDIDATE_SET_H

#include "bench/candidate/manifest.h"
#include "bench/core/status.h"

/* Writes the manifest path for (m, n, k) into `path`.  HB_ERR_BAD_INPUT if
 * `candidate` does not exist or cannot be read (a symbolic-link loop), or if
 * the first of the three names that is there cannot be read (a link loop,
 * a dangling link; a folder under such a name is passed over);
 * HB_ERR_UNSUPPORTED if the set holds no manifest
 * for this configuration. */
hb_status hb_candidate_manifest_path(const char *candidate, long m, long n, long k,
                                     char path[HB_PATH_MAX]);

#endif
