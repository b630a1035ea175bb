/* Why a configuration of an imported candidate set did not build, from the
 * set's import.csv (docs/importer.md): the run itself only saw that the set
 * had no manifest for the size, and said so with a path on the GPU host.
 * Where a configuration left out of the means belongs to a candidate folder
 * that holds an import.csv (its path as env.json records it, read where the
 * report runs), and the importer's row for its size is not built (state
 * failed, skipped or selected), its reason becomes the importer's:
 * "not built (import.csv: failed): compile: timed out after 150 s". */
#ifndef HB_BUILD_REASONS_H
#define HB_BUILD_REASONS_H

#include "bench/analysis/result_set.h"

/* Applies the import.csv of every candidate of `set` that has one.  An
 * import.csv that cannot be read is a note, not an error: the tables do not
 * depend on it. */
hb_status hb_apply_build_reasons(hb_result_set *set);

#endif
