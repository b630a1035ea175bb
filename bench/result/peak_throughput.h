/* Dense fp16 tensor-core throughput per SM per clock, by compute
 * capability: the hardware's ceiling for an HGEMM, from NVIDIA's published
 * figures (docs/methodology.md, "Physical plausibility", has the table and
 * the arithmetic).  Each entry is the higher of the fp16- and the
 * fp32-accumulate rate, so a peak computed from it is an upper bound for
 * either accumulator class.  Pure data: no CUDA. */
#ifndef HB_PEAK_THROUGHPUT_H
#define HB_PEAK_THROUGHPUT_H

typedef struct hb_peak_entry {
    int sm;                    /* compute capability, 10*major+minor */
    int flop_per_clock_per_sm; /* dense fp16 tensor-core FLOP per SM per SM clock cycle (an FMA is 2 FLOP) */
    const char *source;        /* the published figure it is derived from, and the arithmetic */
} hb_peak_entry;

/* The entry for compute capability `sm`, or NULL when the table has none:
 * an architecture it does not know gets no plausibility verdict, never a guess. */
const hb_peak_entry *hb_peak_entry_for(int sm);

/* Entries in the table, and the i-th (NULL past the end), for listings and tests. */
int hb_peak_entry_count(void);
const hb_peak_entry *hb_peak_entry_at(int index);

#endif
