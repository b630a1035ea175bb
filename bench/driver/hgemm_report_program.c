/* hgemm-report: the commands that need no GPU, in a binary that links no
 * CUDA library (bench/driver/commands.h), for a machine without CUDA. */
#include "bench/driver/commands.h"

static const hb_command_entry *const tables[] = {hb_cuda_free_commands, NULL};

const hb_program hb_this_program = {"hgemm-report", tables};
