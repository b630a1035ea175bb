#define _GNU_SOURCE
#include "bench/driver/sandbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/heartbeat.h"
#include "bench/driver/sandbox_filter.h"
#include "bench/driver/sandbox_landlock.h"
#include "bench/driver/sandbox_ranges.h"
#include "bench/driver/sandbox_seal.h"
#include "bench/driver/sandbox_trap.h"

/* The ranges as sealed: the handler names what a trapped call aimed at from them, for the process's life. */
static hb_sealed_set sealed;
static int applied;

static hb_status install_range_filter(hb_range_calls calls, const char *what)
{
    struct sock_fprog program;
    HB_TRY(hb_range_filter_build(&sealed, calls, &program));
    hb_status status = hb_range_filter_install(&program, what);
    free(program.filter);
    return status;
}

static hb_status apply(const hb_sandbox_setup *setup, int *landlock_abi)
{
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return hb_fail(HB_ERR_INTERNAL, "prctl(PR_SET_NO_NEW_PRIVS) failed: %s; run with --sandbox off",
                       strerror(errno));
    HB_TRY(hb_seal_mappings(!setup->without_mseal, &sealed));
    HB_TRY(hb_trap_install(setup->note, &sealed));
    HB_TRY(install_range_filter(HB_RANGE_CHANGE, "sealed-range"));
    HB_TRY(install_range_filter(HB_RANGE_TARGET, "sealed-target"));
    if (!sealed.mseal)
        HB_TRY(install_range_filter(HB_RANGE_UNMAP, "sealed-unmap"));
    if (!setup->without_landlock)
        HB_TRY(hb_landlock_apply(landlock_abi));
    return hb_call_filter_install(setup->protected_fds, setup->n_fds); /* last: it refuses seccomp() */
}

hb_status hb_sandbox_apply(const hb_sandbox_setup *setup, char *summary, size_t size)
{
    if (applied)
        return hb_fail(HB_ERR_INTERNAL, "the sandbox is applied once per process");
    applied = 1;
    int landlock_abi = 0;
    HB_TRY(apply(setup, &landlock_abi));
    char landlock[16] = "";
    if (landlock_abi)
        snprintf(landlock, sizeof landlock, "+landlock%d", landlock_abi);
    snprintf(summary, size, "%sseccomp%s", sealed.mseal ? "mseal+" : "", landlock);
    if (setup->note)
        snprintf(setup->note->sandbox, sizeof setup->note->sandbox, "%s", summary);
    return HB_OK;
}

hb_status hb_sandbox_enter(const hb_run_options *options, char *summary, size_t size)
{
    if (!options->isolate) {
        snprintf(summary, size, "none (--no-isolate)");
        return HB_OK;
    }
    if (!options->sandbox) {
        snprintf(summary, size, "off");
        return HB_OK;
    }
    hb_sandbox_setup setup = {.protected_fds = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}, .n_fds = 3,
                              .note = hb_child_note_here()};
    if (hb_heartbeat_descriptor() >= 0)
        setup.protected_fds[setup.n_fds++] = hb_heartbeat_descriptor();
    return hb_sandbox_apply(&setup, summary, size);
}
