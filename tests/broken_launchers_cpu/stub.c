/* The library whose functions the program calls through its dynamic links
 * (tests/broken_launchers_cpu.sh): stands in for libcudart's cudaEventRecord. */
int stub_add(int a, int b);
int stub_sub(int a, int b);
int stub_add(int a, int b) { return a + b; }
int stub_sub(int a, int b) { return a - b; }
