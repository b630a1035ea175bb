/* How the timed calls are paced and fed (docs/methodology.md): the mode
 * (back to back, or after random idle gaps), where the gaps go, and the L2
 * policy for the inputs.  The same policy applies to every participant and
 * is written into the results. */
#ifndef HB_TIMING_POLICY_H
#define HB_TIMING_POLICY_H

typedef enum hb_mode {
    HB_MODE_OFFLINE, /* rounds back to back */
    HB_MODE_SERVER   /* an exponential idle gap before every call (or round) */
} hb_mode;

typedef enum hb_gap_placement {
    HB_GAP_PER_CALL, /* before every call: every sample is a call after idle */
    HB_GAP_PER_ROUND /* once per round, before its first call (the public CUDA-L2 code) */
} hb_gap_placement;

typedef enum hb_l2_policy {
    HB_L2_FRESH, /* new random inputs every round, generated on the GPU outside the timed calls */
    HB_L2_FLUSH, /* the same inputs, stirred every round; an L2 flush (a write of twice the L2 size) before every call */
    HB_L2_WARM   /* the same inputs every round but for a stir: they may sit in L2 from the previous call */
} hb_l2_policy;

/* The stream every participant is timed on (docs/methodology.md, "The timed
 * stream").  Published host code often launches with <<<grid, block, smem>>>
 * and no stream, i.e. on the legacy default stream, and torch.matmul runs
 * there too: with HB_STREAM_LEGACY such work lands between the timed events.
 * HB_STREAM_OWN times on a non-blocking stream of the harness's: work a
 * launcher puts on the legacy stream then escapes the events (the wall timer
 * and the trace still see it). */
typedef enum hb_stream_policy {
    HB_STREAM_LEGACY, /* cudaStreamLegacy, the legacy default stream (default) */
    HB_STREAM_OWN     /* a non-blocking stream the harness creates */
} hb_stream_policy;

/* Default server-mode mean gap: 2 ms, i.e. --qps 500. */
#define HB_DEFAULT_MEAN_GAP_MS 2.0

const char *hb_mode_name(hb_mode mode);
const char *hb_gap_name(hb_mode mode, hb_gap_placement gap); /* "none" offline */
const char *hb_l2_policy_name(hb_l2_policy policy);
/* A sentence for env.json: what the policy does. */
const char *hb_l2_policy_description(hb_l2_policy policy);

/* Parsers for the command line: 1 if `text` names one. */
int hb_mode_parse(const char *text, hb_mode *out);
int hb_gap_parse(const char *text, hb_gap_placement *out);
int hb_l2_policy_parse(const char *text, hb_l2_policy *out);
const char *hb_stream_policy_name(hb_stream_policy policy); /* "legacy", "own" */
int hb_stream_policy_parse(const char *text, hb_stream_policy *out);

#endif
