# Thin wrapper over CMake for the README's two commands (make demo, make test) and the benchmark.
BUILD ?= build
ASAN_BUILD ?= build-asan
WERROR ?= 0
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_OPTIONS = -DCMAKE_BUILD_TYPE=Release $(if $(filter 1,$(WERROR)),-DDRAPE_WERROR=ON,)

PREFIX ?= /usr/local

.PHONY: install install-lib deps build demo test check asan-build test-asan test-blender test-slurm bench bench-garments bench-integrators stability gallery validate fuzz clean

deps:
	@bash scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_OPTIONS)
	cmake --build $(BUILD) -j $(JOBS)

# Runs the default scene (the paper's figure 1 drape) into out/demo.
demo: build
	./$(BUILD)/drape run --out out/demo --force

# All tests: the release build, then every suite again under AddressSanitizer and
# UndefinedBehaviorSanitizer; the last line counts passed and failed tests over both.
test: build asan-build
	ASAN_OPTIONS=detect_leaks=1 bash scripts/run-tests.sh $(BUILD) $(ASAN_BUILD) -- -j $(JOBS)

# The edit-compile-test loop: the tests labelled "check" (unit suites, the command's options,
# Python; under a minute on two cores).
check: build
	bash scripts/run-tests.sh $(BUILD) -- -j $(JOBS) -L check

asan-build: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DDRAPE_SANITIZE=ON $(if $(filter 1,$(WERROR)),-DDRAPE_WERROR=ON,)
	cmake --build $(ASAN_BUILD) -j $(JOBS)

test-asan: asan-build
	ASAN_OPTIONS=detect_leaks=1 bash scripts/run-tests.sh $(ASAN_BUILD) -- -j $(JOBS)

# drape's PC2 and GLB exports imported by Debian's Blender (installed if missing) and compared
# with the OBJ frames; a minute or two, so not part of `make test` (docs/caches.md).
test-blender: build
	bash tests/blender_roundtrip.sh ./$(BUILD)/drape $(CURDIR)

# docs/batch.md's Slurm job array submitted to a real scheduler: a private single-node Slurm on
# localhost (Debian's slurm-wlm and munge, installed if missing; needs root), sbatch --array, the
# runs checked and gathered; about 20 s, so not part of `make test` (it starts daemons).
test-slurm: build
	bash tests/slurm_test.sh ./$(BUILD)/drape $(CURDIR)

# Re-makes docs/validation.md: every physical check with drape's number, the reference and the
# tolerance (a few minutes).
validate: build
	OMP_WAIT_POLICY=PASSIVE ./$(BUILD)/drape_validate docs/validation.md

bench: build
	./$(BUILD)/drape bench --csv $(BUILD)/bench.csv
	./$(BUILD)/drape bench --character

# The paper's Table 1 rows 3-6 for the garment scenes on the moving body, one thread (minutes;
# docs/benchmarks.md, "Garments").
bench-garments: build
	./$(BUILD)/drape bench --garments

# Re-makes docs/images/ (docs/gallery.md and the README's still and clip); takes minutes.
gallery: build
	bash scripts/render-gallery.sh ./$(BUILD)/drape 60
# ADI Cloth: cost of each integrator on 50^2 ... 500^2 sheets at its largest stable step
# (docs/stability.md; about 15 minutes on one core).
bench-integrators: build
	OMP_WAIT_POLICY=passive ./$(BUILD)/drape bench --integrators --csv $(BUILD)/bench_integrators.csv

# ADI Cloth sec. 6.3-6.5: every integrator's largest stable step, table, CSV and chart (~2 min).
stability: build
	OMP_WAIT_POLICY=passive ./$(BUILD)/drape stability --all --csv $(BUILD)/stability.csv --png $(BUILD)/stability.png

# Installs bin/drape, include/drape.h, libdrape.so.0 and libdrape.a, lib/pkgconfig/drape.pc and
# lib/cmake/drape/ under PREFIX (docs/install.md).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The library alone (no GL, EGL, GLFW, cairo, libpng or ffmpeg needed).
install-lib:
	cmake -S . -B $(BUILD)-lib -DCMAKE_BUILD_TYPE=Release -DDRAPE_BUILD_APP=OFF
	cmake --build $(BUILD)-lib -j $(JOBS)
	cmake --install $(BUILD)-lib --prefix $(PREFIX)

# libFuzzer campaign (docs/reliability.md, "Fuzzing"): the targets in fuzz/ built with clang into
# build-fuzz, run one after another for FUZZ_SECONDS each (FUZZ_TARGETS: scene obj set sim
# character keys svg_path dxf), on corpora kept in build-fuzz/corpus/NAME; findings in build-fuzz/findings/NAME.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= scene obj set sim character keys svg_path dxf
fuzz: deps
	JOBS=$(JOBS) bash scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
