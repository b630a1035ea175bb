// A function detour for the broken launchers that attack the harness's
// timers (rewrite_timer, slow_baseline, and one level down, in libcuda:
// driver_detour_timed, baseline_kernel_detour; proc_mem_patch and maps_over
// write the same jump by other means, with jump_to()): the first bytes of a
// function in a loaded library are overwritten with a jump to a replacement, so every
// caller, however it found the function (a GOT slot, dlsym, a table of
// pointers resolved before the candidate loaded), lands in the replacement.
// The replacement reaches the original through call_original(), which puts
// the saved bytes back for the length of the call.  x86-64 only (movabs
// rax, imm64; jmp rax: 12 bytes); elsewhere apply() says it cannot.
// BROKEN ON PURPOSE: this is the attack pygpubench issue #28 describes, kept
// here so the harness's check of its entry points' code bytes has a
// candidate that tries to beat it.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace detour {

constexpr size_t kBytes = 12;

struct hook {
    void *target = nullptr;
    unsigned char saved[kBytes] = {};
    unsigned char jump[kBytes] = {};
    bool applied = false;
    std::mutex lock; // the bytes are swapped for the length of an original call
};

// The pages holding [at, at + n) readable, writable and executable: the
// bytes are swapped on every call of the original, so they stay so.
inline bool open_code(void *at, size_t n, char *why, size_t why_size)
{
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t first = (uintptr_t)at & ~(page - 1), last = ((uintptr_t)at + n - 1) & ~(page - 1);
    if (mprotect((void *)first, last - first + page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
        snprintf(why, why_size, "mprotect of the code at %p: %s", at, strerror(errno));
        return false;
    }
    return true;
}

// The kBytes of an x86-64 jump to `replacement` (movabs rax, imm64; jmp rax):
// what a detour writes over a function's first bytes.
inline void jump_to(void *replacement, unsigned char jump[kBytes])
{
    jump[0] = 0x48, jump[1] = 0xB8; // movabs rax, imm64
    memcpy(jump + 2, &replacement, sizeof replacement);
    jump[10] = 0xFF, jump[11] = 0xE0; // jmp rax
}

// Overwrites target's first bytes with a jump to `replacement`.
inline bool apply(hook *h, void *target, void *replacement, char *why, size_t why_size)
{
#if defined(__x86_64__)
    if (!target) {
        snprintf(why, why_size, "no function to detour");
        return false;
    }
    if (!open_code(target, kBytes, why, why_size))
        return false;
    std::lock_guard<std::mutex> hold(h->lock);
    h->target = target;
    memcpy(h->saved, target, kBytes);
    jump_to(replacement, h->jump);
    memcpy(target, h->jump, kBytes); // FAULT: the function's entry now jumps into this library
    h->applied = true;
    return true;
#else
    (void)h, (void)target, (void)replacement;
    snprintf(why, why_size, "detours are written for x86-64 only");
    return false;
#endif
}

// Puts the saved bytes back: the function is its own again (its page stays
// writable, as apply() left it).
inline void remove(hook *h)
{
    std::lock_guard<std::mutex> hold(h->lock);
    if (!h->applied)
        return;
    memcpy(h->target, h->saved, kBytes);
    h->applied = false;
}

// Calls the original function: its bytes back, the call, the jump again.
template <typename Fn, typename... Args>
auto call_original(hook *h, Fn fn, Args... args) -> decltype(fn(args...))
{
    std::unique_lock<std::mutex> hold(h->lock);
    if (!h->applied) { // never applied, or removed: the function is its own
        hold.unlock();
        return fn(args...);
    }
    memcpy(h->target, h->saved, kBytes);
    auto result = fn(args...);
    memcpy(h->target, h->jump, kBytes);
    return result;
}

} // namespace detour
