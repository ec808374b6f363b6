package selftest

import (
	"context"
	"errors"
	"os"
	"testing"
)

// TestSecondBenchRefused: a process's sound goes to the first emulated
// bench's card for good (ALSA reads its configuration once), so a second
// bench with an emulated card is refused with a clear error instead of a
// technician who "did not hear" a good speaker. A bench on the system's
// speaker is still allowed. Without the guard the second StartBench
// succeeds and the test fails.
func TestSecondBenchRefused(t *testing.T) {
	t.Setenv("ALSA_CONFIG_PATH", os.Getenv("ALSA_CONFIG_PATH")) // restored after the test
	ctx := context.Background()
	first, err := StartBench(ctx, BenchConfig{Seats: 12})
	if err != nil && !errors.Is(err, errSoundPointed) {
		t.Fatal(err)
	}
	if first != nil {
		first.Close()
	}
	second, err := StartBench(ctx, BenchConfig{Seats: 12})
	if !errors.Is(err, errSoundPointed) {
		if second != nil {
			second.Close()
		}
		t.Fatalf("a second emulated card in one process: %v", err)
	}
	sys, err := StartBench(ctx, BenchConfig{Seats: 12, SystemSpeaker: true})
	if err != nil {
		t.Fatalf("a bench on the system's speaker: %v", err)
	}
	sys.Close()
}
