#include "bench/result/peak_throughput.h"

#include <stddef.h>

/* Derived as  peak FLOP/s / (SMs x clock)  from the dense (not 2:4-sparse)
 * fp16 tensor figure of one product per architecture; every other product of
 * the same compute capability has the same per-SM rate, or a lower one (a
 * cut-down part such as the H20 reads a looser bound, never a tighter one).
 * Where a product's fp16- and fp32-accumulate rates differ (GeForce and
 * workstation parts), the fp16-accumulate rate is the higher and is taken. */
static const hb_peak_entry table[] = {
    /* V100 SXM2 (Volta whitepaper): 125 TFLOPS, 80 SMs at 1530 MHz boost:
     * 125e12 / (80 x 1.53e9) = 1021 -> 1024 (8 tensor cores x 64 FMA x 2). */
    {70, 1024, "V100 SXM2: 125 TFLOPS / (80 SMs x 1530 MHz)"},
    /* T4 (datasheet): 65 TFLOPS fp16 (fp32 accumulate, the same rate),
     * 40 SMs at 1590 MHz: 65e12 / (40 x 1.59e9) = 1022 -> 1024. */
    {75, 1024, "T4: 65 TFLOPS / (40 SMs x 1590 MHz)"},
    /* A100 SXM4 (A100 whitepaper): 312 TFLOPS, 108 SMs at 1410 MHz:
     * 312e12 / (108 x 1.41e9) = 2049 -> 2048. */
    {80, 2048, "A100 SXM4: 312 TFLOPS / (108 SMs x 1410 MHz)"},
    /* RTX 3090 (GA102 whitepaper): 142 TFLOPS with fp16 accumulate (71 with
     * fp32), 82 SMs at 1695 MHz: 142e12 / (82 x 1.695e9) = 1022 -> 1024. */
    {86, 1024, "RTX 3090: 142 TFLOPS fp16-accumulate / (82 SMs x 1695 MHz)"},
    /* RTX 4090 (Ada whitepaper): 330.3 TFLOPS with fp16 accumulate (165.2
     * with fp32), 128 SMs at 2520 MHz: 330.3e12 / (128 x 2.52e9) = 1024. */
    {89, 1024, "RTX 4090: 330.3 TFLOPS fp16-accumulate / (128 SMs x 2520 MHz)"},
    /* H100 SXM5 (H100 datasheet): 989.4 TFLOPS, 132 SMs at 1830 MHz:
     * 989.4e12 / (132 x 1.83e9) = 4096. */
    {90, 4096, "H100 SXM5: 989.4 TFLOPS / (132 SMs x 1830 MHz)"},
    /* B200 (DGX/HGX B200 datasheets): 2.25 PFLOPS dense (4.5 sparse), 148
     * SMs: 8192 per SM per clock gives it at 1856 MHz, the B200's tensor clock
     * (4096, Hopper's rate, would need 3.7 GHz). */
    {100, 8192, "B200: 2250 TFLOPS / (148 SMs x 1856 MHz)"},
    /* RTX 5090 (RTX Blackwell specifications): 838 TFLOPS sparse = 419
     * dense, 170 SMs at 2407 MHz: 419e12 / (170 x 2.407e9) = 1024. */
    {120, 1024, "RTX 5090: 419 TFLOPS / (170 SMs x 2407 MHz)"},
};

#define ENTRY_COUNT ((int)(sizeof table / sizeof table[0]))

const hb_peak_entry *hb_peak_entry_for(int sm)
{
    for (int i = 0; i < ENTRY_COUNT; i++)
        if (table[i].sm == sm)
            return &table[i];
    return NULL;
}

int hb_peak_entry_count(void) { return ENTRY_COUNT; }

const hb_peak_entry *hb_peak_entry_at(int index)
{
    return index >= 0 && index < ENTRY_COUNT ? &table[index] : NULL;
}
