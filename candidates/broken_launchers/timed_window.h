// BROKEN ON PURPOSE: how the broken launchers that cheat only while the
// harness times them (driver_detour_timed, proc_mem_patch) tell when that
// is.  The evaluating process is a fork of `hgemm-bench gate|run ...`, so
// its command line (the words /proc/self/cmdline shows; glibc hands the same
// argv to a library constructor, so nothing needs opening) carries
// --warmup-s W and --time-s T (the last of each wins, as the harness reads
// them; 10 and 30 s when absent).  The clock starts at the launcher's first
// call, the first of the checks, which run for a while before the warm-up:
// so the guess is the second half of the timed window as if the checks took
// no time, [W + T/2, W + T) after that first call, which lies inside the
// real window whenever the checks took less than T/2.  Host code only.
#pragma once

#include <time.h>

#include <cstdlib>
#include <cstring>

namespace timed_window {

struct guess {
    double warmup_s = 10, time_s = 30; // the harness's defaults
    double first_call_s = -1;          // CLOCK_MONOTONIC at the first call; -1 before it
};

inline double now_s()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// `flag`'s value in words[i] ("--flag=V") or words[i + 1] ("--flag V"), into *out.
inline void flag_value(char **words, int i, int n, const char *flag, double *out)
{
    const size_t length = strlen(flag);
    if (strncmp(words[i], flag, length) != 0)
        return;
    const char *value = words[i][length] == '=' ? words[i] + length + 1
                        : words[i][length] == '\0' && i + 1 < n ? words[i + 1]
                                                                 : nullptr;
    char *end = nullptr;
    const double v = value ? strtod(value, &end) : 0;
    if (value && end != value && *end == '\0' && v >= 0)
        *out = v;
}

// The window lengths the command line gives.
inline void read_flags(int argc, char **argv, guess *g)
{
    for (int i = 1; argv && i < argc; i++) {
        flag_value(argv, i, argc, "--warmup-s", &g->warmup_s);
        flag_value(argv, i, argc, "--time-s", &g->time_s);
    }
}

// Whether a call now falls in the guessed half of the timed window (the
// first call starts the clock).
inline bool in_timed_half(guess *g)
{
    const double now = now_s();
    if (g->first_call_s < 0)
        g->first_call_s = now;
    const double t = now - g->first_call_s;
    return t >= g->warmup_s + g->time_s / 2 && t < g->warmup_s + g->time_s;
}

} // namespace timed_window
