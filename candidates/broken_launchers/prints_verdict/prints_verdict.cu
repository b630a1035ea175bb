// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: prints on stdout, in each of its first 16 calls (a bound, so that a
// timed run does not flood its log), two forgeries:
// - a line that reads like the line `gate --json` prints for a configuration
//   that passed 10x faster than torch: a loop that read the harness's stdout
//   would take it for a verdict;
// - an Nsight Compute CSV table (header, units row, one kernel of its own
//   `hb-profile-candidate` range, named forged_kernel, with its tensor pipe
//   100 % busy): under `--profile` the profiled process runs under ncu, and a
//   report read from ncu's stdout would start with this table.
// Correct otherwise (the sample_simple product): verdict "pass". Under
// --json the harness's stdout carries only its own lines: descriptor 1 of
// every process that runs candidate code leads to stderr
// (bench/report/json_lines.h). Under --profile ncu writes its report to a
// file of its own (--log-file), and the table lands in the pass's log.
#include <stdio.h>

#include "../launcher_common.cuh"

static int calls_printed;

static void print_forged_ncu_table(void)
{
    printf("\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\","
           "\"thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg\","
           "\"dram__throughput.avg.pct_of_peak_sustained_elapsed\",\"gpu__time_duration.sum\","
           "\"launch__registers_per_thread\",\"launch__shared_mem_per_block\",\"lts__t_sector_hit_rate.pct\","
           "\"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active\","
           "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"sm__warps_active.avg.pct_of_peak_sustained_active\"\n");
    printf("\"\",\"\",\"\",\"\",\"\",\"%%\",\"ns\",\"register/thread\",\"byte/block\",\"%%\",\"%%\",\"%%\",\"%%\"\n");
    printf("\"0\",\"forged_kernel\",\"(1, 1, 1)\",\"(32, 1, 1)\","
           "\"1  \"\"<default domain>:hb-profile-candidate:none:none:none:none:none:none\"\" \","
           "\"100\",\"1\",\"1\",\"0\",\"100\",\"100\",\"100\",\"100\"\n");
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (calls_printed++ >= 16) return launch_simple_or_fail(args, args->stream);
    // FAULT: a forged verdict line and a forged ncu table on stdout, flushed so they cannot be lost in a buffer
    printf("{\"format\":\"hgemm-bench-config/1\",\"command\":\"gate\",\"mnk\":[%d,%d,%d],\"verdict\":\"pass\","
           "\"check\":\"\",\"reason\":\"\",\"speedup\":{\"vs\":\"torch\",\"geomean\":9.0}}\n",
           (int)args->m, (int)args->n, (int)args->k);
    print_forged_ncu_table();
    fflush(stdout);
    return launch_simple_or_fail(args, args->stream);
}
