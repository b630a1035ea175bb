/* The sample candidate in the fp16 accumulator class (docs/candidates.md):
 * ../sample_mma/hgemm_mma_pipelined.cu with its mma.sync accumulating in fp16.
 * One source for both classes, so the two samples differ only in that. */
#define HGEMM_MMA_ACC_F16 1
#include "../sample_mma/hgemm_mma_pipelined.cu"
