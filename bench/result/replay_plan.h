/* A launcher's replay (docs/launchers.md, "The replay form"): the operations
 * one call of the launcher put on its streams, recorded once in a throwaway
 * process (bench/trace/launch_recorder.h, bench/driver/replay_pass.h) and
 * issued by the harness itself, in recorded order, on the timed stream
 * (bench/candidate/replay_candidate.h).  No candidate host code runs in the
 * process that times a replay.
 *
 * Every pointer the launcher passed is a relocation: a target (A, B, B_col,
 * C, the workspace, or one of the allocations the launcher made) and an
 * offset into it, patched in at each call.  A TMA descriptor (CUtensorMap)
 * found in a kernel's parameters is re-encoded at load from its recorded
 * arguments with the target's address.  Plain data, no CUDA; written and read
 * as `hgemm-bench-replay/1` by bench/candidate/replay_file.h. */
#ifndef HB_REPLAY_PLAN_H
#define HB_REPLAY_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define HB_REPLAY_FORMAT "hgemm-bench-replay/1"

#define HB_REPLAY_MAX_OPS 64           /* operations in one steady-state call */
#define HB_REPLAY_MAX_PROLOGUE_OPS 1024 /* the first call's: an autotuning first call tries tens of variants */
#define HB_REPLAY_MAX_MODULES 32       /* cubins */
#define HB_REPLAY_MAX_FUNCTIONS 64     /* distinct kernels (the first call may try many) */
#define HB_REPLAY_MAX_ALLOCS 256       /* the launcher's own allocations (an autotuning first call makes one per trial) */
#define HB_REPLAY_MAX_MAPS 16          /* TMA descriptors */
#define HB_REPLAY_MAX_FUNC_ATTRS 256   /* cuFuncSetAttribute calls kept */
#define HB_REPLAY_MAX_PARAMS 64        /* a kernel's parameters */
#define HB_REPLAY_MAX_PARAM_BYTES 4096 /* a kernel's parameter bytes (CUDA's classic limit) */
#define HB_REPLAY_MAX_RELOCS 32        /* pointers in one kernel's parameters */
#define HB_REPLAY_MAX_ATTRS 8          /* launch attributes of one launch */
#define HB_REPLAY_NAME_MAX 8192        /* CuTe kernels' mangled names run to thousands of characters */
#define HB_REPLAY_MAP_BYTES 128        /* sizeof(CUtensorMap) */
#define HB_REPLAY_ATTR_VALUE_BYTES 64  /* sizeof(CUlaunchAttributeValue) */

/* What a pointer points into. */
typedef enum hb_replay_target {
    HB_TARGET_A,
    HB_TARGET_B,
    HB_TARGET_B_COL,
    HB_TARGET_C,
    HB_TARGET_WORKSPACE,
    HB_TARGET_ALLOC, /* one of the plan's allocs (`alloc` says which) */
    HB_N_TARGETS
} hb_replay_target;

/* "a", "b", "b_col", "c", "workspace", "alloc". */
const char *hb_replay_target_name(hb_replay_target target);
/* The target of a name; -1 when none. */
int hb_replay_target_of(const char *name);

/* A pointer made relative: target + alloc index + byte offset. */
typedef struct hb_replay_pointer {
    hb_replay_target target;
    uint32_t alloc;  /* HB_TARGET_ALLOC only */
    uint64_t offset; /* bytes from the target's first byte */
} hb_replay_pointer;

/* An 8-byte pointer at `at` bytes into a kernel's parameter bytes. */
typedef struct hb_replay_reloc {
    uint32_t at;
    hb_replay_pointer to;
} hb_replay_reloc;

/* A TMA descriptor: cuTensorMapEncodeTiled's arguments, its global address
 * relocated; `bytes` as the recording encoded it (what the parameters held). */
typedef struct hb_replay_map {
    uint32_t data_type;      /* CUtensorMapDataType */
    uint32_t rank;           /* 1..5 */
    hb_replay_pointer global;
    uint64_t dims[5];        /* elements */
    uint64_t strides[4];     /* bytes, rank - 1 of them */
    uint32_t box[5];
    uint32_t element_strides[5];
    uint32_t interleave, swizzle, l2_promotion, oob_fill; /* the CUtensorMap* enums' values */
    unsigned char bytes[HB_REPLAY_MAP_BYTES];
} hb_replay_map;

/* A TMA descriptor at `at` bytes into a kernel's parameters (64-byte aligned). */
typedef struct hb_replay_map_use {
    uint32_t at;
    uint32_t map;            /* index into the plan's maps */
} hb_replay_map_use;

/* A launch attribute as cuLaunchKernelEx takes it (CUlaunchAttributeID, value bytes). */
typedef struct hb_replay_attr {
    uint32_t id;
    unsigned char value[HB_REPLAY_ATTR_VALUE_BYTES];
} hb_replay_attr;

typedef struct hb_replay_function {
    uint32_t module;                 /* index into the plan's modules: the cubin that holds it */
    char name[HB_REPLAY_NAME_MAX];   /* its mangled name (the cubin's entry) */
} hb_replay_function;

/* cuFuncSetAttribute(function, attribute, value) the launcher made; applied at load. */
typedef struct hb_replay_func_attr {
    uint32_t function;
    int attribute;                   /* CUfunction_attribute */
    int value;
} hb_replay_func_attr;

typedef struct hb_replay_kernel {
    uint32_t function;               /* index into the plan's functions */
    uint32_t grid[3], block[3];
    uint32_t smem;                   /* dynamic shared memory, bytes */
    uint32_t n_attrs;
    hb_replay_attr attrs[HB_REPLAY_MAX_ATTRS]; /* cluster dimensions, cooperative, ... */
    uint32_t n_params;               /* from cuFuncGetParamInfo */
    uint32_t param_offset[HB_REPLAY_MAX_PARAMS], param_size[HB_REPLAY_MAX_PARAMS];
    uint32_t param_bytes;            /* the parameters' extent */
    unsigned char params[HB_REPLAY_MAX_PARAM_BYTES]; /* as recorded; relocations and maps patched over */
    uint32_t n_relocs;
    hb_replay_reloc relocs[HB_REPLAY_MAX_RELOCS];
    uint32_t n_maps;
    hb_replay_map_use maps[HB_REPLAY_MAX_MAPS];
} hb_replay_kernel;

/* cuMemsetD8/D16/D32(Async): `count` elements of `element_bytes` set to `value`. */
typedef struct hb_replay_memset {
    hb_replay_pointer dst;
    uint32_t value;
    uint32_t element_bytes;          /* 1, 2, 4 */
    uint64_t count;
} hb_replay_memset;

/* A device-to-device copy. */
typedef struct hb_replay_copy {
    hb_replay_pointer dst, src;
    uint64_t bytes;
} hb_replay_copy;

typedef enum hb_replay_op_kind { HB_OP_KERNEL, HB_OP_MEMSET, HB_OP_COPY } hb_replay_op_kind;

/* "kernel", "memset", "copy". */
const char *hb_replay_op_kind_name(hb_replay_op_kind kind);

typedef struct hb_replay_op {
    hb_replay_op_kind kind;
    uint32_t stream;                 /* which of the launcher's streams it was on (0: the stream it was given) */
    union {
        hb_replay_kernel kernel;
        hb_replay_memset memset;
        hb_replay_copy copy;
    } u;
} hb_replay_op;

typedef struct hb_replay_alloc {
    uint64_t bytes;
    int per_call;                    /* 1: allocated and freed inside every call; 0: kept across calls */
} hb_replay_alloc;

typedef struct hb_replay_module {
    char file[64];                   /* "module-0.cubin", beside replay.json */
    char sha256[65];                 /* of that file */
    uint64_t bytes;
} hb_replay_module;

/* Why a launcher has no replay, by class (the tables count them). */
typedef enum hb_replay_refusal {
    HB_REFUSE_NONE,
    HB_REFUSE_CALLS_DIFFER,          /* the calls after the first are not one sequence repeated */
    HB_REFUSE_HOST_READ,             /* it reads device data on the host (a copy to the host) */
    HB_REFUSE_LIBRARY,               /* its kernels are a library's (cuBLAS, cuBLASLt) */
    HB_REFUSE_UNKNOWN_POINTER,       /* a parameter points to device memory the recording does not know */
    HB_REFUSE_UNSUPPORTED,           /* an operation the replay cannot issue (graph, host function, ...) */
    HB_REFUSE_LIMIT,                 /* over one of the limits above */
    HB_REFUSE_NO_LAUNCH,             /* a call launched nothing */
    HB_REFUSE_FAILED,                /* the recording itself failed (the launcher crashed, returned an error) */
    HB_N_REFUSALS
} hb_replay_refusal;

/* "calls-differ", "host-read", "library", "unknown-pointer", "unsupported", "limit", "no-launch", "failed"; "" for none. */
const char *hb_replay_refusal_name(hb_replay_refusal refusal);

typedef struct hb_replay_plan {
    hb_replay_refusal refusal;       /* HB_REFUSE_NONE: replayable */
    char reason[256];                /* why not, in words, naming the call and the operation */
    long mnk[3];                     /* the configuration recorded */
    long padded[3];                  /* the sizes the launcher saw */
    char library_sha256[65];         /* the launcher's library it was recorded from */
    int sm;                          /* the GPU it was recorded on (10*major+minor) */
    int calls_recorded;
    uint32_t n_modules;
    hb_replay_module modules[HB_REPLAY_MAX_MODULES];
    uint32_t n_functions;
    hb_replay_function functions[HB_REPLAY_MAX_FUNCTIONS];
    uint32_t n_func_attrs;
    hb_replay_func_attr func_attrs[HB_REPLAY_MAX_FUNC_ATTRS];
    uint32_t n_allocs;
    hb_replay_alloc allocs[HB_REPLAY_MAX_ALLOCS];
    uint32_t n_maps;
    hb_replay_map maps[HB_REPLAY_MAX_MAPS];
    uint32_t n_streams;              /* the launcher's streams seen (1: only the one it was given) */
    /* The first call, issued once at load when it differs from the steady
     * state (n_prologue 0 when it does not): what only the first call did. */
    uint32_t n_prologue;
    hb_replay_op prologue[HB_REPLAY_MAX_PROLOGUE_OPS];
    /* The steady state: the operations every call from the second on made. */
    uint32_t n_ops;
    hb_replay_op ops[HB_REPLAY_MAX_OPS];
} hb_replay_plan;

/* A zeroed plan on the heap (it is about 1 MB); NULL with a message when out of memory. */
hb_replay_plan *hb_replay_plan_new(void);
void hb_replay_plan_free(hb_replay_plan *plan);

/* Marks the plan not replayable (the first refusal stays). */
void hb_replay_refuse(hb_replay_plan *plan, hb_replay_refusal refusal, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Kernels launched by one steady-state call. */
uint32_t hb_replay_kernels_per_call(const hb_replay_plan *plan);

#endif
