/* The heartbeat of a watched child process (bench/driver/isolate.h): long
 * work (a timing window, an autotune search, the checks) calls hb_heartbeat()
 * between steps, so the parent can tell slow progress from a hang.  Outside a
 * watched child it does nothing, so the layers that call it need not know
 * whether they run isolated.
 *
 * The child also says when candidate code starts to run
 * (hb_heartbeat_phase), so that a silence before that point is blamed on the
 * harness's own set-up, not on the candidate (docs/cli.md, "Isolation and
 * the timeout").  A launcher's library runs its own code while it is loaded
 * (constructors, the ABI query) in the middle of the set-up: the loader
 * announces the candidate's phase around it and goes back to the phase it
 * found (hb_heartbeat_current_phase), so a hang there is the candidate's and
 * a later silent autotune search still the harness's. */
#ifndef HB_HEARTBEAT_H
#define HB_HEARTBEAT_H

/* What the child is doing, as far as blame for a silence goes. */
typedef enum hb_phase {
    HB_PHASE_SETUP,     /* the harness's own work: device open, cuBLAS handles, autotune search, module load */
    HB_PHASE_CANDIDATE  /* candidate code runs (a launcher's library loading; the correctness battery, the windows) */
} hb_phase;

/* The bytes a watched child writes before its result (bench/driver/isolate.c
 * reads them; any of them proves the child alive). */
#define HB_WIRE_HEARTBEAT 'H'
#define HB_WIRE_PHASE_CANDIDATE 'C'
#define HB_WIRE_PHASE_SETUP 'S'

/* Tells the parent this process is making progress: one byte down the pipe
 * at most every 0.25 s, so it is cheap to call often.  If the parent is gone
 * (the write fails with EPIPE), the process exits at once with
 * HB_EXIT_PARENT_GONE (bench/core/parent_watch.h): nobody would read its
 * result, and it holds the GPU. */
void hb_heartbeat(void);

/* Announces a phase now (not rate-limited); it counts as a heartbeat too.
 * The parent takes the last phase announced. */
void hb_heartbeat_phase(hb_phase phase);

/* The phase this process last announced (HB_PHASE_SETUP before any), so a
 * caller that switches phases for a while can switch back. */
hb_phase hb_heartbeat_current_phase(void);

/* Environment variable that carries the heartbeat pipe's file descriptor
 * to a program the child executes (compute-sanitizer's target). */
#define HB_HEARTBEAT_FD_ENV "HGEMM_BENCH_HEARTBEAT_FD"

/* Makes `fd` this process's heartbeat pipe and sends a first beat (the
 * isolation layer calls it in a fresh child).  SIGPIPE is ignored from then
 * on, so a gone parent shows as EPIPE (and the exit above) rather than as a
 * death by signal. */
void hb_heartbeat_attach(int fd);

/* The heartbeat descriptor of this process, or -1 outside a watched child. */
int hb_heartbeat_descriptor(void);

/* Adopts the heartbeat descriptor named in HB_HEARTBEAT_FD_ENV, if any: the
 * process then dies with its own parent (compute-sanitizer, which dies with
 * the harness's worker) and sends a first beat, so a harness that is already
 * gone ends it here. */
void hb_heartbeat_from_env(void);

#endif
