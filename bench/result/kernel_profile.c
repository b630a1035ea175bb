#include "bench/result/kernel_profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The metric names were checked on an H100 (gh100, CUDA 13): each exists and
 * returned a value for a cuBLAS kernel.  sm__pipe_tensor_op_hmma_* exists on
 * sm_80 too. */
const hb_profile_metric_spec hb_profile_metrics[HB_N_PROFILE_METRICS] = {
    [HB_PROFILE_DRAM_PCT] = {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "dram_throughput_pct", "%",
                             "dram%"},
    [HB_PROFILE_SM_PCT] = {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm_throughput_pct", "%", "sm%"},
    [HB_PROFILE_TENSOR_PCT] = {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
                               "tensor_pipe_pct", "%", "tensor%"},
    [HB_PROFILE_OCCUPANCY_PCT] = {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved_occupancy_pct", "%",
                                  "occup%"},
    [HB_PROFILE_L2_HIT_PCT] = {"lts__t_sector_hit_rate.pct", "l2_hit_rate_pct", "%", "L2hit%"},
    [HB_PROFILE_REGISTERS] = {"launch__registers_per_thread", "registers_per_thread", "register/thread", "regs"},
    [HB_PROFILE_SHARED_BYTES] = {"launch__shared_mem_per_block", "shared_mem_per_block_bytes", "byte/block",
                                 "smem(B)"},
    [HB_PROFILE_DURATION_NS] = {"gpu__time_duration.sum", "duration_ns", "ns", "ncu(us)"},
};

void hb_profile_metric_list(char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int m = 0; m < HB_N_PROFILE_METRICS && used < size; m++) {
        int n = snprintf(out + used, size - used, "%s%s", m ? "," : "", hb_profile_metrics[m].ncu_name);
        used += n > 0 ? (size_t)n : 0;
    }
}

const hb_kernel_profile *hb_profile_longest_kernel(const hb_profile_record *p, const char *participant)
{
    const hb_kernel_profile *best = NULL;
    for (size_t i = 0; p->ran && i < p->count; i++) {
        const hb_kernel_profile *k = &p->kernels[i];
        if (strcmp(k->participant, participant))
            continue;
        double d = k->value[HB_PROFILE_DURATION_NS];
        if (!best || (!isnan(d) && (isnan(best->value[HB_PROFILE_DURATION_NS]) ||
                                    d > best->value[HB_PROFILE_DURATION_NS])))
            best = k;
    }
    return best;
}
