/* A program of the CUDA-free layers alone (docs/architecture.md: core,
 * result, report), linked without any CUDA library: if one of their objects
 * needs a CUDA symbol, linking it fails, so `make test` fails.  Running it
 * does nothing. */
int main(void)
{
    return 0;
}
