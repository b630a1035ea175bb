/* Whole writes and reads on a file descriptor (a pipe, a journal): the
 * loops short counts and EINTR need, written once. */
#ifndef HB_FD_IO_H
#define HB_FD_IO_H

#include <stddef.h>

/* 1 when every byte was written, 0 on an error (errno says which). */
int hb_write_all(int fd, const void *data, size_t size);

/* 1 when `size` bytes were read; 0 at end of file before any byte; -1 on
 * an error or end of file midway. */
int hb_read_all(int fd, void *data, size_t size);

#endif
