// The patcher (tests/broken_launchers_cpu.sh): candidates/broken_launchers/
// got_patch.h as rewrite_timer and slow_baseline use it, on the stub: its
// constructor points the program's slots of stub_add and stub_sub at
// wrappers that call the real function and add 1000.  With GOT_PATCH_ABSENT
// set it asks for two names the program does not import instead.
#include <cstdlib>

#include "candidates/broken_launchers/got_patch.h"

using add_fn = int (*)(int, int);
static add_fn real_add, real_sub;
static int slots_patched;
static char why[256];

static int wrap_add(int a, int b) { return real_add(a, b) + 1000; }
static int wrap_sub(int a, int b) { return real_sub(a, b) + 1000; }

__attribute__((constructor)) static void patch(void)
{
    real_add = reinterpret_cast<add_fn>(got_patch::real_function("libgotstub.so", "stub_add", (void *)wrap_add));
    real_sub = reinterpret_cast<add_fn>(got_patch::real_function("libgotstub.so", "stub_sub", (void *)wrap_sub));
    if (!real_add || !real_sub) {
        slots_patched = -1;
        snprintf(why, sizeof why, "stub_add or stub_sub not found");
        return;
    }
    const bool absent = getenv("GOT_PATCH_ABSENT") != nullptr;
    got_patch::target targets[] = {{absent ? "stub_absent" : "stub_add", (void *)wrap_add, 0},
                                   {absent ? "stub_missing" : "stub_sub", (void *)wrap_sub, 0}};
    slots_patched = got_patch::patch_main_program(targets, 2, why, sizeof why);
}

extern "C" __attribute__((visibility("default"))) int patcher_slots(void) { return slots_patched; }
extern "C" __attribute__((visibility("default"))) const char *patcher_why(void) { return why; }
