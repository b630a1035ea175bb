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

/* --- fuzz_corpus.c ------------------------------------------------------------------ */
int fuzz_make_corpus(const char *work, const char *candidates, fuzz_corpus *corpus);

/* --- fuzz_exec.c -------------------------------------------------------------------- */
extern double fuzz_timeout_s; /* a command's limit: past it, a hang */
/* Runs the harness's command line `argv` (argv[0] the program) in a child, in
 * folder `dir`, stdout and stderr into dir/out.txt and dir/err.txt.  Its exit
 * code; -2 killed after fuzz_timeout_s (a hang); -3 a sanitizer report or a
 * crash (out->detail says which). */
int fuzz_command(const char *dir, const char *const *argv, fuzz_outcome *out);
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
