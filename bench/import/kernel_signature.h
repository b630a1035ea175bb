/* A kernel's parameters read from its demangled C++ name, e.g.
 * "void hgemm<128, 256>(__half const*, __half const*, __half*, int, int, int)":
 * how many there are, each one's type and size, and whether it is "plain"
 * (a pointer or an integer), the only parameters an importer can name a role
 * for (bench/result/kernel_params.h).  The launch recorder
 * (bench/import/record_runtime.c) reads a launch's arguments with it, since
 * the runtime's launch call gives their addresses but not their sizes.
 * Plain C, no CUDA, no allocation. */
#ifndef HB_KERNEL_SIGNATURE_H
#define HB_KERNEL_SIGNATURE_H

#include <stddef.h>

#define HB_SIGNATURE_MAX_PARAMS 32
#define HB_SIGNATURE_TYPE_MAX 96

typedef enum hb_param_class {
    HB_PARAM_OTHER,   /* a struct, a float, anything passed by value the importer cannot name */
    HB_PARAM_POINTER, /* any T* (8 bytes) */
    HB_PARAM_INT32,   /* int, unsigned int */
    HB_PARAM_INT64    /* long, long long and their unsigned forms, size_t (8 bytes on Linux x86-64/aarch64) */
} hb_param_class;

typedef struct hb_kernel_param {
    char type[HB_SIGNATURE_TYPE_MAX]; /* as demangled, trimmed; truncated if longer */
    hb_param_class cls;
    size_t size;                      /* bytes; 0 for HB_PARAM_OTHER (unknown) */
} hb_kernel_param;

typedef struct hb_kernel_signature {
    hb_kernel_param params[HB_SIGNATURE_MAX_PARAMS];
    size_t count;
    int plain; /* every parameter a pointer or an integer */
} hb_kernel_signature;

/* Parses the parameter list of `demangled` (the last parenthesized group at
 * the top level).  Returns 0 on success, -1 when there is no parameter list
 * (an extern "C" name, which carries no types) or more than
 * HB_SIGNATURE_MAX_PARAMS parameters. */
int hb_kernel_signature_parse(const char *demangled, hb_kernel_signature *out);

#endif
