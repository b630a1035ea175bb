#define _POSIX_C_SOURCE 200809L
#include "bench/core/signal_name.h"

#include <signal.h>
#include <stddef.h>

const char *hb_signal_name(int signal_number)
{
    static const struct {
        int number;
        const char *name;
    } names[] = {
        {SIGINT, "SIGINT"},   {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"},
        {SIGKILL, "SIGKILL"}, {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},
        {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},   {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"},
        {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].number == signal_number)
            return names[i].name;
    return "SIG?";
}
