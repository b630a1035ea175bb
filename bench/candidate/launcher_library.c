#define _POSIX_C_SOURCE 200809L
#include "bench/candidate/launcher_library.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/diag.h"
#include "bench/core/heartbeat.h"

static hb_status pick_library(const hb_manifest *m, int sm, const char **path)
{
    const hb_arch_file *file = hb_manifest_file_for(m, sm);
    if (!file) {
        char listed[256];
        hb_manifest_list_archs(m, listed, sizeof listed);
        return hb_fail(HB_ERR_UNSUPPORTED,
                       "candidate %s has launcher libraries for %s only; this GPU is sm_%d (build one with "
                       "-gencode arch=compute_%d,code=sm_%d)",
                       m->name, listed, sm, sm, sm);
    }
    struct stat st;
    if (stat(file->path, &st) != 0)
        return hb_fail(HB_ERR_BAD_INPUT, "launcher library %s named by %s: %s (was it built? run make)", file->path,
                       m->path, strerror(errno));
    *path = file->path;
    return HB_OK;
}

/* dlsym into a function pointer without the object-to-function cast ISO C
 * leaves undefined (the way POSIX's dlsym page shows). */
static void *find_symbol(void *handle, const char *symbol)
{
    dlerror(); /* clear: NULL below is then an answer, not a stale error */
    return dlsym(handle, symbol);
}

static hb_status check_abi(hb_launcher_library *lib)
{
    hgemm_launch_abi_version_fn version;
    void *symbol = find_symbol(lib->handle, HGEMM_LAUNCH_ABI_VERSION_SYMBOL);
    memcpy(&version, &symbol, sizeof version);
    if (!symbol)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "launcher library %s (candidate %s) does not export %s(): define it with "
                       "HGEMM_LAUNCH_DEFINE_ABI_VERSION() from bench/candidate/hgemm_launch.h",
                       lib->path, lib->name, HGEMM_LAUNCH_ABI_VERSION_SYMBOL);
    int got = version();
    if (got != HGEMM_LAUNCH_ABI_VERSION)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "launcher library %s (candidate %s) was built for launcher ABI version %d; this harness "
                       "speaks version %d: rebuild it against this harness's bench/candidate/hgemm_launch.h",
                       lib->path, lib->name, got, HGEMM_LAUNCH_ABI_VERSION);
    return HB_OK;
}

static hb_status find_entry(hb_launcher_library *lib, const char *entry)
{
    void *symbol = find_symbol(lib->handle, entry);
    memcpy(&lib->entry, &symbol, sizeof lib->entry);
    if (!symbol)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "entry \"%s\" not found in launcher library %s: declare it with HGEMM_LAUNCH_ENTRY(%s) "
                       "(extern \"C\", exported) and check the manifest's \"entry\"",
                       entry, lib->path, entry);
    return HB_OK;
}

/* dlopen takes a name without a slash as a library to search for
 * (LD_LIBRARY_PATH, the cache): a manifest's file in the current folder
 * must be loaded as that file. */
static void loadable_path(const char *path, char *out, size_t size)
{
    snprintf(out, size, "%s%s", strchr(path, '/') ? "" : "./", path);
}

static hb_status load(hb_launcher_library *lib, const char *entry)
{
    char path[HB_PATH_MAX + 2];
    loadable_path(lib->path, path, sizeof path);
    lib->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle)
        return hb_fail(HB_ERR_BAD_INPUT, "cannot load launcher library %s (candidate %s): %s", lib->path, lib->name,
                       dlerror());
    HB_TRY(check_abi(lib));
    return find_entry(lib, entry);
}

hb_status hb_launcher_library_open(const hb_manifest *manifest, int sm, hb_launcher_library *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", manifest->name);
    const char *path = NULL;
    HB_TRY(pick_library(manifest, sm, &path));
    snprintf(out->path, sizeof out->path, "%s", path);
    /* The library's constructors and its version function are its own code:
     * a hang in them is the candidate's, not the harness's set-up's. */
    const hb_phase before = hb_heartbeat_current_phase();
    hb_heartbeat_phase(HB_PHASE_CANDIDATE);
    hb_status status = load(out, manifest->entry);
    hb_heartbeat_phase(before);
    if (status != HB_OK)
        hb_launcher_library_close(out);
    return status;
}

/* The launcher's message as one printable line ("(no message)" when empty):
 * it may be unterminated, or hold newlines. */
static const char *one_line(char *text, size_t size)
{
    text[size - 1] = '\0';
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = ' ';
    return text[0] ? text : "(no message)";
}

hb_status hb_launcher_library_call(const hb_launcher_library *lib, struct hgemm_launch_args *args)
{
    args->error[0] = '\0';
    const int returned = lib->entry(args);
    if (returned == HGEMM_LAUNCH_OK)
        return HB_OK;
    const char *message = one_line(args->error, args->error_size);
    if (returned == HGEMM_LAUNCH_UNSUPPORTED)
        return hb_fail(HB_ERR_UNSUPPORTED, "launcher %s declines M=%lld, N=%lld, K=%lld: %s", lib->name,
                       (long long)args->m, (long long)args->n, (long long)args->k, message);
    return hb_fail(HB_ERR_CANDIDATE_FAULT, "launcher %s returned %d: %s", lib->name, returned, message);
}

void hb_launcher_library_close(hb_launcher_library *lib)
{
    if (lib->handle && dlclose(lib->handle) != 0)
        hb_warn("dlclose(%s) failed: %s", lib->path, dlerror());
    lib->handle = NULL;
    lib->entry = NULL;
}
