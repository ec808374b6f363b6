package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// The daemon runs for hours on a small board next to the sound server
// (issue 26's budgets: peak RSS of a voiced game 40 MB, idle 32 MB). Go's
// collector lets the heap grow to twice what is live before it collects,
// and decoding the voice pack makes hundreds of MB of short-lived garbage
// (go-mp3 allocates per frame), so without a limit the heap peaks far
// above what is live while the pack decodes. A soft memory limit makes
// the collector work sooner instead. GOMEMLIMIT in the environment (e.g.
// the systemd unit's Environment=) overrides it.
//
// With the decoded cache the voice's samples are mapped pages of a file,
// not heap; without one (no writable cache folder) the default pack's 15
// MB of samples become live heap, and settleMemory raises the limit above
// them once they are decoded.
const (
	// memoryLimit holds while the voice decodes: the engine, the console
	// and the clips said so far fit under it.
	memoryLimit = 16 << 20
	// memoryHeadroom is what the limit leaves above the live memory once
	// the voice is decoded, so that a venue's longer pack held in memory
	// never has the collector running flat out against the limit.
	memoryHeadroom = 4 << 20
)

// limitMemory sets the daemon's soft memory limit (serve, sim).
func limitMemory() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	debug.SetMemoryLimit(memoryLimit)
}

// settleMemory runs once the voice pack is decoded (voice.Options.Decoded):
// the garbage goes back to the system now, and the limit becomes what is
// live plus the headroom (never less than memoryLimit).
func settleMemory() {
	debug.FreeOSMemory()
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.SetMemoryLimit(max(memoryLimit, int64(ms.Sys-ms.HeapReleased)+memoryHeadroom))
}
