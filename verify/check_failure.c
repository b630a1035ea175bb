#include "verify/check_failure.h"

#include <stdarg.h>
#include <stdio.h>

hb_status hb_check_failed(hb_check_failure *failure, hb_status status, const char *check, const char *fmt, ...)
{
    snprintf(failure->check, sizeof failure->check, "%s", check);
    va_list args;
    va_start(args, fmt);
    vsnprintf(failure->reason, sizeof failure->reason, fmt, args);
    va_end(args);
    return status;
}
