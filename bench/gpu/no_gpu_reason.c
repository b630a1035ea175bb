#define _GNU_SOURCE /* dlinfo: the path of the driver's library loaded */
#include "bench/gpu/no_gpu_reason.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "13.0" for 13000, "12.4" for 12040 (CUDA's 1000*major + 10*minor). */
static const char *version_text(int version, char *text, size_t size)
{
    if (version <= 0)
        snprintf(text, size, "unknown");
    else
        snprintf(text, size, "%d.%d", version / 1000, version % 1000 / 10);
    return text;
}

static void *symbol(void *library, const char *name)
{
    dlerror();
    return dlsym(library, name);
}

/* What the driver's library says of itself: its file, its version, its cuInit. */
static void ask_driver(void *library, hb_no_gpu_facts *f)
{
    struct link_map *map = NULL;
    if (dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        snprintf(f->driver_path, sizeof f->driver_path, "%s", map->l_name);
    CUresult (*get_version)(int *) = NULL;
    CUresult (*init)(unsigned) = NULL;
    CUresult (*error_name)(CUresult, const char **) = NULL;
    *(void **)&get_version = symbol(library, "cuDriverGetVersion");
    *(void **)&init = symbol(library, "cuInit");
    *(void **)&error_name = symbol(library, "cuGetErrorName");
    int version = 0;
    if (get_version && get_version(&version) == CUDA_SUCCESS)
        f->driver_version = version;
    if (!init)
        return;
    f->init_known = 1;
    f->init_result = init(0);
    const char *name = NULL;
    if (error_name && error_name(f->init_result, &name) == CUDA_SUCCESS && name)
        snprintf(f->init_name, sizeof f->init_name, "%s", name);
}

void hb_no_gpu_probe(cudaError_t count_error, hb_no_gpu_facts *facts)
{
    memset(facts, 0, sizeof *facts);
    facts->count_error = count_error;
    if (cudaRuntimeGetVersion(&facts->runtime_version) != cudaSuccess)
        facts->runtime_version = 0;
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (visible) {
        facts->visible_set = 1;
        snprintf(facts->visible_devices, sizeof facts->visible_devices, "%s", visible);
    }
    dlerror();
    void *library = dlopen(HB_DRIVER_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(facts->load_error, sizeof facts->load_error, "%s", why ? why : "no reason given");
        return;
    }
    facts->driver_loaded = 1;
    ask_driver(library, facts);
}

/* --- the cases ------------------------------------------------------------------------------- */

static int init_was(const hb_no_gpu_facts *f, CUresult result)
{
    return f->driver_loaded && f->init_known && f->init_result == result;
}

/* " (PATH)" when the library's file is known. */
static const char *path_note(const hb_no_gpu_facts *f, char *text, size_t size)
{
    if (f->driver_path[0])
        snprintf(text, size, " (%s)", f->driver_path);
    else
        text[0] = '\0';
    return text;
}

static void no_library(const hb_no_gpu_facts *f, hb_no_gpu_reason *r)
{
    char runtime[16];
    /* the loader's words only when they say more than "not found" */
    const int missing = strstr(f->load_error, "No such file") != NULL;
    snprintf(r->fact, sizeof r->fact, "this machine has no NVIDIA driver (%s, the driver's library, %s%s%s)",
             HB_DRIVER_LIBRARY, missing ? "is not found" : "cannot be loaded", missing ? "" : ": ",
             missing ? "" : f->load_error);
    snprintf(r->advice, sizeof r->advice,
             "install the NVIDIA driver (one for CUDA %s or newer) or run on a machine with an NVIDIA GPU (in a "
             "container: docker run --gpus all); report, compare and merge need no GPU",
             version_text(f->runtime_version, runtime, sizeof runtime));
}

static void stub_library(const hb_no_gpu_facts *f, hb_no_gpu_reason *r)
{
    char path[300];
    snprintf(r->fact, sizeof r->fact, "the %s loaded%s is the CUDA toolkit's stub, not an NVIDIA driver",
             HB_DRIVER_LIBRARY, path_note(f, path, sizeof path));
    snprintf(r->advice, sizeof r->advice,
             "take the toolkit's stubs folder out of LD_LIBRARY_PATH, and install the NVIDIA driver if this machine "
             "has none");
}

static void driver_too_old(const hb_no_gpu_facts *f, hb_no_gpu_reason *r)
{
    char driver[16], runtime[16], path[300];
    version_text(f->runtime_version, runtime, sizeof runtime);
    if (f->driver_version > 0)
        snprintf(r->fact, sizeof r->fact,
                 "the NVIDIA driver%s is too old: it supports CUDA %s, and the harness runs on the CUDA %s runtime",
                 path_note(f, path, sizeof path), version_text(f->driver_version, driver, sizeof driver), runtime);
    else
        snprintf(r->fact, sizeof r->fact,
                 "the NVIDIA driver%s is too old for the CUDA %s runtime this harness runs on (the CUDA version it "
                 "supports is unknown)",
                 path_note(f, path, sizeof path), runtime);
    snprintf(r->advice, sizeof r->advice,
             "install a driver for CUDA %s or newer (nvidia-smi shows the one installed), or build the harness "
             "with a CUDA toolkit the driver supports (make CUDA_HOME=...)",
             runtime);
}

static void no_device(const hb_no_gpu_facts *f, hb_no_gpu_reason *r)
{
    char driver[16];
    version_text(f->driver_version, driver, sizeof driver);
    if (f->visible_set) {
        snprintf(r->fact, sizeof r->fact,
                 "the NVIDIA driver (CUDA %s) sees no GPU that CUDA_VISIBLE_DEVICES='%s' lets this process use",
                 driver, f->visible_devices);
        snprintf(r->advice, sizeof r->advice,
                 "unset CUDA_VISIBLE_DEVICES, or set it to GPUs that nvidia-smi lists");
        return;
    }
    snprintf(r->fact, sizeof r->fact, "the NVIDIA driver (CUDA %s) is installed but sees no GPU", driver);
    snprintf(r->advice, sizeof r->advice,
             "check that nvidia-smi lists a GPU (a container needs its GPUs given: docker run --gpus all)");
}

static void driver_mismatch(const hb_no_gpu_facts *f, hb_no_gpu_reason *r)
{
    char path[300];
    snprintf(r->fact, sizeof r->fact,
             "the NVIDIA driver's kernel module and its library %s%s are of different versions", HB_DRIVER_LIBRARY,
             path_note(f, path, sizeof path));
    snprintf(r->advice, sizeof r->advice,
             "after a driver upgrade, reboot (or reload the nvidia kernel module); in a container, use the host's "
             "driver libraries");
}

static void other_error(const hb_no_gpu_facts *f, hb_no_gpu_reason *r)
{
    char init[128] = "";
    if (init_was(f, CUDA_SUCCESS))
        snprintf(init, sizeof init, "; the driver's cuInit succeeded");
    else if (f->driver_loaded && f->init_known && f->init_name[0])
        snprintf(init, sizeof init, "; the driver's cuInit says %s", f->init_name);
    else if (f->driver_loaded && f->init_known)
        snprintf(init, sizeof init, "; the driver's cuInit says CUresult %d", (int)f->init_result);
    snprintf(r->fact, sizeof r->fact, "cudaGetDeviceCount says %s (%s)%s",
             cudaGetErrorName(f->count_error), cudaGetErrorString(f->count_error), init);
    snprintf(r->advice, sizeof r->advice, "check the NVIDIA driver (nvidia-smi) and CUDA_VISIBLE_DEVICES");
}

void hb_no_gpu_explain(const hb_no_gpu_facts *f, hb_no_gpu_reason *r)
{
    const cudaError_t e = f->count_error;
    if (!f->driver_loaded) {
        no_library(f, r);
    } else if (e == cudaErrorStubLibrary || init_was(f, CUDA_ERROR_STUB_LIBRARY)) {
        stub_library(f, r);
    } else if (e == cudaErrorInsufficientDriver) {
        driver_too_old(f, r);
    } else if (e == cudaErrorNoDevice || e == cudaSuccess || init_was(f, CUDA_ERROR_NO_DEVICE)) {
        no_device(f, r);
    } else if (e == cudaErrorSystemDriverMismatch || init_was(f, CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)) {
        driver_mismatch(f, r);
    } else if (e == cudaErrorDevicesUnavailable) {
        snprintf(r->fact, sizeof r->fact, "every GPU is busy or unavailable (cudaErrorDevicesUnavailable)");
        snprintf(r->advice, sizeof r->advice,
                 "nvidia-smi shows each GPU's compute mode and the processes on it: a GPU in exclusive-process "
                 "mode takes one process at a time");
    } else if (e == cudaErrorSystemNotReady) {
        snprintf(r->fact, sizeof r->fact, "the system is not ready for CUDA yet (cudaErrorSystemNotReady)");
        snprintf(r->advice, sizeof r->advice,
                 "on a machine with NVSwitch, start the fabric manager (systemctl start nvidia-fabricmanager), "
                 "then try again");
    } else if (e == cudaErrorCompatNotSupportedOnDevice) {
        char path[300];
        snprintf(r->fact, sizeof r->fact, "the CUDA forward-compatibility driver loaded%s does not support this GPU",
                 path_note(f, path, sizeof path));
        snprintf(r->advice, sizeof r->advice,
                 "take the cuda-compat folder out of LD_LIBRARY_PATH, so that the system's driver is used");
    } else {
        other_error(f, r);
    }
}
