# The two commands of the README: `make demo` and `make test`. Both install
# what is missing (scripts/setup.sh), configure and build into build/.
# `make hardening`: the host tests under ASan + UBSan (build-asan/) and 30 s of
# each fuzzer (build-fuzz/); CI runs it after `make test`.
BUILD_DIR ?= build
CMAKE_FLAGS ?=

.PHONY: all setup build demo test hardening gpu-check clean

all: build

setup:
	@bash scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_DIR)

demo: build
	@bash scripts/demo.sh $(BUILD_DIR)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j 2

hardening: setup
	@bash scripts/sanitize.sh
	@bash scripts/fuzz.sh 30

clean:
	rm -rf $(BUILD_DIR)
