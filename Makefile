# wolftable — see README.md. `make sim` runs the main job (a whole game on the virtual table), `make demo` a bundled example game, `make test` the tests.
export PATH := /usr/local/go/bin:$(PATH)
GO ?= go
BIN := bin/wolftable

.PHONY: setup build sim demo test hil fuzz bench measure deb deb-smoke firmware clean

setup:
	./scripts/setup

# Both binaries into bin/ (ignored by git): the table's wolftable and the
# desk's wolftable-desk, which `wolftable desk` runs from beside it.
build: setup
	$(GO) build -o bin/ ./cmd/wolftable ./cmd/wolftable-desk

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

# The HIL run (docs/wiring.md): the GPIO table's drivers and the self-test
# on Debian's arm64 kernel under QEMU, with a simulated table of kernel
# modules (scripts/hil). The VM's parts are cached (HIL_CACHE, default
# ~/.cache/wolftable-hil); make test runs this too when they can be made.
hil: setup
	./scripts/hil/setup
	GOARCH=arm64 CGO_ENABLED=0 $(GO) test -tags hil -count=1 -exec "$(CURDIR)/scripts/hil/exec" ./drivers/gpio ./selftest ./drivers/serial

fuzz: setup
	./scripts/fuzz 60s

bench: setup
	$(GO) test -run=NONE -bench=. -benchmem ./engine/ ./audio/...
	# a game's start with 10 and with 10,000 finished games in the journals folder (issue 27)
	$(GO) test -run=NONE -bench=GameStart -benchtime=200x -count=3 ./cmd/wolftable/
	cd firmware-bridge && $(GO) test -run=NONE -bench=. -benchmem ./...

# The daemon's RSS, idle CPU, start-to-ready and restart-to-resumed.
measure: setup
	./scripts/measure

# Debian packages for amd64, arm64 and armhf (cgo cross builds) in dist/,
# and their smoke test (the arm64/armhf binaries under qemu-user).
deb: setup
	./scripts/deb

deb-smoke: deb
	./scripts/deb-smoke

# The Pico bridge firmware (firmware-bridge, a module of its own), as a UF2
# to copy onto the Pico: bin/wolftable-bridge.uf2. Needs TinyGo 0.39, which
# runs with Go 1.24 or 1.25 (not this project's 1.26): TINYGO_GO names that
# Go's bin directory. SEATS, REGISTERS (per seat: 2 or 3) and FROM_LAST=1 (the
# register on GP4 and the first LED are the last seat's) describe the board
# (docs/wiring.md). -scheduler=tasks: 0.39's rp2040 default, "cores", races
# the USB interrupt (firmware-bridge/cmd/pico/main.go). Nothing here can be
# flashed or run: see the README's "The bridge on real hardware".
TINYGO ?= tinygo
TINYGO_VERSION := 0.39.0
TINYGO_GO ?= $(HOME)/sdk/go1.25.0/bin
SEATS ?= 12
REGISTERS ?= 3
FROM_LAST ?= 0
firmware:
	@if ! command -v $(TINYGO) >/dev/null 2>&1; then \
	  echo "firmware: TinyGo is not installed. On Debian (amd64; arm64 likewise):"; \
	  echo "  wget https://github.com/tinygo-org/tinygo/releases/download/v$(TINYGO_VERSION)/tinygo_$(TINYGO_VERSION)_amd64.deb"; \
	  echo "  sudo dpkg -i tinygo_$(TINYGO_VERSION)_amd64.deb"; \
	  echo "and a Go it runs with (1.24 or 1.25), for TINYGO_GO:"; \
	  echo "  go install golang.org/dl/go1.25.0@latest && ~/go/bin/go1.25.0 download"; \
	  echo "then: make firmware [TINYGO_GO=~/sdk/go1.25.0/bin] [SEATS=12 REGISTERS=3 FROM_LAST=0]"; \
	  exit 1; \
	fi
	@$(TINYGO) version | grep -q " $(TINYGO_VERSION) " || \
	  echo "firmware: warning: the firmware is checked against TinyGo $(TINYGO_VERSION); this is $$($(TINYGO) version)"
	mkdir -p bin
	cd firmware-bridge && PATH="$(TINYGO_GO):$$PATH" $(TINYGO) build -target=pico -serial=usb -scheduler=tasks \
	  -ldflags "-X main.seats=$(SEATS) -X main.registersPerSeat=$(REGISTERS) -X main.chainFromLastSeat=$(FROM_LAST)" \
	  -o ../bin/wolftable-bridge.uf2 ./cmd/pico

clean:
	rm -rf bin
