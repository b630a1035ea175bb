// BROKEN ON PURPOSE: how the broken launchers that attack the CUDA driver
// library (driver_detour_timed, baseline_kernel_detour, proc_mem_patch,
// maps_over, ptrace_helper) find its entry points: below the runtime,
// whose functions the harness calls, are libcuda.so.1's exported ones
// (cuEventRecord, cuEventElapsedTime_v2, cuLaunchKernel, ...), which the
// runtime reaches whatever way it resolved them.  The library is already
// loaded (the harness opened the device before loading the candidate), so
// it is looked up, not loaded: dlopen(RTLD_NOLOAD), then dlsym.
// A patch of kBytes over a symbol the dynamic symbol table says is shorter
// would spill into the next function: such an entry is refused here.  Host
// code only, no CUDA.
#pragma once

#include <dlfcn.h>
#include <link.h>

#include <cstddef>
#include <cstdio>

namespace driver_entry {

// libcuda.so.1 as the process loaded it; nullptr (and `why`) when it is not loaded.
inline void *library(char *why, size_t why_size)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        snprintf(why, why_size, "libcuda.so.1 is not loaded in this process: %s", dlerror());
    return lib;
}

// The address of libcuda's `name`, when it is at least `bytes` long (or of
// unknown size); nullptr when it is absent (a name this driver lacks, as
// cuEventElapsedTime_v2 before CUDA 12.8) or too short, with `why` set
// only in the second case.
inline void *function(void *lib, const char *name, size_t bytes, char *why, size_t why_size)
{
    void *at = lib ? dlsym(lib, name) : nullptr;
    if (!at)
        return nullptr;
    Dl_info info;
    void *found = nullptr; // the symbol's ElfW(Sym)
    const ElfW(Sym) *symbol = nullptr;
    if (dladdr1(at, &info, &found, RTLD_DL_SYMENT))
        symbol = static_cast<const ElfW(Sym) *>(found);
    if (symbol && symbol->st_size &&
        symbol->st_size < bytes) {
        snprintf(why, why_size, "%s is %zu bytes long, shorter than the %zu of a patch", name,
                 (size_t)symbol->st_size, bytes);
        return nullptr;
    }
    return at;
}

} // namespace driver_entry
