/* Where a CUDA Toolkit program is (cuobjdump for the accumulator audit,
 * compute-sanitizer for --sanitize): the path an environment variable names,
 * else $CUDA_HOME/bin, /usr/local/cuda/bin, then PATH.  No CUDA needed. */
#ifndef HB_TOOLKIT_PROGRAM_H
#define HB_TOOLKIT_PROGRAM_H

#include <stddef.h>

typedef enum hb_program_found {
    HB_PROGRAM_FOUND,       /* `out` holds an executable's path */
    HB_PROGRAM_NAMED_BAD,   /* the variable names something that is not executable (in `out`) */
    HB_PROGRAM_MISSING      /* nowhere */
} hb_program_found;

/* `name` ("cuobjdump"), looked for as above, `variable` ("HB_CUOBJDUMP") first. */
hb_program_found hb_toolkit_program_find(const char *name, const char *variable, char *out, size_t size);

#endif
