/* A kernel's name as a reader knows it: CUPTI gives the mangled symbol
 * ("_ZN12_GLOBAL__N_118fill_normal_kernelEP6__halfllim"); the lines of the
 * findings want "fill_normal_kernel".  Demangled with the C++ runtime's
 * __cxa_demangle (the harness links libstdc++ for its CUDA objects), then
 * cut to the function's qualified name: no return type, template arguments,
 * parameters or "(anonymous namespace)::".  A name that does not demangle
 * (extern "C" kernels: cubin candidates, most of cuBLAS's) stays as it is. */
#ifndef HB_KERNEL_NAME_H
#define HB_KERNEL_NAME_H

#include <stddef.h>

void hb_kernel_short_name(const char *mangled, char *out, size_t size);

/* The cutting alone, on a demangled name ("void ns::k<int>(float*)" -> "ns::k"). */
void hb_kernel_name_cut(const char *demangled, char *out, size_t size);

#endif
