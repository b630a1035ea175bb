/* What the plausibility judgement (bench/result/plausibility.h) found for one
 * configuration: the peak it compared with, where that came from, and the
 * candidate's throughput.  Plain data, held by the configuration's result. */
#ifndef HB_PLAUSIBILITY_RECORD_H
#define HB_PLAUSIBILITY_RECORD_H

/* Where the peak came from: never a guess. */
typedef enum hb_peak_source {
    HB_PEAK_NOT_JUDGED = 0, /* not a measured configuration that passed every check */
    HB_PEAK_TABLE,          /* SMs x the table's FLOP/clk/SM (bench/result/peak_throughput.h) x SM clock */
    HB_PEAK_FLAG,           /* --peak-tflops */
    HB_PEAK_UNKNOWN_ARCH,   /* the table has no entry for this GPU: no verdict */
    HB_PEAK_UNKNOWN_CLOCK   /* no SM clock known (neither NVML nor CUDA gave one): no verdict */
} hb_peak_source;

/* Clock sources of a table peak: NVML's highest SM clock in the timed
 * window, else the device's maximum SM clock. */
#define HB_CLOCK_WINDOW_MAX "window-max"
#define HB_CLOCK_DEVICE_MAX "device-max"

typedef struct hb_plausibility { /* plain data: it is copied through a pipe with the result */
    hb_peak_source source;
    double peak_tflops;          /* TFLOP/s; 0 when unknown */
    int sm;                      /* the GPU's compute capability, 10*major+minor */
    int sm_count;                /* a table peak's factors: SMs, FLOP per clock per SM, SM clock */
    int flop_per_clock_per_sm;
    int clock_mhz;
    char clock_source[16];       /* HB_CLOCK_WINDOW_MAX or HB_CLOCK_DEVICE_MAX; "" with --peak-tflops */
    double achieved_tflops;      /* 2*M*N*K / the candidate's event median: tflops_event_median */
} hb_plausibility;

#endif
