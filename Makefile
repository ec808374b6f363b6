# wolftable — see README.md. `make demo` runs the main job, `make test` the tests.
export PATH := /usr/local/go/bin:$(PATH)
GO ?= go
BIN := bin/wolftable

.PHONY: setup build sim demo test fuzz bench measure deb deb-smoke clean

setup:
	./scripts/setup

build: setup
	$(GO) build -o $(BIN) ./cmd/wolftable

# The main job on the embedded default: a whole game on the virtual table
# with random players (SPEED=N to change the speed).
sim:
	./scripts/sim

# A bundled example game, played through the real engine with the judge's
# transcript.
demo: build
	$(BIN) scenario run scenarios/examples/demo.wolf

# The tests: formatting, vet, the race-enabled test suite (which runs every
# scenario file), the scenario suite through the CLI, and a short fuzz smoke.
test: setup
	./scripts/test

fuzz: setup
	./scripts/fuzz 60s

bench: setup
	$(GO) test -run=NONE -bench=. -benchmem ./engine/ ./firmware-bridge/... ./audio/...

# The daemon's RSS, idle CPU, start-to-ready and restart-to-resumed.
measure: setup
	./scripts/measure

# Debian packages for amd64, arm64 and armhf (cgo cross builds) in dist/,
# and their smoke test (the arm64/armhf binaries under qemu-user).
deb: setup
	./scripts/deb

deb-smoke: deb
	./scripts/deb-smoke

clean:
	rm -rf bin
