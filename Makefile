# The README's Quick start: `make demo` and `make test`. Each installs the Debian packages it needs.
JOBS ?= $(shell nproc)
BUILD ?= build
CMAKE_FLAGS ?=

.PHONY: all demo test test-scalar test-sanitize bench deps clean

all: $(BUILD)/release/.configured
	cmake --build $(BUILD)/release -j $(JOBS)

$(BUILD)/release/.configured: CMakeLists.txt
	scripts/deps.sh build
	cmake -S . -B $(BUILD)/release -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	touch $@

demo: $(BUILD)/release/.configured
	cmake --build $(BUILD)/release -j $(JOBS) --target hitscan_cli
	mkdir -p out
	$(BUILD)/release/hitscan render -o out/demo.png

test: all
	cd $(BUILD)/release && ctest --output-on-failure -j $(JOBS)

test-scalar:
	scripts/deps.sh test
	cmake -S . -B $(BUILD)/scalar -G Ninja -DCMAKE_BUILD_TYPE=Release -DHITSCAN_SIMD=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD)/scalar -j $(JOBS)
	cd $(BUILD)/scalar && ctest --output-on-failure -j $(JOBS)

test-sanitize:
	scripts/deps.sh sanitize
	cmake -S . -B $(BUILD)/sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHITSCAN_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD)/sanitize -j $(JOBS)
	cd $(BUILD)/sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

bench:
	scripts/deps.sh bench
	cmake -S . -B $(BUILD)/bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DHITSCAN_BUILD_BENCH=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD)/bench -j $(JOBS)
	mkdir -p out
	$(BUILD)/bench/bench/hitscan_bench --jsonl out/bench.jsonl

clean:
	rm -rf $(BUILD)
