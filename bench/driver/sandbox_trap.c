#define _GNU_SOURCE /* REG_RSP and kin, syscall, SYS_* */
#include "bench/driver/sandbox_trap.h"

#include <errno.h>
#include <linux/audit.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/driver/sandbox_ranges.h"
#include "bench/driver/sandbox_site.h"

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "the sandbox's handler reads registers of x86-64 and aarch64 only"
#endif

/* Set before the filters, read by the handler only. */
static hb_child_note *trap_note;
static const hb_sealed_set *trap_sealed;
static pid_t trap_group, trap_pid;

/* --- a line without the C library's formatting ---------------------------------------------- */

typedef struct line {
    char text[HB_CHILD_NOTE_TEXT];
    size_t len;
} line;

static void put_n(line *l, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i] && l->len + 1 < sizeof l->text; i++)
        l->text[l->len++] = s[i];
    l->text[l->len] = '\0';
}

static void put(line *l, const char *s)
{
    put_n(l, s, (size_t)-1);
}

static void put_number(line *l, unsigned long value, unsigned base)
{
    char digits[24];
    size_t n = 0;
    do
        digits[n++] = "0123456789abcdef"[value % base];
    while ((value /= base) && n < sizeof digits);
    if (base == 16)
        put(l, "0x");
    while (n)
        put_n(l, &digits[--n], 1);
}

/* --- what was called ----------------------------------------------------------------------------- */

typedef struct trapped {
    long nr;
    unsigned arch;
    int data; /* SECCOMP_RET_DATA: HB_TRAP_* */
    unsigned long args[6];
    uintptr_t call_address, sp;
} trapped;

static const struct {
    long nr;
    const char *name;
} call_names[] = {
    {SYS_ptrace, "ptrace"},
    {SYS_process_vm_readv, "process_vm_readv"},
    {SYS_process_vm_writev, "process_vm_writev"},
    {SYS_seccomp, "seccomp"},
    {SYS_prctl, "prctl"},
#ifdef SYS_dup2
    {SYS_dup2, "dup2"},
#endif
    {SYS_dup3, "dup3"},
    {SYS_rt_sigaction, "rt_sigaction"},
    {SYS_shmat, "shmat"},
    {SYS_mprotect, "mprotect"},
    {SYS_pkey_mprotect, "pkey_mprotect"},
    {SYS_mmap, "mmap"},
    {SYS_mremap, "mremap"},
    {SYS_munmap, "munmap"},
};

static const char *call_name(long nr)
{
    for (size_t i = 0; i < sizeof call_names / sizeof *call_names; i++)
        if (call_names[i].nr == nr)
            return call_names[i].name;
    return NULL;
}

/* "libcuda.so.1's code at 0x7f..": the sealed mapping the range [address, address + length) meets first. */
static void put_sealed_target(line *l, uintptr_t address, uintptr_t length)
{
    const hb_memory_maps *maps = &trap_sealed->maps;
    const hb_memory_map *hit = NULL;
    for (size_t i = 0; i < maps->count && !hit; i++) {
        const hb_memory_map *m = &maps->maps[i];
        if (hb_seal_takes(m) && m->end > address && (length == 0 || m->start < address + length))
            hit = m;
    }
    if (hit) {
        put(l, hb_memory_map_name(hit));
        put(l, (hit->prot & HB_MAP_EXEC) ? "'s code" : hit->path[0] ? "'s read-only data" : " (a read-only table "
                                                                                              "of the harness's)");
    } else {
        put(l, "a sealed range");
    }
    put(l, " at ");
    put_number(l, address, 16);
}

static const char *range_verb(const trapped *t)
{
    if (t->data == HB_TRAP_SEALED_TARGET)
        return " (MREMAP_FIXED) onto ";
    if (t->nr == SYS_mmap)
        return " (MAP_FIXED) over ";
    if (t->nr == SYS_munmap || t->nr == SYS_mremap)
        return " of ";
    return " (PROT_WRITE) of ";
}

static int is_dup(long nr)
{
#ifdef SYS_dup2
    if (nr == SYS_dup2)
        return 1;
#endif
    return nr == SYS_dup3;
}

/* An x32 call on x86-64 (the call filter's trap, which answers before the range filters'). */
static int other_abi(long nr)
{
#if defined(__x86_64__)
    return (nr & 0x40000000L) != 0;
#else
    (void)nr;
    return 0;
#endif
}

static void put_call(line *l, const trapped *t)
{
    const char *name = call_name(t->nr);
    if (t->arch != NATIVE_ARCH) { /* int 0x80 on x86-64: the call filter's trap */
        put(l, "a system call of another architecture (audit arch ");
        put_number(l, t->arch, 16);
        put(l, ", number ");
        put_number(l, (unsigned long)t->nr, 10);
        put(l, ")");
        return;
    }
    if (t->data == HB_TRAP_OTHER_ABI || other_abi(t->nr)) {
        put(l, "an x32 system call (number ");
        put_number(l, (unsigned long)t->nr, 16);
        put(l, ")");
        return;
    }
    if (!name) {
        put(l, "system call ");
        put_number(l, (unsigned long)t->nr, 10);
        return;
    }
    put(l, name);
    if (t->data == HB_TRAP_SEALED_RANGE || t->data == HB_TRAP_SEALED_TARGET) {
        put(l, range_verb(t));
        if (t->data == HB_TRAP_SEALED_TARGET)
            put_sealed_target(l, t->args[4], t->args[2]);
        else
            put_sealed_target(l, t->args[0], t->args[1]);
    } else if (t->nr == SYS_ptrace) {
        put(l, " (request ");
        put_number(l, t->args[0], 10);
        put(l, ")");
    } else if (t->nr == SYS_process_vm_readv || t->nr == SYS_process_vm_writev) {
        put(l, " on process ");
        put_number(l, t->args[0], 10);
    } else if (t->nr == SYS_seccomp || t->nr == SYS_prctl) {
        put(l, t->nr == SYS_prctl ? "(PR_SET_SECCOMP): a seccomp filter of its own" : ": a filter of its own");
    } else if (is_dup(t->nr)) {
        put(l, " onto descriptor ");
        put_number(l, (unsigned)t->args[1], 10);
        put(l, ", one of the harness's");
    } else if (t->nr == SYS_rt_sigaction) {
        put(l, "(SIGSYS): the sandbox's own handler replaced");
    } else if (t->nr == SYS_shmat) {
        put(l, " with SHM_REMAP at ");
        put_number(l, t->args[1], 16);
    }
}

/* "libfoo.so+0x1234", or the bare address where no file holds it. */
static void put_site(line *l, const hb_call_site *site)
{
    if (!site->path) {
        put_number(l, site->address, 16);
        return;
    }
    if (site->path_len)
        put_n(l, site->path, site->path_len);
    else
        put(l, "anonymous memory");
    put(l, "+");
    put_number(l, site->offset, 16);
}

/* The whole line: what was called, and from where. */
static void describe(line *l, const trapped *t)
{
    hb_call_site site;
    hb_call_site_find(&trap_sealed->maps, t->call_address, t->sp, &site);
    put(l, site.candidate ? "the candidate called " : "the harness's own code called ");
    put_call(l, t);
    put(l, " (from ");
    put_site(l, &site);
    if (!site.candidate)
        put(l, "; no code loaded after the seal on its stack");
    put(l, ")");
    if ((pid_t)syscall(SYS_getpid) != trap_pid) {
        put(l, " in a process it forked (pid ");
        put_number(l, (unsigned long)syscall(SYS_getpid), 10);
        put(l, ")");
    }
}

/* --- the handler --------------------------------------------------------------------------------- */

static void read_registers(const ucontext_t *uc, trapped *t)
{
#if defined(__x86_64__)
    const greg_t *r = uc->uc_mcontext.gregs;
    const int regs[6] = {REG_RDI, REG_RSI, REG_RDX, REG_R10, REG_R8, REG_R9};
    for (int i = 0; i < 6; i++)
        t->args[i] = (unsigned long)r[regs[i]];
    t->sp = (uintptr_t)r[REG_RSP];
#else
    for (int i = 0; i < 6; i++)
        t->args[i] = (unsigned long)uc->uc_mcontext.regs[i];
    t->sp = (uintptr_t)uc->uc_mcontext.sp;
#endif
}

static int handling; /* the first trapping thread writes; the others only kill */

static void on_sigsys(int sig, siginfo_t *info, void *context)
{
    (void)sig;
    if (!__atomic_exchange_n(&handling, 1, __ATOMIC_ACQ_REL)) {
        trapped t = {.nr = info->si_syscall,
                     .arch = info->si_arch,
                     .data = info->si_errno,
                     .call_address = (uintptr_t)info->si_call_addr};
        read_registers(context, &t);
        static line l; /* off the stack: the trapping thread's may be small */
        describe(&l, &t);
        if (!hb_child_note_write(trap_note, l.text)) {
            syscall(SYS_write, STDERR_FILENO, "hgemm-bench: sandbox: ", 22);
            syscall(SYS_write, STDERR_FILENO, l.text, l.len);
            syscall(SYS_write, STDERR_FILENO, "\n", 1);
        }
    }
    /* The child first (a helper's own death would stop the kills), then its group, then this process's. */
    if ((pid_t)syscall(SYS_getpid) != trap_pid)
        syscall(SYS_kill, trap_pid, SIGKILL);
    syscall(SYS_kill, -trap_group, SIGKILL);
    syscall(SYS_kill, 0, SIGKILL);
    syscall(SYS_exit_group, 128 + SIGSYS);
}

hb_status hb_trap_install(hb_child_note *note, const hb_sealed_set *sealed)
{
    if (getpgrp() != getpid())
        return hb_fail(HB_ERR_INTERNAL, "the sandbox kills its process group on a violation, and this process "
                       "(%ld) does not lead one; run with --sandbox off", (long)getpid());
    trap_note = note;
    trap_sealed = sealed;
    trap_pid = getpid();
    trap_group = getpgrp();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigsys;
    action.sa_flags = SA_SIGINFO;
    sigfillset(&action.sa_mask);
    if (sigaction(SIGSYS, &action, NULL) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot install the sandbox's SIGSYS handler: %s; run with --sandbox off",
                       strerror(errno));
    sigset_t sys;
    sigemptyset(&sys);
    sigaddset(&sys, SIGSYS);
    if (pthread_sigmask(SIG_UNBLOCK, &sys, NULL) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot unblock SIGSYS for the sandbox; run with --sandbox off");
    return HB_OK;
}
