package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// The daemon runs for hours on a small board next to the sound server, and
// its target is 30 MB of RSS with the voice loaded (issue 5). Go's collector
// lets the heap grow to twice what is live before it collects, and decoding
// the voice pack makes hundreds of MB of short-lived garbage (go-mp3
// allocates per frame), so without a limit the heap peaks near twice the
// pack while it loads. A soft memory limit makes the collector work sooner
// instead. GOMEMLIMIT in the environment (e.g. the systemd unit's
// Environment=) overrides both figures.
const (
	// memoryLimit holds while the voice loads: the engine, the console and
	// the default pack's 3.9 MB of packed samples fit under it. Measured
	// (`sim --bots --voice on`, peak VmRSS, 2026-12-02, the pack packed):
	// 16 MiB with 8 MiB headroom 31.5 MB, 16 MiB with 4 MiB 29.1-29.2 MB
	// (the pack ready in 4.7 s on a loaded 2-core machine); 12 MiB with 4
	// MiB 27.7-28.5 MB, but the collector then runs flat out and the pack
	// takes 11-16 s.
	memoryLimit = 16 << 20
	// memoryHeadroom is what the limit leaves above the live memory once
	// the voice is loaded, so that a venue's longer pack never has the
	// collector running flat out against the limit.
	memoryHeadroom = 4 << 20
)

// limitMemory sets the daemon's soft memory limit (serve, sim).
func limitMemory() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	debug.SetMemoryLimit(memoryLimit)
}

// settleMemory runs once the voice pack is decoded: the garbage goes back to
// the system now, and the limit becomes what is live plus the headroom (never
// less than memoryLimit).
func settleMemory() {
	debug.FreeOSMemory()
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.SetMemoryLimit(max(memoryLimit, int64(ms.Sys-ms.HeapReleased)+memoryHeadroom))
}
