/* The accumulator audit of a configuration's candidate (docs/validation.md,
 * "Accumulator audit"), in the parent after the evaluation: its file for
 * this GPU (the cubin, or the launcher's library) read with cuobjdump
 * (bench/import/sass_audit.h, cached in mma-audit/ of the harness's cache
 * folder, the autotune cache's: $HGEMM_BENCH_CACHE_DIR, $XDG_CACHE_HOME/hgemm-bench
 * or ~/.cache/hgemm-bench), its instructions by
 * accumulator into r->mma, and the findings fp16-mma-only and
 * fp16-simt-only into r->conduct when it claims fp32.  Needs no GPU and
 * never fails a configuration: without cuobjdump the audit is unknown. */
#ifndef HB_ACCUMULATOR_AUDIT_H
#define HB_ACCUMULATOR_AUDIT_H

#include "bench/result/config_result.h"
#include "bench/result/device_info.h"
#include "bench/result/run_options.h"

/* Nothing for --aa (a baseline is no file) or a configuration whose manifest
 * the evaluation never read (r->manifest_path ""). */
void hb_accumulator_audit(const hb_run_options *options, const hb_device_info *device, hb_config_result *r);

#endif
