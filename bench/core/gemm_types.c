#include "bench/core/gemm_types.h"

const char *hb_b_layout_name(hb_b_layout layout) { return layout == HB_B_COL ? "col" : "row"; }

const char *hb_acc_class_name(hb_acc_class acc) { return acc == HB_ACC_FP16 ? "fp16" : "fp32"; }

double hb_gemm_flops(long m, long n, long k) { return 2.0 * (double)m * (double)n * (double)k; }
