#define _POSIX_C_SOURCE 200809L
#include "bench/driver/reward_source.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"

hb_status hb_reward_source_measure(hb_run_options *options)
{
    hb_reward_settings *reward = &options->reward;
    reward->length_bytes = -1;
    if (!reward->on || !reward->source)
        return HB_OK;
    /* O_NONBLOCK: a FIFO given by mistake is refused below, not waited on. */
    int fd = open(reward->source, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return hb_fail(HB_ERR_USAGE, "--source %s: cannot be read (%s); give the candidate's source file",
                       reward->source, strerror(errno));
    struct stat info;
    int stat_failed = fstat(fd, &info) != 0;
    int stat_errno = errno;
    if (close(fd) != 0 && !stat_failed)
        return hb_fail(HB_ERR_USAGE, "--source %s: closing it failed (%s)", reward->source, strerror(errno));
    if (stat_failed)
        return hb_fail(HB_ERR_USAGE, "--source %s: cannot be read (%s)", reward->source, strerror(stat_errno));
    if (!S_ISREG(info.st_mode))
        return hb_fail(HB_ERR_USAGE, "--source %s: not a regular file; give the candidate's source file",
                       reward->source);
    reward->length_bytes = (long long)info.st_size;
    return HB_OK;
}
