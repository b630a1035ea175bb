#define _DEFAULT_SOURCE /* readlink */
#include "bench/import/toolchain.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/process.h"

/* nvcc --version prints five lines; a program that prints more is not read further. */
#define HB_NVCC_VERSION_OUTPUT_MAX 4096
/* It answers at once; a wrapper that hangs must not hang the import. */
#define HB_NVCC_VERSION_TIMEOUT_S 60

hb_status hb_target_arch_parse(const char *text, hb_target_arch *out)
{
    memset(out, 0, sizeof *out);
    const char *p = text;
    if (strncmp(p, "sm_", 3) == 0)
        p += 3;
    int digits = 0, sm = 0;
    while (isdigit((unsigned char)p[digits]) && digits < 4)
        sm = 10 * sm + (p[digits++] - '0');
    const char *rest = p + digits;
    if (digits < 2 || sm < 50 || (*rest && strcmp(rest, "a") != 0))
        return hb_fail(HB_ERR_USAGE, "--arch %s: give an architecture like sm_80, sm_86 or sm_90a", text);
    out->sm = sm;
    out->specific = *rest == 'a';
    snprintf(out->name, sizeof out->name, "sm_%d%s", sm, out->specific ? "a" : "");
    return HB_OK;
}

void hb_target_arch_for_gpu(int sm, hb_target_arch *out)
{
    memset(out, 0, sizeof *out);
    out->sm = sm;
    out->specific = sm == 90 || sm == 100 || sm == 103;
    snprintf(out->name, sizeof out->name, "sm_%d%s", sm, out->specific ? "a" : "");
}

static int executable(const char *path)
{
    return access(path, X_OK) == 0;
}

/* nvcc --version's last line.  Run with an argument vector: a quote or a
 * `;` in the path (from --nvcc or $CUDA_HOME) is part of the path, never a
 * command.  An nvcc that cannot be run at all is refused here, before any
 * build; one that runs but does not say is recorded as "unknown". */
static hb_status nvcc_version(hb_toolchain *t)
{
    snprintf(t->version, sizeof t->version, "unknown");
    char *argv[] = {t->nvcc, "--version", NULL};
    hb_process probe = HB_PROCESS_INIT;
    probe.argv = argv;
    probe.in = probe.err = HB_FD_NULL;
    probe.default_signals = 1;
    char text[HB_NVCC_VERSION_OUTPUT_MAX];
    hb_capture output = {text, sizeof text, 0, 0};
    hb_process_end end;
    if (hb_process_capture(&probe, HB_NVCC_VERSION_TIMEOUT_S, &output, &end) != HB_OK)
        return hb_fail(HB_ERR_BAD_INPUT, "nvcc %s cannot be run (above): give the nvcc of an installed CUDA Toolkit "
                       "with --nvcc PATH or CUDA_HOME", t->nvcc);
    if (!end.exited || end.code != 0) {
        char how[96];
        hb_process_end_text(&end, how, sizeof how);
        hb_warn("%s --version ended with %s: its version is recorded as \"unknown\"", t->nvcc, how);
        return HB_OK;
    }
    for (const char *line = text; *line;) {
        int length = (int)strcspn(line, "\n");
        if (length > 0)
            snprintf(t->version, sizeof t->version, "%.*s", length < 120 ? length : 120, line);
        line += length + (line[length] == '\n');
    }
    return HB_OK;
}

/* cuobjdump beside nvcc, then its version. */
static hb_status use_nvcc(const char *nvcc, hb_toolchain *out)
{
    snprintf(out->nvcc, sizeof out->nvcc, "%.3900s", nvcc);
    char *copy = strdup(nvcc);
    if (!copy)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    snprintf(out->cuobjdump, sizeof out->cuobjdump, "%.3900s/cuobjdump", dirname(copy));
    free(copy);
    return nvcc_version(out);
}

hb_status hb_toolchain_find(const char *nvcc, hb_toolchain *out)
{
    memset(out, 0, sizeof *out);
    if (nvcc) {
        if (!executable(nvcc))
            return hb_fail(HB_ERR_BAD_INPUT, "--nvcc %s: %s (give the nvcc of an installed CUDA Toolkit, e.g. "
                           "/usr/local/cuda-12.8/bin/nvcc)",
                           nvcc, access(nvcc, F_OK) != 0 ? "no such file" : "not executable");
        return use_nvcc(nvcc, out);
    }
    const char *home = getenv("CUDA_HOME");
    const char *homes[2] = {home && *home ? home : NULL, "/usr/local/cuda"};
    for (int i = 0; i < 2; i++) {
        if (!homes[i])
            continue;
        char path[HB_PATH_MAX];
        snprintf(path, sizeof path, "%.3900s/bin/nvcc", homes[i]);
        if (executable(path))
            return use_nvcc(path, out);
    }
    return hb_fail(HB_ERR_BAD_INPUT, "no nvcc in $CUDA_HOME/bin (%s) or /usr/local/cuda/bin: install the CUDA Toolkit, "
                   "set CUDA_HOME or give --nvcc PATH",
                   home && *home ? home : "unset");
}

static hb_status need(const char *path, const char *what)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return hb_fail(HB_ERR_BAD_INPUT, "the importer's %s is missing (%s): run make, or set HB_IMPORT_DATA to the "
                       "build's import/ folder",
                       what, path);
    return HB_OK;
}

hb_status hb_import_data_find(const char *shim, const char *adapter, hb_import_data *out)
{
    memset(out, 0, sizeof *out);
    const char *env = getenv("HB_IMPORT_DATA");
    if (env && *env) {
        snprintf(out->root, sizeof out->root, "%.3900s", env);
    } else {
        char self[HB_PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n < 0)
            return hb_fail(HB_ERR_INTERNAL, "cannot read /proc/self/exe: %s", strerror(errno));
        self[n] = '\0';
        snprintf(out->root, sizeof out->root, "%.3900s/import", dirname(self));
    }
    snprintf(out->shim, sizeof out->shim, "%.3900s/%.60s", out->root, shim);
    snprintf(out->adapter, sizeof out->adapter, "%.3900s/%.60s", out->root, adapter);
    snprintf(out->include, sizeof out->include, "%s/include", out->root);
    snprintf(out->recorder, sizeof out->recorder, "%s/hgemm-l2-record", out->root);
    HB_TRY(need(out->shim, "shim"));
    HB_TRY(need(out->adapter, "adapter"));
    HB_TRY(need(out->include, "include folder"));
    return need(out->recorder, "launch recorder");
}
