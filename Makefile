# The README's Quick start: `make demo` and `make test`. Each first installs the Debian packages it
# needs (scripts/deps.sh), then configures (quick when already configured), builds and runs.
JOBS ?= $(shell nproc)
BUILD ?= build
CMAKE_FLAGS ?=
CONFIGURE = cmake -S . -G Ninja $(CMAKE_FLAGS)

.PHONY: all demo test test-scalar test-sanitize test-thread bench clean

all:
	scripts/deps.sh test
	$(CONFIGURE) -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD)/release -j $(JOBS)

demo:
	scripts/deps.sh build
	$(CONFIGURE) -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD)/release -j $(JOBS) --target hitscan_cli
	mkdir -p out
	$(BUILD)/release/hitscan render -o out/demo.png

test: all
	cd $(BUILD)/release && ctest --output-on-failure -j $(JOBS)

test-scalar:
	scripts/deps.sh test
	$(CONFIGURE) -B $(BUILD)/scalar -DCMAKE_BUILD_TYPE=Release -DHITSCAN_SIMD=OFF
	cmake --build $(BUILD)/scalar -j $(JOBS)
	cd $(BUILD)/scalar && ctest --output-on-failure -j $(JOBS)

test-sanitize:
	scripts/deps.sh sanitize
	$(CONFIGURE) -B $(BUILD)/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHITSCAN_SANITIZE=ON
	cmake --build $(BUILD)/sanitize -j $(JOBS)
	cd $(BUILD)/sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

# The tests that run work on several threads (thread pools, batches, parallel builds, scenes
# queried while edited and committed), under ThreadSanitizer; only their executables are built.
CONCURRENCY_TESTS = Executor|Batch|Parallel|Threads
CONCURRENCY_TARGETS = hitscan_math_tests hitscan_bvh_tests hitscan_mesh_tests hitscan_query_tests
test-thread:
	scripts/deps.sh sanitize
	$(CONFIGURE) -B $(BUILD)/thread -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHITSCAN_SANITIZE_THREAD=ON \
	  -DHITSCAN_BUILD_TOOLS=OFF
	cmake --build $(BUILD)/thread -j $(JOBS) --target $(CONCURRENCY_TARGETS)
	cd $(BUILD)/thread && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS) -R '$(CONCURRENCY_TESTS)'

bench:
	scripts/deps.sh bench
	$(CONFIGURE) -B $(BUILD)/bench -DCMAKE_BUILD_TYPE=Release -DHITSCAN_BUILD_BENCH=ON
	cmake --build $(BUILD)/bench -j $(JOBS)
	mkdir -p out
	$(BUILD)/bench/bench/hitscan_bench --jsonl out/bench.jsonl
	$(BUILD)/bench/bench/hitscan_mesh_bench --jsonl out/bench.jsonl
	$(BUILD)/bench/bench/hitscan_contacts_bench --jsonl out/bench.jsonl
	$(BUILD)/bench/bench/hitscan_scene_bench --jsonl out/bench.jsonl

clean:
	rm -rf $(BUILD)
