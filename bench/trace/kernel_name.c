#include "bench/trace/kernel_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Itanium C++ ABI's demangler, exported with C linkage by libstdc++:
 * a malloc'd string and *status 0 on success. */
char *__cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status);

#define ANONYMOUS "(anonymous namespace)::"

void hb_kernel_name_cut(const char *demangled, char *out, size_t size)
{
    if (!size)
        return;
    size_t used = 0, name_start = 0;
    int angle = 0;
    for (const char *c = demangled; *c; c++) {
        if (!strncmp(c, ANONYMOUS, strlen(ANONYMOUS))) {
            c += strlen(ANONYMOUS) - 1;
            continue;
        }
        if (*c == '<')
            angle++;
        else if (*c == '>' && angle > 0)
            angle--;
        else if (angle == 0 && *c == '(')
            break; /* the parameters */
        else if (angle == 0 && *c == ' ')
            name_start = used; /* what came before was the return type */
        else if (angle == 0 && used + 1 < size)
            out[used++] = *c;
    }
    out[used] = '\0';
    if (name_start)
        memmove(out, out + name_start, used - name_start + 1);
    if (!out[0])
        snprintf(out, size, "%s", demangled);
}

void hb_kernel_short_name(const char *mangled, char *out, size_t size)
{
    int status = -1;
    char *demangled = strncmp(mangled, "_Z", 2) ? NULL : __cxa_demangle(mangled, NULL, NULL, &status);
    if (demangled && status == 0)
        hb_kernel_name_cut(demangled, out, size);
    else
        snprintf(out, size, "%s", mangled);
    free(demangled);
}
