# The README's Quick start: `make demo` and `make test`. Each first installs the Debian packages it
# needs (scripts/deps.sh), then configures (quick when already configured), builds and runs.
JOBS ?= $(shell nproc)
BUILD ?= build
CMAKE_FLAGS ?=
CONFIGURE = cmake -S . -G Ninja $(CMAKE_FLAGS)
# The sanitizer builds compile at -O1 with line tables only: half the compile time of -O2 -g,
# and the stack traces still name file and line.
SANITIZE_FLAGS = -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O1 -g1 -DNDEBUG' \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO='-O1 -g1 -DNDEBUG'

.PHONY: all demo test test-install test-scalar test-sanitize test-thread fuzz bench clean

all:
	scripts/deps.sh test
	$(CONFIGURE) -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release -DHITSCAN_BUILD_PYTHON=ON
	cmake --build $(BUILD)/release -j $(JOBS)

demo:
	scripts/deps.sh build
	$(CONFIGURE) -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD)/release -j $(JOBS) --target hitscan_cli
	mkdir -p out
	$(BUILD)/release/hitscan drape -o out/demo.png --route-out out/route.csv

# The pip install check (label `install`: a venv, pip install --no-build-isolation, a second build
# of the core) runs in make test-install.
test: all
	cd $(BUILD)/release && ctest --output-on-failure -j $(JOBS) -LE install

test-install: all
	cd $(BUILD)/release && ctest --output-on-failure -L install

# The scalar fallback of the SIMD types, under the tests of the layers whose code uses them (the
# C API, io, AR and the examples only call into these layers); the test programs are run directly.
SCALAR_TESTS = hitscan_math_tests hitscan_geometry_tests hitscan_bvh_tests hitscan_mesh_tests hitscan_query_tests
test-scalar:
	scripts/deps.sh test
	$(CONFIGURE) -B $(BUILD)/scalar -DCMAKE_BUILD_TYPE=Release -DHITSCAN_SIMD=OFF -DHITSCAN_BUILD_TOOLS=OFF
	cmake --build $(BUILD)/scalar -j $(JOBS) --target $(SCALAR_TESTS)
	printf '%s\n' $(SCALAR_TESTS) | xargs -P $(JOBS) -I{} sh -c '$(BUILD)/scalar/tests/{} --gtest_brief=1'

test-sanitize:
	scripts/deps.sh sanitize
	$(CONFIGURE) -B $(BUILD)/sanitize $(SANITIZE_FLAGS) -DHITSCAN_SANITIZE=ON -DHITSCAN_BUILD_TOOLS=OFF
	cmake --build $(BUILD)/sanitize -j $(JOBS)
	cd $(BUILD)/sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan_suppressions.txt ctest --output-on-failure -j $(JOBS)

# The tests that run work on several threads (thread pools, batches, parallel builds, scenes
# queried while edited and committed), under ThreadSanitizer; only their executables are built,
# each from just the files that declare such a test (tests/CMakeLists.txt).
CONCURRENCY_TESTS = Executor|Batch|Parallel|Threads
CONCURRENCY_TARGETS = hitscan_math_tests hitscan_bvh_tests hitscan_mesh_tests hitscan_query_tests hitscan_capi_tests
test-thread:
	scripts/deps.sh sanitize
	$(CONFIGURE) -B $(BUILD)/thread $(SANITIZE_FLAGS) -DHITSCAN_SANITIZE_THREAD=ON \
	  -DHITSCAN_BUILD_TOOLS=OFF
	cmake --build $(BUILD)/thread -j $(JOBS) --target $(CONCURRENCY_TARGETS)
	cd $(BUILD)/thread && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS) -R '$(CONCURRENCY_TESTS)'

# The libFuzzer targets (fuzz/README.md), built by clang with the library instrumented for
# coverage, AddressSanitizer and UndefinedBehaviorSanitizer; only they and what they link are
# built. Each replays the seed corpus that scripts/make_fuzz_corpus.py writes and the inputs that
# once broke it (fuzz/regressions/), then mutates them for FUZZ_SECONDS (from seed 1, but
# libFuzzer's path still varies from run to run: threads, scratch paths, children); FUZZ_RUNS=0
# replays only; CI runs it with FUZZ_SECONDS=30 (see .ci/run). The targets run side by side (90
# seconds are about a minute of one core each on two cores), each into $(BUILD)/fuzz/<target>.log, whose last lines are
# printed. Any crash, leak (but assimp's own, fuzz/lsan_suppressions.txt), hang or out-of-memory
# fails the make; what broke it is saved as $(BUILD)/fuzz/<target>-crash-<hash> (or -leak-,
# -timeout-, -oom-).
FUZZ_SECONDS ?= 90
FUZZ_RUNS ?= -1
FUZZ_TARGETS = fuzz_mesh_loader fuzz_ray_file fuzz_capi
fuzz:
	scripts/deps.sh fuzz
	CC=clang CXX=clang++ $(CONFIGURE) -B $(BUILD)/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHITSCAN_BUILD_FUZZERS=ON \
	  -DHITSCAN_BUILD_TOOLS=OFF -DHITSCAN_BUILD_TESTS=OFF
	cmake --build $(BUILD)/fuzz -j $(JOBS) --target $(FUZZ_TARGETS)
	scripts/make_fuzz_corpus.py $(BUILD)/fuzz-corpus
	pids=; for target in $(FUZZ_TARGETS); do \
	  LSAN_OPTIONS=suppressions=fuzz/lsan_suppressions.txt $(BUILD)/fuzz/fuzz/$$target \
	    $(BUILD)/fuzz-corpus/$$target fuzz/regressions/$$target -seed=1 -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_SECONDS) \
	    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/$$target- \
	    > $(BUILD)/fuzz/$$target.log 2>&1 & pids="$$pids $$!"; \
	done; \
	failed=0; for pid in $$pids; do wait $$pid || failed=1; done; \
	for target in $(FUZZ_TARGETS); do \
	  echo "== $$target"; grep -E '^(stat::number_of_executed_units|stat::new_units_added|Done)' $(BUILD)/fuzz/$$target.log; \
	  if grep -qE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix=)' $(BUILD)/fuzz/$$target.log; then tail -60 $(BUILD)/fuzz/$$target.log; fi; \
	done; \
	exit $$failed

# tinybvh joins the mesh ray suite's baselines when its header sits in ../shared/baselines/tinybvh.
TINYBVH_DIR = $(abspath ../shared/baselines/tinybvh)
TINYBVH_FLAGS = $(if $(wildcard $(TINYBVH_DIR)/tiny_bvh.h),-DHITSCAN_TINYBVH_DIR=$(TINYBVH_DIR))
# Jolt Physics joins the scene suite's baselines when its sources (Jolt/, Build/) sit in
# ../shared/baselines/jolt; the build compiles it from there.
JOLT_DIR = $(abspath ../shared/baselines/jolt)
JOLT_FLAGS = $(if $(wildcard $(JOLT_DIR)/Build/CMakeLists.txt),-DHITSCAN_BENCH_JOLT_DIR=$(JOLT_DIR))

bench:
	scripts/deps.sh bench
	$(CONFIGURE) -B $(BUILD)/bench -DCMAKE_BUILD_TYPE=Release -DHITSCAN_BUILD_BENCH=ON -DHITSCAN_BUILD_PYTHON=ON \
	  $(TINYBVH_FLAGS) $(JOLT_FLAGS)
	cmake --build $(BUILD)/bench -j $(JOBS)
	mkdir -p out
	$(BUILD)/bench/bench/hitscan_bench --jsonl out/bench.jsonl
	$(BUILD)/bench/bench/hitscan_mesh_bench --jsonl out/bench.jsonl
	$(BUILD)/bench/bench/hitscan_contacts_bench --jsonl out/bench.jsonl
	$(BUILD)/bench/bench/hitscan_scene_bench --jsonl out/bench.jsonl
	PYTHONPATH=$(BUILD)/bench/python PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 bench/python_bench.py --jsonl out/bench.jsonl
	$(BUILD)/bench/bench/hitscan_ar_bench --jsonl out/bench.jsonl
	$(BUILD)/bench/bench/hitscan_structures_bench --jsonl out/bench.jsonl
	/usr/bin/python3 scripts/bench_tables.py out/bench.jsonl docs/benchmarks.md

clean:
	rm -rf $(BUILD)
