/* The program whose dynamic-link slots the patcher rewrites
 * (tests/broken_launchers_cpu.sh): stands in for hgemm-bench.  It calls
 * stub_sub only directly (in a PIE a JUMP_SLOT relocation, as hgemm-bench's
 * calls of cudaEventRecord; GLOB_DAT with -fno-plt) and stub_add directly and
 * through a function pointer (GLOB_DAT in a PIE), loads the patcher as the
 * harness loads a launcher (dlopen, RTLD_NOW | RTLD_LOCAL), and calls both
 * again.  Usage:
 *   program PATCHER.so EXPECT_SLOTS    (EXPECT_SLOTS: "some" or "none")
 * Prints one line; exit 0 when the calls went where they should and the
 * program's own mappings kept their protections. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int stub_add(int a, int b);
int stub_sub(int a, int b);

/* The lines of /proc/self/maps that map the program's own file. */
static void own_mappings(char *out, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    FILE *maps = fopen("/proc/self/maps", "r");
    size_t used = 0;
    char line[1024];
    out[0] = '\0';
    while (maps && fgets(line, sizeof line, maps)) {
        char *path = strchr(line, '/');
        if (!path || strncmp(path, exe, strlen(exe)) || path[strlen(exe)] != '\n')
            continue;
        char *space = strchr(line, ' ');   /* "start-end perms offset ...": keep range and perms */
        size_t keep = space ? (size_t)(space - line) + 5 : 0;
        if (used + keep + 2 < size) {
            memcpy(out + used, line, keep);
            used += keep;
            out[used++] = '\n';
            out[used] = '\0';
        }
    }
    if (maps)
        fclose(maps);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: program PATCHER.so some|none\n");
        return 2;
    }
    const int expect_some = !strcmp(argv[2], "some");
    int (*volatile pointer_before)(int, int) = stub_add;
    const int before = stub_add(2, 3), sub_before = stub_sub(7, 2);
    char maps_before[8192], maps_after[8192];
    own_mappings(maps_before, sizeof maps_before);
    void *patcher = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!patcher) {
        printf("FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    int (*slots)(void) = (int (*)(void))dlsym(patcher, "patcher_slots");
    const char *(*why)(void) = (const char *(*)(void))dlsym(patcher, "patcher_why");
    if (!slots || !why) {
        printf("FAIL: the patcher lacks patcher_slots or patcher_why\n");
        return 1;
    }
    own_mappings(maps_after, sizeof maps_after);
    int (*volatile pointer_after)(int, int) = stub_add;
    const int after = stub_add(2, 3), sub_after = stub_sub(7, 2), through_old = pointer_before(2, 3), through_new = pointer_after(2, 3);
    const int n = slots();
    /* The patcher's wrappers add 1000 to the real result. */
    const int want = expect_some ? 1005 : 5;
    int ok = before == 5 && sub_before == 5 && after == want && sub_after == want && through_new == want &&
             (expect_some ? n == 2 : n == 0) &&
             !strcmp(maps_before, maps_after);
    /* A pointer taken before the patch: through the PLT stub (fixed
     * executable) it follows the slot; a PIE's pointer is the resolved
     * function itself and stays unpatched.  Either is right; report it. */
    printf("%s: %d slot(s) (%s); stub_add before %d, after %d, pointer taken after %d, before %d; stub_sub before %d, "
           "after %d; protections %s\n",
           ok ? "ok" : "FAIL", n, n > 0 ? "patched" : why(), before, after, through_new, through_old, sub_before, sub_after,
           !strcmp(maps_before, maps_after) ? "kept" : "CHANGED");
    if (strcmp(maps_before, maps_after))
        printf("before:\n%safter:\n%s", maps_before, maps_after);
    return ok ? 0 : 1;
}
