/* hgemm-bench: every command (bench/driver/commands.h). */
#include "bench/driver/commands.h"

static const hb_command_entry *const tables[] = {hb_gpu_commands, hb_cuda_free_commands, NULL};

const hb_program hb_this_program = {"hgemm-bench", tables};
