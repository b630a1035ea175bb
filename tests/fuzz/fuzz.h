/* hgemm-fuzz: damaged inputs against the commands that read them, under
 * AddressSanitizer and UBSan (make fuzz; .ci/run runs a short pass).
 *
 * The corpus is made by the harness's own writers (tests/result_fixture.c:
 * sweep folders and shards through the sweep store, a run folder through the
 * CSV writer; the published CSV by `report --out`; the sample candidates'
 * manifests, cubins and launcher libraries from the build).  Each case copies
 * a seed, damages it in one of a class's ways, and runs the real command code
 * in a child of this process (a fork server: hgemm-bench's command tables are
 * linked in, so no case pays for loading the CUDA libraries again), then
 * checks what must hold whatever the damage:
 *
 * - no crash, no sanitizer report, no hang (a case is killed after
 *   --timeout-s and counted as a hang);
 * - an exit code the class allows (docs/cli.md);
 * - the inputs unchanged, except what a resume that accepted the folder may
 *   do (cut a line cut short and the item in flight, append), and even then
 *   every finished item's journal line and rows kept byte for byte;
 * - a merge that succeeds makes a folder `report` reads.
 *
 * The classes of a folder from elsewhere (a link or FIFO planted at a name
 * a command reads, writes or uses as a temporary; two writers of one
 * output; a full disk; hostile text in every text field; numbers at the
 * edges) also check what the commands write: nothing lands outside the
 * output, a published set is whole and of one writer, the text is escaped,
 * the figures are finite.  Each file says what its class holds to.
 *
 * Cases are numbered; case i draws everything from (--seed, i), so a
 * failure is replayed with --seed S --case i --keep DIR, whatever ran
 * beside it. */
#ifndef HB_FUZZ_H
#define HB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/rng.h"

#define FUZZ_PATH 1024

/* The seeds, made once in <work>/seed. */
typedef struct fuzz_corpus {
    char root[FUZZ_PATH];        /* <work>/seed */
    char sweep[FUZZ_PATH];       /* a finished sweep, unsharded */
    char shard[2][FUZZ_PATH];    /* the same sweep as shards 0/2 and 1/2 */
    char partial[FUZZ_PATH];     /* the sweep, half done */
    char run[FUZZ_PATH];         /* a run's folder */
    char published[FUZZ_PATH];   /* the sweep's offline speedups in CUDA-L2's layout */
    char cubin_set[FUZZ_PATH];   /* a cubin candidate: manifest.json and its cubins */
    char launcher_set[FUZZ_PATH]; /* a launcher candidate: manifest.json and its libraries */
    char mnk_file[FUZZ_PATH];    /* a --mnk-file of the sweep's sizes */
    size_t sweep_items;          /* the sweep's plan: so many items (configurations x modes) */
    /* What `report --out` and `compare --out` write of unharmed seeds (their
     * operands the seeds' absolute paths), to hold a case's outputs to. */
    char report_sweep[FUZZ_PATH];       /* report <sweep> --out */
    char report_sweep_wall[FUZZ_PATH];  /* report <sweep> --timer wall --out */
    char report_run[FUZZ_PATH];         /* report <run> --out */
    char compare_run[FUZZ_PATH];        /* compare <run> --published <published> --out */
    char compare_sweep[FUZZ_PATH];      /* compare <sweep> --published <published> --out */
    char compare_sweep_wall[FUZZ_PATH]; /* compare <sweep> --published <published> --timer wall --out */
} fuzz_corpus;

/* What a case found. */
typedef struct fuzz_outcome {
    int exit_code;     /* the command's (the last one run), -1 if none */
    int failed;        /* 1: an invariant broke */
    char command[32];  /* which command, for the counts */
    char detail[512];  /* what broke, or what was done */
} fuzz_outcome;

typedef struct fuzz_class {
    const char *name;
    const char *what; /* for --help and the summary */
    void (*run)(const fuzz_corpus *corpus, const char *dir, hb_rng *rng, fuzz_outcome *out);
} fuzz_class;

extern const fuzz_class fuzz_classes[];
extern const size_t fuzz_class_count;

/* The classes of a folder from elsewhere (each file says what it holds to). */
void fuzz_links_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out);     /* fuzz_plant.c */
void fuzz_fifos_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out);     /* fuzz_plant.c */
void fuzz_writers_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out);   /* fuzz_writers.c */
void fuzz_full_disk_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out); /* fuzz_full_disk.c */
void fuzz_hostile_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out);   /* fuzz_hostile.c */
void fuzz_edges_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out);     /* fuzz_edges.c */

/* --- fuzz_case.c -------------------------------------------------------------------- */
#define FUZZ_COUNT(list) (sizeof(list) / sizeof((list)[0]))
uint64_t fuzz_below(hb_rng *rng, uint64_t bound); /* 0 when bound is 0 */
void fuzz_join(char *out, const char *folder, const char *name); /* FUZZ_PATH bytes; "" if too long */
int fuzz_exists(const char *path);                                /* anything there, a dangling link too */
int fuzz_allowed(int code, const int *allowed, size_t n);
/* The command's exit code against those the class allows; out says what broke. */
void fuzz_judge(fuzz_outcome *out, const char *command, int code, const int *allowed, size_t n);
void fuzz_broke(fuzz_outcome *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "<how it was damaged>: <what broke>", for the log. */
void fuzz_say_how(fuzz_outcome *out, const char *how);
/* The most severe "status" of a journal's whole lines (0: none). */
int fuzz_worst_status(const char *journal, size_t size);
/* A resume that accepted the folder kept every finished item: the journal's
 * whole lines and the rows up to the last one's csv_end, byte for byte
 * (journal and csv: the files before it, NULL where there was none). */
void fuzz_check_kept(const char *folder, char *journal, size_t journal_size, char *csv, size_t csv_size,
                     fuzz_outcome *out);

/* --- fuzz_corpus.c ------------------------------------------------------------------ */
int fuzz_make_corpus(const char *work, const char *candidates, fuzz_corpus *corpus);

/* --- fuzz_exec.c -------------------------------------------------------------------- */
extern double fuzz_timeout_s; /* a command's limit: past it, a hang */
/* How long a command may go on after the SIGTERM of fuzz_how.term_after_s:
 * a command ends promptly when told to (a FIFO it waits on included). */
#define FUZZ_TERM_GRACE_S 2.0

/* How a command's child runs; {0} is the plain way. */
typedef struct fuzz_how {
    const char *log;     /* stdout and stderr into LOG-out.txt and LOG-err.txt; NULL: out.txt and err.txt */
    int quiet;           /* stdout to /dev/null: only the files the command writes count */
    int full_disk;       /* no file may grow past `room` bytes (RLIMIT_FSIZE; SIGXFSZ ignored, so a write
                          * fails with EFBIG as on a full disk), for gnuplot and any child too */
    long long room;
    double term_after_s; /* > 0: SIGTERM so long after the start; it must end within FUZZ_TERM_GRACE_S */
    double timeout_s;    /* > 0: instead of fuzz_timeout_s */
    double delay_s;      /* > 0: it starts so long after its gate opens (fuzz_start) */
    int cpu;             /* > 0: it runs on CPU cpu - 1 alone: two commands on one CPU take turns every few
                          * milliseconds, so their steps interleave as they would on a busy machine */
} fuzz_how;

/* A command running (fuzz_start), until fuzz_finish. */
typedef struct fuzz_child {
    int pid;
    double started;
    fuzz_how how;
    char err[2 * FUZZ_PATH]; /* its stderr file, for the sanitizers' reports and the messages */
    char err_name[64];       /* the same, in the case's folder */
} fuzz_child;

/* Runs the harness's command line `argv` (argv[0] the program) in a child, in
 * folder `dir`, stdout and stderr into dir/out.txt and dir/err.txt.  Its exit
 * code; -2 killed after fuzz_timeout_s (a hang); -3 a sanitizer report or a
 * crash (out->detail says which).  A command that ended on the SIGTERM of
 * fuzz_how.term_after_s gives 128 + SIGTERM, as a shell says. */
int fuzz_command(const char *dir, const char *const *argv, fuzz_outcome *out);
int fuzz_command_as(const char *dir, const char *const *argv, const fuzz_how *how, fuzz_outcome *out);
/* The same in two steps, for commands that run at the same time: the child
 * waits until `gate` (a pipe; NULL: none) is closed at its write end, so
 * two commands start together.  fuzz_start: 0, or -3 (fork failed). */
int fuzz_start(const char *dir, const char *const *argv, const fuzz_how *how, const int *gate, fuzz_child *child,
               fuzz_outcome *out);
int fuzz_finish(fuzz_child *child, fuzz_outcome *out);
/* Puts the fork server's written pages into huge pages, once its corpus is
 * made: every case and every command is a fork of it, and a fork copies a
 * page-table entry per 4 KiB page written (some 30,000: the CUDA libraries'
 * data alone is 84 MiB), a quarter of a case's time; a 2 MiB page is one
 * entry.  Best effort: a kernel without MADV_COLLAPSE forks as before. */
void fuzz_huge_pages(void);
/* Runs fn(arg) in a child with the same limits: its return is the exit code. */
int fuzz_call(const char *dir, int (*fn)(void *), void *arg, fuzz_outcome *out);
/* Copies a tree (regular files and folders). 0 on success. */
int fuzz_copy_tree(const char *from, const char *to);
/* A digest of a tree: names, kinds, sizes and bytes (a FIFO's bytes are not read). */
uint64_t fuzz_tree_digest(const char *path);
/* The whole of a regular file (NULL if it is not one); its size in *size. */
char *fuzz_read_file(const char *path, size_t *size);
int fuzz_write_file(const char *path, const void *data, size_t size);
void fuzz_remove_tree(const char *path);

/* --- fuzz_jobs.c -------------------------------------------------------------------- */
enum { FUZZ_JOB_REPORT, FUZZ_JOB_COMPARE, FUZZ_JOB_MERGE, FUZZ_JOB_RESUME, FUZZ_JOB_CHECK, FUZZ_JOB_KINDS };

/* A command that writes, set up in a case's folder (fuzz_job_make). */
typedef struct fuzz_job {
    int kind;
    const char *name;               /* for the counts */
    const char *argv[24];           /* run in the case's folder */
    char paths[4][FUZZ_PATH];       /* what argv and the fields below point into */
    char dir[FUZZ_PATH];            /* the case's folder */
    char input[FUZZ_PATH];          /* the result folder it reads, a copy in the case's folder ("": none) */
    char output[FUZZ_PATH];         /* the folder it writes into: --out, the merge's parent, the sweep, --verdict's */
    char verdict_dir[FUZZ_PATH];    /* --verdict's folder, where it has one */
    int verdict;                    /* 1: it writes --verdict vd/v.json */
    const char *owner;              /* report and compare: their --out folder's owner */
    const char *reference;          /* report and compare of a seed in place: what it publishes */
    const char *const *names;       /* in `output`: what it writes or uses as a temporary, its lock */
    const char *const *inputs;      /* in `input`: the files it reads */
    int allowed[8];                 /* its exit codes when it succeeds (fuzz_job_refusals adds 7 and 11) */
    size_t n_allowed;
    char *journal, *csv;            /* resume: the folder's files before it, for fuzz_check_kept */
    size_t journal_size, csv_size;
} fuzz_job;

/* Sets up a `kind` of command in `dir`; report and compare read a copy of
 * their seed when `copy`, else the seed in place.  0, or -1. */
int fuzz_job_make(const fuzz_corpus *c, const char *dir, int kind, hb_rng *rng, int copy, fuzz_job *job);
void fuzz_job_allow(fuzz_job *job, int code);
/* Adds the exit codes of a refusal: 7 (an output it cannot write) and 11 (an input it will not read). */
void fuzz_job_refusals(fuzz_job *job);
/* After exit `code`: the verdicts it writes (a sweep's verdict.json, --verdict), and check's run folder,
 * there unless it refused, and whole JSON (or a whole CSV) where there. */
void fuzz_job_check_written(const fuzz_job *job, int code, fuzz_outcome *out);
void fuzz_job_free(fuzz_job *job);

/* --- fuzz_outputs.c ----------------------------------------------------------------- */
/* 1 if `path` is a regular file holding one whole JSON value. */
int fuzz_json_whole(const char *path);
/* 1 if `folder` holds the set `reference` published (report's or compare's
 * --out: the same names in its .hgemm-OWNER.files, each file byte for byte;
 * figures aside); else 0 and why. */
int fuzz_published_is(const char *folder, const char *owner, const char *reference, char *why, size_t why_size);
/* After an exit 0: every file the list names is there, a regular file, and
 * a figure is whole (a PNG to its IEND chunk, an SVG to </svg>). */
void fuzz_check_listed(const char *folder, const char *owner, fuzz_outcome *out);
/* No hidden entry but the list and the lock: no staging folder or temporary left. */
void fuzz_check_no_leftovers(const char *folder, fuzz_outcome *out);
/* The files of an output folder (by their names: .md, .csv, .gp, .json) against: */
enum {
    FUZZ_CHECK_HOSTILE = 1, /* hostile text escaped: no heading of it, no <script>, tables whole, no CSV
                             * cell a spreadsheet takes for a formula, in gnuplot only single-quoted */
    FUZZ_CHECK_FINITE = 2   /* no figure that is inf or nan (a table cell, a CSV cell, a JSON string) */
};
void fuzz_check_text(const char *folder, int checks, fuzz_outcome *out);
/* The files a hostile string makes when something runs it: FUZZ_CANARY* in the case's folder. */
#define FUZZ_CANARY "canary-"
void fuzz_check_canaries(const char *dir, fuzz_outcome *out);

/* --- fuzz_fields.c ------------------------------------------------------------------ */
/* A cell of summary.csv (or any CSV with a header line): its data row
 * (1: the first), its column's name and its text.  The replacement
 * (*length bytes), or NULL to keep it. */
typedef const char *(*fuzz_cell_edit)(void *context, size_t row, const char *column, const char *value,
                                      size_t *length);
/* Rewrites the cells of the CSV `path` the editor replaces (the header and
 * every other row byte for byte) and, with `journal`, moves the journal's
 * csv_end in step.  0, or -1 where a file cannot be read or written. */
int fuzz_edit_csv(const char *path, const char *journal, fuzz_cell_edit edit, void *context);
/* A string of a JSON file: the key it is under (an array's: its own key).
 * The replacement (*length bytes; NUL bytes allowed), or NULL to keep it. */
typedef const char *(*fuzz_json_edit)(void *context, const char *key, size_t *length);
/* Stands for bytes that are not UTF-8 in what a JSON editor returns: they
 * are put in its place once the file is made (no JSON writer makes them). */
#define FUZZ_NOT_UTF8 "@@not-utf-8@@"
int fuzz_edit_json_file(const char *path, fuzz_json_edit edit, void *context);
int fuzz_edit_json_lines(const char *path, fuzz_json_edit edit, void *context); /* a JSON value a line */
/* A sweep folder's plan.json with another command_line, written by the
 * plan's own writer (its digest matches). */
int fuzz_set_plan_command_line(const char *folder, const char *command_line);

/* --- fuzz_mutate.c ------------------------------------------------------------------ */
/* Damages the text or bytes of a regular file in one of many ways: a short
 * name of the way into `how`. */
void fuzz_mutate_bytes(const char *path, hb_rng *rng, char *how, size_t how_size);
/* Damages a CSV or JSON-lines file by lines and fields (swap, drop, duplicate,
 * cut at a line end, a number replaced by an interesting one). */
void fuzz_mutate_lines(const char *path, hb_rng *rng, char *how, size_t how_size);
/* Damages an ELF file by its header, tables and entries. */
void fuzz_mutate_elf(const char *path, hb_rng *rng, char *how, size_t how_size);
/* Replaces `path` by something that is not its regular file: nothing, a FIFO,
 * a folder, a symbolic-link loop, a link to nothing, /dev/zero, an empty file. */
void fuzz_replace_file(const char *path, hb_rng *rng, char *how, size_t how_size);
/* Any of the above, weighted for a text file (lines), or an ELF file (elf). */
void fuzz_damage(const char *path, int kind, hb_rng *rng, char *how, size_t how_size);
enum { FUZZ_TEXT, FUZZ_LINES, FUZZ_ELF };

#endif
