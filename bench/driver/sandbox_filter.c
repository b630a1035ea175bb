#define _GNU_SOURCE /* SHM_REMAP */
#include "bench/driver/sandbox_filter.h"

#include <errno.h>
#include <linux/prctl.h>
#include <seccomp.h>
#include <signal.h>
#include <string.h>
#include <sys/shm.h>

#include "bench/core/diag.h"

static hb_status check(int rc, const char *what)
{
    if (rc == 0)
        return HB_OK;
    return hb_fail(HB_ERR_INTERNAL, "the sandbox's call filter: %s failed: %s; run with --sandbox off", what,
                   strerror(-rc));
}

static hb_status add_rules(scmp_filter_ctx filter, const int *protected_fds, size_t n_fds)
{
    const uint32_t trap = SCMP_ACT_TRAP;
    HB_TRY(check(seccomp_rule_add(filter, trap, SCMP_SYS(ptrace), 0), "ptrace's rule"));
    HB_TRY(check(seccomp_rule_add(filter, trap, SCMP_SYS(process_vm_readv), 0), "process_vm_readv's rule"));
    HB_TRY(check(seccomp_rule_add(filter, trap, SCMP_SYS(process_vm_writev), 0), "process_vm_writev's rule"));
    HB_TRY(check(seccomp_rule_add(filter, trap, SCMP_SYS(seccomp), 0), "seccomp's rule"));
    HB_TRY(check(seccomp_rule_add(filter, trap, SCMP_SYS(prctl), 1, SCMP_A0_32(SCMP_CMP_EQ, PR_SET_SECCOMP)),
                 "prctl's rule"));
    HB_TRY(check(seccomp_rule_add(filter, trap, SCMP_SYS(rt_sigaction), 2, SCMP_A0_32(SCMP_CMP_EQ, SIGSYS),
                                  SCMP_A1_64(SCMP_CMP_NE, 0)),
                 "rt_sigaction's rule"));
    HB_TRY(check(seccomp_rule_add(filter, trap, SCMP_SYS(shmat), 1, SCMP_A2_32(SCMP_CMP_MASKED_EQ, SHM_REMAP, SHM_REMAP)),
                 "shmat's rule"));
    for (size_t i = 0; i < n_fds; i++) {
        const uint32_t fd = (uint32_t)protected_fds[i];
#ifdef __NR_dup2 /* aarch64 has dup3 alone */
        HB_TRY(check(seccomp_rule_add(filter, trap, SCMP_SYS(dup2), 1, SCMP_A1_32(SCMP_CMP_EQ, fd)), "dup2's rule"));
#endif
        HB_TRY(check(seccomp_rule_add(filter, trap, SCMP_SYS(dup3), 1, SCMP_A1_32(SCMP_CMP_EQ, fd)), "dup3's rule"));
    }
    return HB_OK;
}

hb_status hb_call_filter_install(const int *protected_fds, size_t n_fds)
{
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter)
        return hb_fail(HB_ERR_INTERNAL, "the sandbox's call filter: seccomp_init failed; run with --sandbox off");
    hb_status status = check(seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRAP), "the other "
                                                                                                "architectures' trap");
    if (status == HB_OK)
        status = check(seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1), "the thread sync");
    if (status == HB_OK)
        status = add_rules(filter, protected_fds, n_fds);
    if (status == HB_OK)
        status = check(seccomp_load(filter), "loading it");
    seccomp_release(filter);
    return status;
}
