# hgemm-bench build.  `make` builds the driver and the sample candidates'
# cubins and launcher libraries; `make test` builds and runs the tests (GPU
# tests skip without a GPU).
#
# CUDA_ARCHS: architectures for the cubins and the harness's own kernels
# (80 = A100, 90 = H100/H200).  `make CUDA_ARCHS=90` builds for Hopper only.

CUDA_HOME  ?= /usr/local/cuda
CUDA_ARCHS ?= 80 90
BUILD      ?= build
CC         ?= gcc
NVCC       ?= $(CUDA_HOME)/bin/nvcc

GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty)

CFLAGS     ?= -O2 -g
HB_CFLAGS  := -std=c11 -Wall -Wextra -Werror -MMD -MP -I. -I$(CUDA_HOME)/include \
              -DHB_GIT_COMMIT='"$(GIT_COMMIT)"'
GENCODE    := $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a))
NVCCFLAGS  ?= -O3 -std=c++17
HB_NVFLAGS := $(GENCODE) -I. -Werror all-warnings -Xcompiler -Wall,-Wextra -MMD -MP
# Full RELRO and every dynamic symbol bound at load: the executable's GOT
# then never changes after start, so the timers' check
# (bench/gpu/entry_points.h) can take any change for a rewrite.
LDFLAGS    += -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -Wl,-z,relro,-z,now
# libseccomp static, as jansson, libcsv and nettle: a GPU host needs no libseccomp.so.2 (the sandbox's call filter).
LDLIBS     := -lcublasLt -lcublas -lcudart -l:libjansson.a -l:libcsv.a -l:libnettle.a -l:libseccomp.a -lstdc++ -lm -ldl \
              -lpthread

# The harness library: every layer (docs/architecture.md) but the driver's main.c
# and hgemm-report's program file (bench/driver/commands.h).
MAIN_C  := bench/driver/main.c
REPORT_PROGRAM_C := bench/driver/hgemm_report_program.c
# The importer's own programs are not part of the library (below: the
# importer's data).  Each import format is a folder, bench/import/<format>/
# (docs/architecture.md, "Adding an import format"): its C files are part of
# the library; its other files (the adapter it compiles into each imported
# candidate, a shim's include folder) are the importer's data.
IMPORT_PROGRAM_C   := bench/import/record_main.c bench/import/record_runtime.c
IMPORT_FORMAT_DIRS := $(patsubst %/,%,$(sort $(dir $(wildcard bench/import/*/*.c))))
LIB_C   := $(filter-out $(MAIN_C) $(REPORT_PROGRAM_C) $(IMPORT_PROGRAM_C),$(wildcard bench/*/*.c)) \
           $(wildcard $(IMPORT_FORMAT_DIRS:%=%/*.c)) $(wildcard verify/*.c) $(wildcard baselines/*.c)
LIB_CU  := $(wildcard bench/*/*.cu) $(wildcard verify/*.cu)
LIB_OBJ := $(LIB_C:%.c=$(BUILD)/obj/%.o) $(LIB_CU:%.cu=$(BUILD)/obj/%.o)

TEST_C   := $(filter-out tests/cuda_free_main.c,$(wildcard tests/*.c))
TEST_OBJ := $(TEST_C:%.c=$(BUILD)/obj/%.o)

# Launcher candidates (docs/launchers.md): candidates/<name>_launcher/<launcher>.cu
# and the deliberately broken ones, candidates/broken_launchers/<name>/<name>.cu,
# each with a manifest.json -> $(BUILD)/candidates/.../{manifest.json,
# <launcher>.sm_XX.so}: a shared library per architecture.
LAUNCHER_SRC := $(wildcard candidates/*_launcher/*.cu) $(wildcard candidates/broken_launchers/*/*.cu)
LAUNCHER_LIB := $(foreach s,$(LAUNCHER_SRC),$(foreach a,$(CUDA_ARCHS),$(BUILD)/$(s:.cu=).sm_$(a).so))
LAUNCHER_MANIFESTS := $(patsubst %/,$(BUILD)/%/manifest.json,$(sort $(dir $(LAUNCHER_SRC))))

# Sample candidates: candidates/<name>/<kernel>.cu + manifest.json ->
# $(BUILD)/candidates/<name>/{manifest.json, <kernel>.sm_XX.cubin}; the same for
# the deliberately broken ones, candidates/broken/<name>/ (scripts/gate_broken_set.sh),
# and the honest must-pass ones, candidates/honest/<name>/ (scripts/check_honest_set.sh).
CANDIDATE_SRC   := $(filter-out $(LAUNCHER_SRC),$(wildcard candidates/*/*.cu)) $(wildcard candidates/broken/*/*.cu) \
                   $(wildcard candidates/honest/*/*.cu)
CANDIDATE_CUBIN := $(foreach s,$(CANDIDATE_SRC),$(foreach a,$(CUDA_ARCHS),$(BUILD)/$(s:.cu=).sm_$(a).cubin))
CANDIDATE_MANIFESTS := $(patsubst %/,$(BUILD)/%/manifest.json,$(sort $(dir $(CANDIDATE_SRC))))
# A sample's other manifests beside manifest.json (candidates/sample_params/wrong_params.json:
# a wrong "params" list, for the load check's test), built the same way.
CANDIDATE_EXTRA_MANIFESTS := $(patsubst %,$(BUILD)/%,$(filter-out %/manifest.json,$(wildcard candidates/*/*.json)))

.DEFAULT_GOAL := all

# cuBLASLt's enum names (tiles, stages, cluster shapes), generated from the
# toolkit's own cublasLt.h so the results follow the installed library.
LT_NAMES := $(BUILD)/gen/lt_enum_names.h
$(LT_NAMES): scripts/gen_lt_enum_names.sh $(CUDA_HOME)/include/cublasLt.h
	@mkdir -p $(dir $@)
	sh scripts/gen_lt_enum_names.sh $(CUDA_HOME)/include/cublasLt.h > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/baselines/cublaslt_matmul.o: $(LT_NAMES)
$(BUILD)/obj/baselines/cublaslt_matmul.o: HB_CFLAGS += -I$(BUILD)

# env.json records the commit: rebuild env_json.o when it changes.
COMMIT_STAMP := $(BUILD)/commit-stamp
$(shell mkdir -p $(BUILD); echo '$(GIT_COMMIT)' | cmp -s - $(COMMIT_STAMP) 2>/dev/null || echo '$(GIT_COMMIT)' > $(COMMIT_STAMP))
$(BUILD)/obj/bench/core/version.o: $(COMMIT_STAMP)

.PHONY: all test clean demo candidates
all: $(BUILD)/hgemm-bench $(BUILD)/hgemm-report candidates import-data

# The importer's data, beside the binary in $(BUILD)/import/ (docs/importer.md;
# bench/import/toolchain.h finds it there): each format's data (CUDA-L2's
# torch shim and the adapter compiled into each imported candidate), copied
# from its folder as they are, the public launcher header the adapters
# include, and the launch recorder with its recording stand-in of the CUDA
# runtime (a C program and library run on the CPU, never on the GPU).
IMPORT_DIR  := $(BUILD)/import
# A format folder's data: its .cu files and every file in its subfolders.
FORMAT_DATA_SRC := $(foreach d,$(IMPORT_FORMAT_DIRS),$(wildcard $(d)/*.cu) $(shell find $(d) -mindepth 2 -type f))
FORMAT_DATA     := $(foreach d,$(IMPORT_FORMAT_DIRS),$(patsubst $(d)/%,$(IMPORT_DIR)/%,$(filter $(d)/%,$(FORMAT_DATA_SRC))))
IMPORT_DATA := $(IMPORT_DIR)/hgemm-l2-record $(IMPORT_DIR)/libhb_record_cudart.so \
               $(IMPORT_DIR)/include/bench/candidate/hgemm_launch.h $(FORMAT_DATA)
.PHONY: import-data
import-data: $(IMPORT_DATA)
RECORD_CFLAGS := -std=c11 -Wall -Wextra -Werror -I. -I$(CUDA_HOME)/include $(CFLAGS)
$(IMPORT_DIR)/libhb_record_cudart.so: bench/import/record_runtime.c bench/import/kernel_signature.c \
                                      bench/import/kernel_signature.h bench/import/recording.h
	@mkdir -p $(dir $@)
	$(CC) $(RECORD_CFLAGS) -fPIC -shared -o $@ bench/import/record_runtime.c bench/import/kernel_signature.c -lstdc++
$(IMPORT_DIR)/hgemm-l2-record: bench/import/record_main.c bench/import/recording.h bench/candidate/hgemm_launch.h \
                               $(IMPORT_DIR)/libhb_record_cudart.so
	$(CC) $(RECORD_CFLAGS) -o $@ bench/import/record_main.c -L$(IMPORT_DIR) -lhb_record_cudart \
	    -Wl,-rpath,'$$ORIGIN' -l:libjansson.a -ldl
define format_data_rule
$(IMPORT_DIR)/%: $(1)/%
	@mkdir -p $$(dir $$@)
	cp $$< $$@
endef
$(foreach d,$(IMPORT_FORMAT_DIRS),$(eval $(call format_data_rule,$(d))))
$(IMPORT_DIR)/include/bench/candidate/hgemm_launch.h: bench/candidate/hgemm_launch.h
	@mkdir -p $(dir $@)
	cp $< $@

candidates: $(CANDIDATE_CUBIN) $(CANDIDATE_MANIFESTS) $(CANDIDATE_EXTRA_MANIFESTS) $(LAUNCHER_LIB) $(LAUNCHER_MANIFESTS)

$(BUILD)/hgemm-bench: $(BUILD)/obj/$(MAIN_C:.c=.o) $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The CUDA-free layers (docs/architecture.md): no CUDA header, no CUDA library.
CUDA_FREE_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard bench/core/*.c bench/result/*.c bench/report/*.c \
                 bench/sweep/*.c bench/analysis/*.c))

# hgemm-report: the commands that need no GPU (report, compare, ...), for a
# machine without CUDA.  Linked from an archive of the CUDA-free layers and
# the driver's files it needs: the command tables, the command line (its
# parser, option rows and shared groups), and the cmd_<name>.c and
# cmd_<name>_options.c of each row of bench/driver/cuda_free_commands.c (a new
# row there brings its files along).  Nothing in it is compiled by nvcc or
# includes a CUDA header, so `make build/hgemm-report CUDA_HOME=/nonexistent
# NVCC=false` builds it on a machine without a CUDA toolkit; and it links no
# CUDA library.  tests/cuda_free_binary.sh checks both.
REPORT_COMMANDS := $(shell sed -n 's/.*hb_cmd_\([a-z_]*\)}.*/\1/p' bench/driver/cuda_free_commands.c)
REPORT_DRIVER_C := bench/driver/commands.c bench/driver/options.c bench/driver/cuda_free_commands.c \
                   $(wildcard bench/driver/option_*.c) \
                   $(wildcard $(foreach c,$(REPORT_COMMANDS),bench/driver/cmd_$(c).c bench/driver/cmd_$(c)_options.c))
REPORT_ARCHIVE := $(BUILD)/libhgemm-report.a
$(REPORT_ARCHIVE): $(CUDA_FREE_OBJ) $(REPORT_DRIVER_C:%.c=$(BUILD)/obj/%.o)
	rm -f $@ && ar rcs $@ $^
$(BUILD)/hgemm-report: $(BUILD)/obj/$(MAIN_C:.c=.o) $(BUILD)/obj/$(REPORT_PROGRAM_C:.c=.o) $(REPORT_ARCHIVE)
	$(CC) -o $@ $^ -l:libjansson.a -l:libcsv.a -l:libnettle.a -lm

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HB_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(HB_NVFLAGS) -c -o $@ $<

# One cubin per architecture: the SASS the driver loads as is.
define cubin_rule
$(BUILD)/candidates/%.sm_$(1).cubin: candidates/%.cu
	@mkdir -p $$(dir $$@)
	$(NVCC) $(NVCCFLAGS) -Werror all-warnings -cubin -gencode arch=compute_$(1),code=sm_$(1) -o $$@ $$<
endef
$(foreach a,$(CUDA_ARCHS),$(eval $(call cubin_rule,$(a))))
# The fp16-accumulating sample is the fp32 sample's source built with another accumulator.
$(filter $(BUILD)/candidates/sample_mma_f16acc/%,$(CANDIDATE_CUBIN)): candidates/sample_mma/hgemm_mma_pipelined.cu
# The broken candidates share inline helpers from this header (cache_gemm.cuh: the caching ones).
$(filter $(BUILD)/candidates/broken/%,$(CANDIDATE_CUBIN)): candidates/broken/simple_gemm.cuh candidates/broken/cache_gemm.cuh
# sample_params is sample_simple's kernel with other parameters, from the same helpers.
$(filter $(BUILD)/candidates/sample_params/%,$(CANDIDATE_CUBIN)): candidates/broken/simple_gemm.cuh
# The honest candidates share the shared-memory tiling and the K walk.
$(filter $(BUILD)/candidates/honest/%,$(CANDIDATE_CUBIN)): candidates/honest/honest_tile.cuh

# One shared library per architecture: host code and the SASS of its kernels,
# linked to the CUDA runtime the harness has loaded (-cudart shared), not a
# second, static copy of it with its own view of the device.
LAUNCHER_NVFLAGS := -I. -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -shared -Xcompiler -fPIC -cudart shared
# Libraries a launcher links, after its source (LAUNCHER_LDLIBS, set per target below).
LAUNCHER_LDLIBS :=
define launcher_rule
$(BUILD)/candidates/%.sm_$(1).so: candidates/%.cu bench/candidate/hgemm_launch.h
	@mkdir -p $$(dir $$@)
	$(NVCC) $(NVCCFLAGS) $(LAUNCHER_NVFLAGS) -gencode arch=compute_$(1),code=sm_$(1) -o $$@ $$< $$(LAUNCHER_LDLIBS)
endef
$(foreach a,$(CUDA_ARCHS),$(eval $(call launcher_rule,$(a))))
# The sample launcher includes the mma sample's kernel; the broken ones share
# launcher_common.cuh, which includes the broken cubins' simple_gemm.cuh.
$(filter $(BUILD)/candidates/sample_mma_launcher/%,$(LAUNCHER_LIB)): candidates/sample_mma/hgemm_mma_pipelined.cu
$(filter $(BUILD)/candidates/broken_launchers/%,$(LAUNCHER_LIB)): candidates/broken_launchers/launcher_common.cuh \
    candidates/broken/simple_gemm.cuh candidates/broken_launchers/launcher_cublas.cuh candidates/broken_launchers/got_patch.h \
    candidates/broken_launchers/detour.h candidates/broken_launchers/driver_entry.h candidates/broken_launchers/timed_window.h
# Several broken launchers compute with cuBLAS (launcher_cublas.cuh): the same
# libcublas the harness links dynamically, so one copy is shared in the
# process; some walk the loaded objects and look symbols up (got_patch.h,
# driver_entry.h: -ldl; libcuda itself is looked up, never linked).
$(filter $(BUILD)/candidates/broken_launchers/%,$(LAUNCHER_LIB)): LAUNCHER_LDLIBS := -L$(CUDA_HOME)/lib64 \
    -Xlinker -rpath,$(CUDA_HOME)/lib64 -lcublas -ldl

# The manifest's "cubin": "@CUBINS@" becomes {"sm_80": "<kernel>.sm_80.cubin", ...},
# a launcher's "library": "@LIBRARIES@" {"sm_80": "<launcher>.sm_80.so", ...}, and
# "entry": "@ENTRY@" the name of the kernel in the first architecture's cubin as
# the cubin holds it, a C++ name mangled (scripts/cubin_entry.sh).
define fill_manifest
@mkdir -p $(dir $@)
kernel=$$(basename $$(ls $(dir $<)*.cu | head -n 1) .cu); \
map=$$(for a in $(CUDA_ARCHS); do printf '"sm_%s": "%s.sm_%s.cubin", ' $$a $$kernel $$a; done); \
libs=$$(for a in $(CUDA_ARCHS); do printf '"sm_%s": "%s.sm_%s.so", ' $$a $$kernel $$a; done); \
entry=; if grep -q '"@ENTRY@"' $<; then \
    entry=$$(scripts/cubin_entry.sh $(BUILD)/$(dir $<)$$kernel.sm_$(firstword $(CUDA_ARCHS)).cubin) || exit 1; fi; \
sed -e "s|\"@CUBINS@\"|{$${map%, }}|" -e "s|\"@LIBRARIES@\"|{$${libs%, }}|" -e "s|\"@ENTRY@\"|\"$$entry\"|" $< > $@
endef
$(BUILD)/candidates/%/manifest.json: candidates/%/manifest.json Makefile scripts/cubin_entry.sh
	$(fill_manifest)
# A folder's other manifests (CANDIDATE_EXTRA_MANIFESTS), filled in the same way.
$(CANDIDATE_EXTRA_MANIFESTS): $(BUILD)/%.json: %.json Makefile scripts/cubin_entry.sh
	$(fill_manifest)
# A manifest with "@ENTRY@" is filled from its folder's cubins: made after them.
ENTRY_MANIFEST_SRC := $(shell grep -l '"@ENTRY@"' /dev/null $(wildcard candidates/*/*.json))
$(foreach j,$(ENTRY_MANIFEST_SRC),$(eval $(BUILD)/$(j): $(filter $(BUILD)/$(dir $(j))%,$(CANDIDATE_CUBIN))))

# --- tests -------------------------------------------------------------------
# The mma sample built for both sm_80 and sm_90 whatever CUDA_ARCHS says: the
# load-error test hands this GPU a cubin of the other architecture.
ARCH_FIXTURES := $(BUILD)/test-fixtures/hgemm_mma_pipelined.sm_80.cubin $(BUILD)/test-fixtures/hgemm_mma_pipelined.sm_90.cubin
$(BUILD)/test-fixtures/hgemm_mma_pipelined.sm_%.cubin: candidates/sample_mma/hgemm_mma_pipelined.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -Werror all-warnings -cubin -gencode arch=compute_$*,code=sm_$* -o $@ $<

$(BUILD)/hgemm-tests: $(TEST_OBJ) $(LIB_OBJ) | $(ARCH_FIXTURES)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

# Test-only kernels, tests/data/*.cu -> $(BUILD)/tests/data/<name>.sm_XX.cubin: the
# module-state tests read them as ELF files (and load them on a GPU).  Built
# here, never committed: no binary in the repository.
TEST_CUBIN_SRC := $(wildcard tests/data/*.cu)
TEST_CUBIN     := $(foreach s,$(TEST_CUBIN_SRC),$(foreach a,$(CUDA_ARCHS),$(BUILD)/$(s:.cu=).sm_$(a).cubin))
define test_cubin_rule
$(BUILD)/tests/data/%.sm_$(1).cubin: tests/data/%.cu
	@mkdir -p $$(dir $$@)
	$(NVCC) $(NVCCFLAGS) -Werror all-warnings -cubin -gencode arch=compute_$(1),code=sm_$(1) -o $$@ $$<
endef
$(foreach a,$(CUDA_ARCHS),$(eval $(call test_cubin_rule,$(a))))

# Test-only launcher libraries, tests/data/launchers/*.c -> $(BUILD)/tests/data/
# launchers/<name>.so (as C11) and <name>.cxx.so (the same file as C++11): the
# launcher loader's tests load them without a GPU, and building them both ways
# with -pedantic-errors checks that bench/candidate/hgemm_launch.h compiles as
# C and as C++ with the same layout (the fixtures assert it).
TEST_LAUNCHER_SRC := $(wildcard tests/data/launchers/*.c)
TEST_LAUNCHERS    := $(TEST_LAUNCHER_SRC:%.c=$(BUILD)/%.so) $(TEST_LAUNCHER_SRC:%.c=$(BUILD)/%.cxx.so)
HEADER_CHECK_FLAGS := -Wall -Wextra -Werror -pedantic-errors -I. -I$(CUDA_HOME)/include -shared -fPIC
$(BUILD)/tests/data/launchers/%.cxx.so: tests/data/launchers/%.c bench/candidate/hgemm_launch.h
	@mkdir -p $(dir $@)
	$(CXX) -x c++ -std=c++11 $(HEADER_CHECK_FLAGS) -o $@ $<
$(BUILD)/tests/data/launchers/%.so: tests/data/launchers/%.c bench/candidate/hgemm_launch.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(HEADER_CHECK_FLAGS) -o $@ $<

# The CUDA-free layers (docs/architecture.md) link into a program without any
# CUDA library: a reference to one from them is a link error here.
$(BUILD)/cuda-free-check: $(BUILD)/obj/tests/cuda_free_main.o $(CUDA_FREE_OBJ)
	$(CC) -o $@ $^ -l:libjansson.a -l:libcsv.a -l:libnettle.a -lm -lpthread

test: $(BUILD)/hgemm-tests $(BUILD)/hgemm-bench $(BUILD)/hgemm-report $(BUILD)/cuda-free-check candidates import-data $(TEST_CUBIN) \
      $(TEST_LAUNCHERS)
	tests/check_layers.sh
	tests/check_layers_selftest.sh
	tests/plot_smoke.sh
	tests/candidate_scripts_smoke.sh
	BUILD=$(BUILD) CUDA_HOME=$(CUDA_HOME) tests/broken_launchers_cpu.sh $(CC) $(CXX)
	HB_BENCH=$(BUILD)/hgemm-bench tests/slurm_dry_run.sh
	tests/cuda_free_binary.sh $(BUILD)/hgemm-report
	tests/demo_gpu_check.sh
	HB_BUILD=$(BUILD) HB_BENCH=$(BUILD)/hgemm-bench HB_REPORT=$(BUILD)/hgemm-report $(BUILD)/hgemm-tests

# scripts/bench_target_ci.sh: --target-ci's costs on this CPU; never run by
# `make test`.  The criterion and what it uses are CUDA-free.
TARGET_CI_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(addprefix bench/measure/,stop_criterion.c time_criterion.c \
                 target_ci_criterion.c ci_worker.c))
$(BUILD)/bench-target-ci: $(BUILD)/obj/scripts/bench_target_ci.o $(TARGET_CI_OBJ) $(CUDA_FREE_OBJ)
	$(CC) -o $@ $^ -l:libjansson.a -l:libcsv.a -l:libnettle.a -lm -lpthread

# scripts/bench_cross_check_power.sh: the timed window's cross-check, its
# honest spread and power, from an honest run's files; never run by `make
# test`.  CUDA-free: it reads files.
$(BUILD)/cross-check-power: $(BUILD)/obj/scripts/cross_check_power.o $(CUDA_FREE_OBJ)
	$(CC) -o $@ $^ -l:libjansson.a -l:libcsv.a -l:libnettle.a -lm -lpthread

# scripts/bench_output_scan.sh: what the per-call output scan and its
# per-round read-back cost on this GPU; never run by `make test` (it needs one).
$(BUILD)/bench-output-scan: $(BUILD)/obj/scripts/bench_output_scan.o $(BUILD)/obj/bench/gpu/output_scan.o \
                            $(CUDA_FREE_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -l:libjansson.a -l:libcsv.a -l:libnettle.a -lcudart -lstdc++ -lm -lpthread

# scripts/bench_call_monitor.sh: what the always-on call monitor (CUPTI)
# costs a timed call on this GPU; never run by `make test` (it needs one).
$(BUILD)/bench-call-monitor: $(BUILD)/obj/scripts/bench_call_monitor.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# scripts/bench_report.sh: report's speed on a generated 1,000-configuration,
# two-mode result; never run by `make test`.
$(BUILD)/make-results: $(BUILD)/obj/scripts/make_results.o $(BUILD)/obj/tests/result_fixture.o $(CUDA_FREE_OBJ)
	$(CC) -o $@ $^ -l:libjansson.a -l:libcsv.a -l:libnettle.a -lm -lpthread

# scripts/bench_sweep_resume.sh: what resuming a 2000-item sweep costs; never
# run by `make test`.  The sweep's files are CUDA-free.
$(BUILD)/bench-sweep-resume: $(BUILD)/obj/scripts/bench_sweep_resume.o $(CUDA_FREE_OBJ)
	$(CC) -o $@ $^ -l:libjansson.a -l:libcsv.a -l:libnettle.a -lm -lpthread

# scripts/bench_sandbox.sh: what the sandbox costs a system call and a clock
# read on this CPU; never run by `make test`.  The sandbox is CUDA-free.
SANDBOX_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard bench/driver/sandbox*.c))
$(BUILD)/bench-sandbox: $(BUILD)/obj/scripts/bench_sandbox.o $(SANDBOX_OBJ) $(CUDA_FREE_OBJ)
	$(CC) -o $@ $^ -l:libseccomp.a -l:libjansson.a -l:libcsv.a -l:libnettle.a -lm -lpthread

# --- fuzzing: damaged inputs under AddressSanitizer and UBSan (tests/fuzz/fuzz.h) ---
# hgemm-fuzz runs the commands' own code on damaged copies of a corpus the
# harness writes itself.  `make fuzz` builds everything it runs with the
# sanitizers into $(FUZZ_BUILD) and runs FUZZ_CASES cases (at most FUZZ_TIME_S
# seconds); `make fuzz-ci` is the short fixed-seed pass .ci/run runs.  The
# cases' folders go to a fresh folder in FUZZ_TMP, a tmpfs where there is
# one with room (512 MiB free: a container's /dev/shm may hold only 64 MiB,
# and a case that fills it would read as a harness fault): a case makes and
# removes a hundred files or so, and on ext4 finding inodes for them took a
# fifth of the time.  Failing cases are kept in $(FUZZ_BUILD)/failures.
FUZZ_BUILD  ?= build-fuzz
FUZZ_SEED   ?= 1
FUZZ_CASES  ?= 20000
FUZZ_TIME_S ?= 600
FUZZ_JOBS   ?= 2
FUZZ_FLAGS  ?=
FUZZ_SHM    := $(shell df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 && $$4 > 524288 {print "/dev/shm"}')
FUZZ_TMP    ?= $(if $(FUZZ_SHM),$(FUZZ_SHM),$(FUZZ_BUILD))
FUZZ_CC     := $(CC) -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_C      := $(wildcard tests/fuzz/*.c)
.PHONY: fuzz fuzz-ci fuzz-build
$(BUILD)/hgemm-fuzz: $(FUZZ_C:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/tests/result_fixture.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
fuzz-build: candidates
	$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC="$(FUZZ_CC)" CFLAGS="-O1 -g" $(FUZZ_BUILD)/hgemm-fuzz
fuzz: fuzz-build
	@mkdir -p $(FUZZ_TMP) && work=$$(mktemp -d $(FUZZ_TMP)/hgemm-fuzz.XXXXXX) && status=0 && \
	$(FUZZ_BUILD)/hgemm-fuzz --candidates $(BUILD)/candidates --work "$$work" --keep $(FUZZ_BUILD)/failures \
	    --seed $(FUZZ_SEED) --cases $(FUZZ_CASES) --time-s $(FUZZ_TIME_S) --jobs $(FUZZ_JOBS) $(FUZZ_FLAGS) \
	    || status=$$?; rm -rf "$$work"; exit $$status
fuzz-ci:
	$(MAKE) --no-print-directory fuzz FUZZ_SEED=1 FUZZ_CASES=1500 FUZZ_TIME_S=90


DEMO_ARGS ?= --mnk 64,64,64 --mnk 1024,1024,1024 --mnk 4096,4096,4096
# A GPU first (scripts/check_gpu.sh: nvidia-smi, or the driver's /proc
# entry), before minutes of building; then the build and the run.
demo:
	@scripts/check_gpu.sh
	$(MAKE) --no-print-directory all
	$(BUILD)/hgemm-bench run --candidate $(BUILD)/candidates/sample_mma $(DEMO_ARGS) --out results
	plots/plot_run.sh "$$(ls -dt results/*/ | head -n 1)"

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
