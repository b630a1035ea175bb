#define _GNU_SOURCE /* O_NOFOLLOW, O_CLOEXEC, flock */
#include "bench/core/folder_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"

static const char *holder_command = "";

void hb_folder_lock_set_command(const char *command_line)
{
    holder_command = command_line ? command_line : "";
}

/* What the holder wrote, on one line: "pid 123, since ...: hgemm-bench report ...". */
static void read_holder(int fd, char *out, size_t size)
{
    ssize_t n = pread(fd, out, size - 1, 0);
    out[n > 0 ? n : 0] = '\0';
    for (char *c = out; *c; c++)
        if (*c == '\n' || (unsigned char)*c < 0x20)
            *c = ' ';
    size_t length = strlen(out);
    while (length && out[length - 1] == ' ')
        out[--length] = '\0';
}

/* Best effort: a holder that cannot say who it is still holds the lock. */
static void write_holder(int fd)
{
    char text[1024], since[32];
    hb_utc_now(since, sizeof since);
    int n = snprintf(text, sizeof text, "pid %ld, since %s: %.900s\n", (long)getpid(), since,
                     holder_command[0] ? holder_command : "hgemm-bench");
    if (ftruncate(fd, 0) == 0 && n > 0)
        (void)!pwrite(fd, text, strlen(text), 0);
}

static hb_status open_lock_file(hb_folder_lock *lock, const char *purpose)
{
    lock->fd = open(lock->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (lock->fd < 0) {
        int error = errno;
        if (error == ELOOP)
            return hb_fail(HB_ERR_IO, "%s (%s) is a symbolic link, not the harness's lock file: remove it",
                           lock->path, purpose);
        return hb_fail(HB_ERR_IO, "cannot open the lock %s for %s: %s (is the folder writable?)", lock->path, purpose,
                       error == ENXIO ? "a FIFO or socket is there" : strerror(error));
    }
    struct stat st;
    if (fstat(lock->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(lock->fd);
        lock->fd = -1;
        return hb_fail(HB_ERR_IO, "%s (%s) is not a regular file, not the harness's lock file: remove it", lock->path,
                       purpose);
    }
    return HB_OK;
}

hb_status hb_folder_lock_take(hb_folder_lock *lock, const char *folder, const char *purpose)
{
    lock->fd = -1;
    if ((size_t)snprintf(lock->path, sizeof lock->path, "%s/" HB_FOLDER_LOCK_NAME, folder) >= sizeof lock->path)
        return hb_fail(HB_ERR_IO, "the folder path is too long for its lock: %.200s...", folder);
    HB_TRY(open_lock_file(lock, purpose));
    int taken;
    while ((taken = flock(lock->fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR)
        ;
    if (taken != 0) {
        int error = errno;
        char holder[1024];
        read_holder(lock->fd, holder, sizeof holder);
        close(lock->fd);
        lock->fd = -1;
        if (error == EWOULDBLOCK)
            return hb_fail(HB_ERR_IO, "%s is being written by another process (%s), so %s cannot write it now: wait "
                           "for that one to finish, or write elsewhere", folder,
                           holder[0] ? holder : "it did not say who it is", purpose);
        return hb_fail(HB_ERR_IO, "cannot lock %s for %s: %s", lock->path, purpose, strerror(error));
    }
    write_holder(lock->fd);
    return HB_OK;
}

void hb_folder_lock_release(hb_folder_lock *lock)
{
    if (lock->fd < 0)
        return;
    flock(lock->fd, LOCK_UN);
    close(lock->fd);
    lock->fd = -1;
}
