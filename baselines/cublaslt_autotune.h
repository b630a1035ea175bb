/* The cuBLASLt-AutoTuning search (paper section 2.2.3 and Listing 8,
 * docs/methodology.md, "Participants"): up to 100 heuristic candidates; 50 warm-up rounds,
 * then 100 measured rounds; fresh random inputs every round; the candidates'
 * order shuffled every round, with one untimed call of the round's last
 * candidate first; each candidate timed with its own CUDA event pair; the
 * lowest median wins. */
#ifndef HB_CUBLASLT_AUTOTUNE_H
#define HB_CUBLASLT_AUTOTUNE_H

#include "baselines/cublaslt_matmul.h"
#include "bench/core/rng.h"

#define HB_AUTOTUNE_WARMUP_ROUNDS 50
#define HB_AUTOTUNE_MEASURED_ROUNDS 100

typedef struct hb_autotune_search {
    int candidates;           /* heuristic results timed */
    int winner;               /* index of the winner among the heuristic results (0 = the heuristic's own pick) */
    double winner_median_us;  /* its median event time, microseconds */
    double first_median_us;   /* median of heuristic result 0, for comparison */
    double seconds;           /* wall time of the whole search, including the heuristic query */
} hb_autotune_search;

/* Runs the search for `mm` on buffers of its own (the timed problem's
 * buffers are not touched) and writes the winner to `*winner`.  Calls
 * hb_heartbeat() every round, so a long search is not taken for a hang.
 * A candidate the library refuses to run is an error naming the status. */
hb_status hb_autotune_search_run(hb_lt_matmul *mm, hb_rng *rng, cudaStream_t stream, cublasLtMatmulAlgo_t *winner,
                                 hb_autotune_search *out);

#endif
