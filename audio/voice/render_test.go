package voice

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/audio/defaultpack"
	"wolftable/audio/pack"
)

// referencePack is the default pack decoded straight (pack.Load), once
// per test binary: what every render is compared with.
var referencePack = sync.OnceValues(func() (*pack.Pack, error) { return pack.Load(defaultpack.FS()) })

// lineArgsFor are seats a line can take: as many as it takes, and three
// for a list.
func lineArgsFor(b *Binding, line string) []int {
	n := b.Args(line)
	if n < 0 {
		return []int{3, 9, 12}
	}
	seats := []int{}
	for i := range n {
		seats = append(seats, 2+5*i)
	}
	return seats
}

// checkRendered: a rendered line is the reference clips back to back, on
// every channel, sample for sample.
func checkRendered(t *testing.T, a pack.Audio, ref *source, seq []string, what string) {
	t.Helper()
	want := stream(t, ref, seq)
	if a.Rate != pack.SampleRate || a.Frames() != len(want) {
		t.Fatalf("%s: %d frames at %d Hz, want %d at %d", what, a.Frames(), a.Rate, len(want), pack.SampleRate)
	}
	for c := range a.Channels {
		for i, w := range want {
			if g := a.Samples[i*a.Channels+c]; g != w {
				t.Fatalf("%s: channel %d differs from the decoded clips at sample %d (%v): %d, want %d",
					what, c, i, time.Duration(i)*time.Second/pack.SampleRate, g, w)
			}
		}
	}
}

// TestEveryLineAsDecoded (issue 26): every line of the catalogue,
// rendered through the speaker's queue from the table's voice — the first
// start's (decoded on demand and in the background, which writes the
// decoded cache) and the next start's (memory-mapped from that cache) —
// is the default pack's clips as pack.Load decodes them, bit for bit on
// both channels. Before, the table held the voice as IMA ADPCM and no
// sample of a line was the decoded clip's (20.5 dB SNR at worst).
func TestEveryLineAsDecoded(t *testing.T) {
	ref, err := referencePack()
	if err != nil {
		t.Fatal(err)
	}
	refSrc := newSource(ref)
	dir := t.TempDir()
	b := defaultBinding(t)
	ctx := context.Background()

	first := openVoice(t, Options{Volume: 1, CacheDir: dir})
	if _, _, err := first.Decoded(ctx); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.pcm")); len(files) != 1 {
		t.Fatalf("decoded caches after the first start: %v", files)
	}
	next := openVoice(t, Options{Volume: 1, CacheDir: dir})
	n := 0
	for _, v := range []*Voice{first, next} {
		src := newSource(v.lazy)
		for _, line := range b.Lines() {
			seats := lineArgsFor(b, line)
			seq, err := b.Sequence(line, seats)
			if err != nil {
				continue // a cue, no sound
			}
			a, err := renderSeq(ctx, src, seq, 1)
			if err != nil {
				t.Fatalf("%s %v: %v", line, seats, err)
			}
			checkRendered(t, a, refSrc, seq, fmt.Sprintf("%s %v", line, seats))
			n++
		}
	}
	loaded, cached := next.lazy.Decoded()
	t.Logf("%d lines rendered twice; the next start loaded %d clips, %d of them from the decoded cache", n/2, loaded, cached)
	if n < 2*200 || cached == 0 || cached != loaded {
		t.Errorf("%d renders; the next start loaded %d clips, %d from the cache: want every one from it", n, loaded, cached)
	}
}

// TestCommandRender: `voice render` of ten lines writes WAV files whose
// samples are the decoded clips; a missing --out or an unknown line is
// refused.
func TestCommandRender(t *testing.T) {
	ref, err := referencePack()
	if err != nil {
		t.Fatal(err)
	}
	refSrc := newSource(ref)
	b := defaultBinding(t)
	dir := t.TempDir()
	lines := []string{"game.start", "night.wolves.open", "day.deaths", "vote.exile", "tally.vote", "election.lights",
		"night.witch.ask.gestures", "game.over.good", "game.over.wolves", "speech.start"}
	for i, line := range lines {
		seats := lineArgsFor(b, line)
		args := []string{"render", line}
		for _, s := range seats {
			args = append(args, fmt.Sprint(s))
		}
		out := filepath.Join(dir, fmt.Sprintf("%d.wav", i))
		var so, se strings.Builder
		if code := Command(append(args, "--out", out), &so, &se); code != 0 {
			t.Fatalf("voice %v: exit %d\n%s%s", args, code, so.String(), se.String())
		}
		raw, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		a, err := pack.DecodeWAV(raw)
		if err != nil {
			t.Fatal(err)
		}
		seq, _ := b.Sequence(line, seats)
		checkRendered(t, a, refSrc, seq, line)
	}
	for _, bad := range [][]string{{"render", "game.start"}, {"render", "no.such.line", "--out", filepath.Join(dir, "x.wav")}} {
		var so, se strings.Builder
		if code := Command(bad, &so, &se); code == 0 {
			t.Errorf("voice %v: exit 0", bad)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "x.wav")); len(files) > 0 {
		t.Error("a refused render wrote its file")
	}
}

// TestReadyAtOnce (issue 26): Open returns before the pack is decoded —
// the first start's voice is ready with nothing decoded, the next start's
// with nothing read from the cache — and the first line said decodes only
// its own clips.
func TestReadyAtOnce(t *testing.T) {
	dir := t.TempDir()
	for _, start := range []string{"first", "next"} {
		v := openVoice(t, Options{Volume: 1, CacheDir: dir})
		if start == "first" {
			v.cancel() // hold the background decode: what Open itself did
			<-v.warm
		}
		loaded, _ := v.lazy.Decoded()
		if loaded != 0 && start == "first" {
			t.Errorf("%s start: %d clips loaded by Open", start, loaded)
		}
		seq, _ := defaultBinding(t).Sequence("day.deaths", []int{3})
		src := newSource(v.lazy)
		if _, err := renderSeq(context.Background(), src, seq, 1); err != nil {
			t.Fatal(err)
		}
		after, cached := v.lazy.Decoded()
		t.Logf("%s start: %d clips loaded for the line (%d from the cache)", start, after-loaded, cached)
		if start == "first" {
			if after > len(seq) {
				t.Errorf("the first line loaded %d clips, it has %d", after, len(seq))
			}
			if _, _, err := v.Decoded(context.Background()); err != nil {
				t.Fatal(err)
			}
			// the held decode wrote nothing: decode now, as the table's
			// next start would have found it
			v2 := openVoice(t, Options{Volume: 1, CacheDir: dir})
			v2.Decoded(context.Background())
		} else if cached == 0 {
			t.Error("the next start did not use the decoded cache")
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.pcm")); len(files) != 1 || slices.Contains(files, "") {
		t.Errorf("caches: %v", files)
	}
}

// BenchmarkFirstSay: Say of a line none of whose clips is decoded yet
// (the table's first start, before the background decode reached them):
// Say decodes them before it returns. say-p99-ms is the slowest
// percentile over the lines cycled through (day.deaths with three seats,
// the longest announcements); the next starts map the decoded cache and
// decode nothing.
//
//	go test -run '^$' -bench FirstSay -benchtime 20x ./audio/voice
func BenchmarkFirstSay(b *testing.B) {
	bind, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	lines := []struct {
		line  string
		seats []int
	}{{"day.deaths", []int{3, 9, 12}}, {"game.start", nil}, {"election.lights", nil}, {"night.witch.ask.gestures", nil}, {"tally.vote", []int{1, 18}}}
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		z, err := pack.OpenLazy(defaultpack.FS())
		if err != nil {
			b.Fatal(err)
		}
		src := newSource(z)
		l := lines[i%len(lines)]
		start := time.Now()
		seq, err := bind.Sequence(l.line, l.seats)
		if err != nil {
			b.Fatal(err)
		}
		for _, id := range seq {
			if _, ok := src.Clip(id); !ok {
				b.Fatalf("no clip %s", id)
			}
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	p99 := took[min(len(took)-1, len(took)*99/100)]
	b.ReportMetric(float64(p99.Microseconds())/1000, "say-p99-ms")
}
