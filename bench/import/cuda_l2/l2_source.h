/* What the importer reads from one CUDA-L2 kernel file's text
 * (docs/importer.md): its torch entry's name, the tile sizes its authors'
 * harness pads to, which of the set's kinds it is, and the Hopper-only
 * features that need an sm_90a build.  The launch itself (grid, block,
 * shared memory, parameters) is never read from the text: it is recorded
 * from the file's own host code (bench/import/launch_recording.h).  No GPU,
 * no allocation. */
#ifndef HB_CUDA_L2_SOURCE_H
#define HB_CUDA_L2_SOURCE_H

#include "bench/core/status.h"

/* The kinds of the H100 set, as a survey of its 1,000 files found them, in the
 * order they are told apart: a file is the first that applies. */
typedef enum hb_l2_kind {
    HB_L2_ADAPTER,      /* a CUTLASS-3 GemmUniversalAdapter: TMA descriptors built on the host */
    HB_L2_COOPERATIVE,  /* a cooperative launch (grid-wide synchronization) */
    HB_L2_CLUSTER,      /* a thread-block-cluster launch */
    HB_L2_MULTI_KERNEL, /* more than one launch site in the text */
    HB_L2_ONE_KERNEL,   /* one <<<>>> launch site */
    HB_L2_KIND_COUNT
} hb_l2_kind;

const char *hb_l2_kind_name(hb_l2_kind kind);

typedef struct hb_l2_source {
    char entry[64];      /* "cuda_l2_h100_fp32": the torch entry the file defines */
    long tile[3];        /* BM, BN, BK as the authors' harness reads them; all 0 when any is missing (no padding) */
    hb_l2_kind kind;
    int launch_sites;    /* "<<<" outside comments */
    char hopper[160];    /* the Hopper-only features found, "wgmma, TMA"; "" for none */
} hb_l2_source;

/* Scans a file's text.  HB_ERR_BAD_INPUT, naming `origin`, when the file
 * defines no `void cuda_l2_<gpu>_<fp32|fp16>(torch::Tensor a, ...)` entry. */
hb_status hb_l2_source_scan(const char *text, const char *origin, hb_l2_source *out);

/* BM, BN, BK by the rule of CUDA-L2's harness (tools/utils.py,
 * extract_bm_bk_bn): on each line with its spaces removed, the first match
 * of (BM|BN|BK)=Int<digits>; the last line's value wins; all three must be
 * found, else none is used.  Comments are not skipped, as there. */
void hb_l2_tile_sizes(const char *text, long tile[3]);

#endif
