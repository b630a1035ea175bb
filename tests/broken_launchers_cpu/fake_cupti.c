/* A stand-in for CUPTI, libcupti.so.N (tests/broken_launchers_cpu.sh): only
 * its name matters, to the launcher that looks for one in its process. */
int fake_cupti(void);
int fake_cupti(void) { return 0; }
