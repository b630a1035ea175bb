#define _GNU_SOURCE /* syscall */
#include "bench/driver/sandbox_ranges.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/core/diag.h"

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#define X32_SYSCALL_BIT 0x40000000u
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "the sandbox's range filters know x86-64 and aarch64 only"
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the range filters read an argument's low half first: little-endian only"
#endif

#ifndef MREMAP_FIXED
#define MREMAP_FIXED 2
#endif

/* struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8 i (low half first). */
#define OFF_NR 0
#define OFF_ARCH 4
#define ARG_LO(i) (16u + 8u * (unsigned)(i))
#define ARG_HI(i) (20u + 8u * (unsigned)(i))
/* scratch slots */
enum { M_ADDR_LO, M_ADDR_HI, M_END_LO, M_END_HI };

/* One call the filter checks: its range, and the flag that makes it a change (flag_arg < 0: always). */
typedef struct range_rule {
    long nr;
    int addr_arg, len_arg, flag_arg;
    uint32_t flag_mask;
} range_rule;

static const range_rule change_rules[] = {
    {SYS_mprotect, 0, 1, 2, PROT_WRITE},
    {SYS_pkey_mprotect, 0, 1, 2, PROT_WRITE},
    {SYS_mmap, 0, 1, 3, MAP_FIXED},
    {SYS_mremap, 0, 1, -1, 0},
};
static const range_rule target_rules[] = {{SYS_mremap, 4, 2, 3, MREMAP_FIXED}};
static const range_rule unmap_rules[] = {{SYS_munmap, 0, 1, -1, 0}};

#define SPAN_INSNS 11
#define RULE_INSNS 22 /* at most: flag test 3, range 18, jump 1 */

typedef struct program {
    struct sock_filter *at;
    size_t count, cap;
} program;

static void emit(program *p, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
    p->at[p->count++] = (struct sock_filter)BPF_JUMP(code, k, jt, jf);
}

static void stmt(program *p, uint16_t code, uint32_t k)
{
    p->at[p->count++] = (struct sock_filter)BPF_STMT(code, k);
}

/* Loads the rule's address into M_ADDR_*, address + length into M_END_* (the carry of the low halves into the high). */
static void emit_range(program *p, const range_rule *r)
{
    if (r->flag_arg >= 0) {
        stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_LO(r->flag_arg));
        emit(p, BPF_JMP | BPF_JSET | BPF_K, 1, 0, r->flag_mask);
        stmt(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    }
    stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_LO(r->addr_arg));
    stmt(p, BPF_ST, M_ADDR_LO);
    stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_HI(r->addr_arg));
    stmt(p, BPF_ST, M_ADDR_HI);
    stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_LO(r->len_arg));
    stmt(p, BPF_MISC | BPF_TAX, 0);
    stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_LO(r->addr_arg));
    stmt(p, BPF_ALU | BPF_ADD | BPF_X, 0);
    stmt(p, BPF_ST, M_END_LO);
    emit(p, BPF_JMP | BPF_JGE | BPF_X, 3, 0, 0); /* end_lo >= len_lo: no carry */
    stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_HI(r->len_arg));
    stmt(p, BPF_ALU | BPF_ADD | BPF_K, 1);
    stmt(p, BPF_JMP | BPF_JA, 1);
    stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_HI(r->len_arg));
    stmt(p, BPF_MISC | BPF_TAX, 0);
    stmt(p, BPF_LD | BPF_MEM, M_ADDR_HI);
    stmt(p, BPF_ALU | BPF_ADD | BPF_X, 0);
    stmt(p, BPF_ST, M_END_HI);
}

/* Traps when [addr, end) meets [start, end): addr < span.end and end > span.start, as 64-bit unsigned numbers. */
static void emit_span(program *p, const hb_sealed_span *span, uint32_t trap)
{
    const uint32_t e_hi = (uint32_t)((uint64_t)span->end >> 32), e_lo = (uint32_t)span->end;
    const uint32_t s_hi = (uint32_t)((uint64_t)span->start >> 32), s_lo = (uint32_t)span->start;
    stmt(p, BPF_LD | BPF_MEM, M_ADDR_HI);              /* 0 */
    emit(p, BPF_JMP | BPF_JGT | BPF_K, 9, 0, e_hi);    /* 1: above: next span */
    emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 2, e_hi);    /* 2: below: to the end's test (5) */
    stmt(p, BPF_LD | BPF_MEM, M_ADDR_LO);              /* 3 */
    emit(p, BPF_JMP | BPF_JGE | BPF_K, 6, 0, e_lo);    /* 4: not below: next span */
    stmt(p, BPF_LD | BPF_MEM, M_END_HI);               /* 5 */
    emit(p, BPF_JMP | BPF_JGT | BPF_K, 3, 0, s_hi);    /* 6: above the start: trap */
    emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 3, s_hi);    /* 7: below: next span */
    stmt(p, BPF_LD | BPF_MEM, M_END_LO);               /* 8 */
    emit(p, BPF_JMP | BPF_JGT | BPF_K, 0, 1, s_lo);    /* 9 */
    stmt(p, BPF_RET | BPF_K, SECCOMP_RET_TRAP | trap); /* 10 */
}

static int span_wanted(const hb_sealed_span *span, hb_range_calls calls)
{
    return calls != HB_RANGE_UNMAP || !span->anonymous;
}

hb_status hb_range_filter_build(const hb_sealed_set *set, hb_range_calls calls, struct sock_fprog *out)
{
    const range_rule *rules = calls == HB_RANGE_CHANGE ? change_rules : calls == HB_RANGE_TARGET ? target_rules
                                                                                                 : unmap_rules;
    const size_t n_rules = calls == HB_RANGE_CHANGE   ? sizeof change_rules / sizeof *change_rules
                           : calls == HB_RANGE_TARGET ? sizeof target_rules / sizeof *target_rules
                                                      : sizeof unmap_rules / sizeof *unmap_rules;
    const uint32_t trap = calls == HB_RANGE_TARGET ? HB_TRAP_SEALED_TARGET : HB_TRAP_SEALED_RANGE;
    size_t spans = 0;
    for (size_t i = 0; i < set->count; i++)
        spans += span_wanted(&set->spans[i], calls);
    program p = {NULL, 0, 7 + n_rules * (2 + RULE_INSNS) + spans * SPAN_INSNS + 1};
    if (p.cap > BPF_MAXINSNS)
        return hb_fail(HB_ERR_INTERNAL, "the sandbox's range filter would need %zu instructions for %zu sealed "
                       "ranges, more than the kernel's %d; run with --sandbox off", p.cap, spans, BPF_MAXINSNS);
    p.at = calloc(p.cap, sizeof *p.at);
    if (!p.at)
        return hb_fail(HB_ERR_INTERNAL, "out of memory building the sandbox's range filter");
    stmt(&p, BPF_LD | BPF_W | BPF_ABS, OFF_ARCH);
    emit(&p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, NATIVE_ARCH);
    stmt(&p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW); /* another architecture: the call filter's to judge */
    stmt(&p, BPF_LD | BPF_W | BPF_ABS, OFF_NR);
#ifdef X32_SYSCALL_BIT
    emit(&p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, X32_SYSCALL_BIT);
    stmt(&p, BPF_RET | BPF_K, SECCOMP_RET_TRAP | HB_TRAP_OTHER_ABI);
#endif
    /* Each rule's block is patched in once its place is known: "jeq nr; ja block". */
    size_t dispatch = p.count;
    for (size_t r = 0; r < n_rules; r++) {
        emit(&p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, (uint32_t)rules[r].nr);
        stmt(&p, BPF_JMP | BPF_JA, 0);
    }
    stmt(&p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    size_t to_spans[sizeof change_rules / sizeof *change_rules];
    for (size_t r = 0; r < n_rules; r++) {
        size_t ja = dispatch + 2 * r + 1;
        p.at[ja].k = (uint32_t)(p.count - (ja + 1));
        emit_range(&p, &rules[r]);
        to_spans[r] = p.count;
        stmt(&p, BPF_JMP | BPF_JA, 0);
    }
    for (size_t r = 0; r < n_rules; r++)
        p.at[to_spans[r]].k = (uint32_t)(p.count - (to_spans[r] + 1));
    for (size_t i = 0; i < set->count; i++)
        if (span_wanted(&set->spans[i], calls))
            emit_span(&p, &set->spans[i], trap);
    stmt(&p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    out->len = (unsigned short)p.count;
    out->filter = p.at;
    return HB_OK;
}

hb_status hb_range_filter_install(const struct sock_fprog *program, const char *what)
{
    long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, program);
    if (r == 0)
        return HB_OK;
    if (r > 0)
        return hb_fail(HB_ERR_INTERNAL, "the sandbox's %s filter could not be put on thread %ld of this process (a "
                       "filter of its own there?); run with --sandbox off", what, r);
    return hb_fail(HB_ERR_INTERNAL, "installing the sandbox's %s filter failed: %s; run with --sandbox off", what,
                   strerror(errno));
}
