#define _DEFAULT_SOURCE /* realpath */
#include "bench/import/cutlass_locate.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"
#include "bench/core/process.h"

/* python3 starts in well under a second; one that hangs must not hang the import. */
#define HB_PIP_PROBE_TIMEOUT_S 60

/* version.h is a few KiB: a file over this is not CUTLASS's. */
#define HB_CUTLASS_VERSION_MAX ((size_t)1 << 20)

/* "#define CUTLASS_MAJOR 4" and its two siblings. */
static int version_number(const char *text, const char *name, long *out)
{
    const char *p = strstr(text, name);
    if (!p)
        return 0;
    p += strlen(name);
    char *end = NULL;
    *out = strtol(p, &end, 10);
    return end != p;
}

static hb_status read_version(hb_cutlass *c)
{
    char path[HB_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/include/cutlass/version.h", c->root);
    char *text = NULL;
    size_t size = 0;
    if (hb_input_read(path, NULL, HB_CUTLASS_VERSION_MAX, HB_ERR_BAD_INPUT, 1, &text, &size) != HB_OK || !text)
        return HB_ERR_BAD_INPUT;
    long major = 0, minor = 0, patch = 0;
    int ok = version_number(text, "#define CUTLASS_MAJOR", &major) &&
             version_number(text, "#define CUTLASS_MINOR", &minor) &&
             version_number(text, "#define CUTLASS_PATCH", &patch);
    free(text);
    if (!ok)
        return hb_fail(HB_ERR_BAD_INPUT, "%s: no CUTLASS_MAJOR/MINOR/PATCH defines; is this CUTLASS?", path);
    snprintf(c->version, sizeof c->version, "%ld.%ld.%ld", major, minor, patch);
    snprintf(c->include, sizeof c->include, "%s/include", c->root);
    snprintf(c->util_include, sizeof c->util_include, "%s/tools/util/include", c->root);
    return HB_OK;
}

static hb_status use_folder(const char *dir, const char *found_by, const char *wanted, hb_cutlass *c)
{
    if (strlen(dir) >= sizeof c->root)
        return hb_fail(HB_ERR_BAD_INPUT, "%s %s: path too long", found_by, dir);
    char resolved[PATH_MAX];
    snprintf(c->root, sizeof c->root, "%.3900s", realpath(dir, resolved) ? resolved : dir);
    c->found_by = found_by;
    if (read_version(c) != HB_OK)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "%s %s holds no include/cutlass/version.h: name a CUTLASS checkout (git clone -b v%s "
                       "https://github.com/NVIDIA/cutlass)",
                       found_by, dir, wanted);
    return HB_OK;
}

/* The folder of pip's cutlass_library, found without importing it: python3
 * from $PATH, run with an argument vector in / (so `python3 -c`'s first
 * search folder, the current one, holds no module of anyone's). */
static int pip_package_dir(char *out, size_t size)
{
    char python[HB_PATH_MAX];
    if (!hb_process_find_program("python3", python, sizeof python))
        return 0;
    char *argv[] = {python, "-c",
                    "import importlib.util as u, os; s = u.find_spec('cutlass_library'); "
                    "print(os.path.dirname(s.origin) if s and s.origin else '')",
                    NULL};
    hb_process probe = HB_PROCESS_INIT;
    probe.argv = argv;
    probe.cwd = "/";
    probe.in = probe.err = HB_FD_NULL;
    probe.default_signals = 1;
    hb_capture output = {out, size, 0, 0};
    hb_process_end end;
    if (hb_process_capture(&probe, HB_PIP_PROBE_TIMEOUT_S, &output, &end) != HB_OK || !end.exited || end.code != 0 ||
        output.cut)
        return 0;
    out[strcspn(out, "\n")] = '\0';
    return out[0] != '\0';
}

hb_status hb_cutlass_locate(const char *flag_dir, const char *wanted, const char *who, hb_cutlass *out)
{
    memset(out, 0, sizeof *out);
    if (flag_dir)
        return use_folder(flag_dir, "--cutlass", wanted, out);
    const char *env = getenv("CUTLASS_DIR");
    if (env && *env)
        return use_folder(env, "CUTLASS_DIR", wanted, out);
    char package[HB_PATH_MAX - 16];
    if (pip_package_dir(package, sizeof package)) {
        char source[HB_PATH_MAX];
        snprintf(source, sizeof source, "%s/source", package);
        if (use_folder(source, "pip nvidia-cutlass", wanted, out) == HB_OK)
            return HB_OK;
    }
    return hb_fail(HB_ERR_BAD_INPUT,
                   "no CUTLASS found: %s include CUTLASS/CuTe v%s headers; give --cutlass DIR (a "
                   "checkout: git clone -b v%s https://github.com/NVIDIA/cutlass), set CUTLASS_DIR, or pip install "
                   "nvidia-cutlass==%s",
                   who, wanted, wanted, wanted);
}
