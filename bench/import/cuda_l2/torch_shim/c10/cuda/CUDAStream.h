/* <c10/cuda/CUDAStream.h> of the torch shim: all of it is in hb_torch_shim.h (the published
 * files include several of these, in any order). */
#pragma once
#include <hb_torch_shim.h>
