/* The heartbeat of a watched child process (bench/driver/isolate.h): long
 * work (a timing window, an autotune search, the checks) calls hb_heartbeat()
 * between steps, so the parent can tell slow progress from a hang.  Outside a
 * watched child it does nothing, so the layers that call it need not know
 * whether they run isolated. */
#ifndef HB_HEARTBEAT_H
#define HB_HEARTBEAT_H

/* Tells the parent this process is making progress: one byte down the pipe
 * at most every 0.25 s, so it is cheap to call often. */
void hb_heartbeat(void);

/* Environment variable that carries the heartbeat pipe's file descriptor
 * to a program the child executes (compute-sanitizer's target). */
#define HB_HEARTBEAT_FD_ENV "HGEMM_BENCH_HEARTBEAT_FD"

/* Makes `fd` this process's heartbeat pipe and sends a first beat (the
 * isolation layer calls it in a fresh child). */
void hb_heartbeat_attach(int fd);

/* The heartbeat descriptor of this process, or -1 outside a watched child. */
int hb_heartbeat_descriptor(void);

/* Adopts the heartbeat descriptor named in HB_HEARTBEAT_FD_ENV, if any. */
void hb_heartbeat_from_env(void);

#endif
