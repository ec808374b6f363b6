package player

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"wolftable/audio/pack"
)

// clips is a pack in a map.
type clips map[string][]int16

func (c clips) Clip(id string) (pack.Clip, bool) {
	s, ok := c[id]
	return pack.Clip{ID: id, Samples: s}, ok
}

// ramp returns n samples start, start+1, ...: every sample differs, so any
// drop, repeat or reorder shows.
func ramp(start, n int) []int16 {
	s := make([]int16, n)
	for i := range s {
		s[i] = int16(start + i)
	}
	return s
}

// rate is the clips' and the queue's rate; frames converts a duration.
const rate = pack.SampleRate

func frames(d time.Duration) int { return int(int64(d) * rate / int64(time.Second)) }

var testClips = clips{
	"昨夜":   ramp(1000, 700),
	"9號":   ramp(2000, 333),
	"玩家死亡": ramp(-5000, 1200),
	"tone": func() []int16 {
		s := make([]int16, rate/10) // 100 ms
		for i := range s {
			s[i] = int16(20000 * math.Sin(2*math.Pi*440*float64(i)/rate))
		}
		return s
	}(),
}

// readFrames reads n frames from q, in reads of up to chunk bytes, and returns
// the first channel; it fails the test if the channels differ.
func readFrames(t *testing.T, q *Queue, n, chunk int) []int16 {
	t.Helper()
	ch := q.Format().Channels
	buf := make([]byte, 0, n*2*ch)
	p := make([]byte, chunk)
	for len(buf) < n*2*ch {
		want := min(len(p), n*2*ch-len(buf))
		k, err := q.Read(p[:want])
		if err != nil || k%(2*ch) != 0 {
			t.Fatalf("Read = %d, %v", k, err)
		}
		buf = append(buf, p[:k]...)
	}
	out := make([]int16, n)
	for i := range out {
		for c := 0; c < ch; c++ {
			v := int16(binary.LittleEndian.Uint16(buf[(i*ch+c)*2:]))
			if c == 0 {
				out[i] = v
			} else if v != out[i] {
				t.Fatalf("frame %d: channel %d = %d, channel 0 = %d", i, c, v, out[i])
			}
		}
	}
	return out
}

func TestQueueGapless(t *testing.T) {
	for _, ch := range []int{1, 2} {
		q := NewQueue(testClips, WithChannels(ch))
		lead := readFrames(t, q, 100, 4096)
		if slices.ContainsFunc(lead, func(s int16) bool { return s != 0 }) {
			t.Fatal("an idle queue must be silent")
		}
		if err := q.Say([]string{"昨夜", "9號", "玩家死亡"}); err != nil {
			t.Fatal(err)
		}
		if err := q.Say([]string{"9號"}); err != nil {
			t.Fatal(err)
		}
		// Odd read sizes, so clip edges fall inside reads.
		got := readFrames(t, q, 700+333+1200+333+50, 6*ch+2)
		want := slices.Concat(testClips["昨夜"], testClips["9號"], testClips["玩家死亡"], testClips["9號"], make([]int16, 50))
		if !slices.Equal(got, want) {
			t.Fatalf("channels=%d: stream is not the clips back to back", ch)
		}
	}
}

func TestQueueChunk(t *testing.T) {
	q := NewQueue(testClips, WithChunk(2*time.Millisecond))
	n, err := q.Read(make([]byte, 1<<20))
	if err != nil || n != frames(2*time.Millisecond)*4 {
		t.Fatalf("Read = %d, %v; want one 2 ms chunk (%d bytes)", n, err, frames(2*time.Millisecond)*4)
	}
	if n, err := q.Read(make([]byte, 3)); n != 0 || err != nil {
		t.Fatalf("Read into a buffer smaller than a frame = %d, %v", n, err)
	}
}

func TestQueueMissingClip(t *testing.T) {
	q := NewQueue(testClips)
	err := q.Say([]string{"昨夜", "19號", "玩家死亡", "x"})
	var me *MissingClipsError
	if !errors.As(err, &me) || !slices.Equal(me.IDs, []string{"19號", "x"}) {
		t.Fatalf("err = %v, want MissingClipsError{19號 x}", err)
	}
	if q.Busy() {
		t.Fatal("nothing of a sentence with a missing clip may be queued")
	}
	if err := q.Say(nil); err != nil || q.Busy() {
		t.Fatalf("empty sentence: %v, busy %v", err, q.Busy())
	}
}

func TestQueueInterrupt(t *testing.T) {
	q := NewQueue(testClips, WithFade(5*time.Millisecond), WithChannels(1))
	q.Say([]string{"tone", "玩家死亡"})
	q.Say([]string{"昨夜"})
	readFrames(t, q, 1000, 512)
	q.Interrupt()
	q.Say([]string{"9號"}) // said after Interrupt: plays after the fade
	fade := frames(5 * time.Millisecond)
	got := readFrames(t, q, fade+333+10, 512)
	for i := 0; i < fade; i++ {
		orig := float64(testClips["tone"][1000+i])
		g := float64(fade-i) / float64(fade+1)
		if math.Abs(float64(got[i])-orig*g) > 1 {
			t.Fatalf("fade sample %d = %d, want %.0f × %.3f", i, got[i], orig, g)
		}
	}
	if !slices.Equal(got[fade:fade+333], testClips["9號"]) {
		t.Fatal("the sentence said after Interrupt must follow the fade")
	}
	if slices.ContainsFunc(got[fade+333:], func(s int16) bool { return s != 0 }) {
		t.Fatal("interrupted clips must not come back")
	}

	// Interrupting before a clip starts drops it without a sound.
	q.Say([]string{"昨夜"})
	q.Interrupt()
	if got := readFrames(t, q, 100, 512); slices.ContainsFunc(got, func(s int16) bool { return s != 0 }) {
		t.Fatal("a clip interrupted before it started must not play")
	}
	if q.Busy() {
		t.Fatal("busy after interrupting everything")
	}
	q.Interrupt() // idle: no effect
}

func TestQueueVolume(t *testing.T) {
	q := NewQueue(testClips, WithChannels(1))
	q.SetVolume(math.NaN())
	q.SetVolume(7)
	if q.Volume() != 1 {
		t.Fatalf("volume clamps to 1, got %v", q.Volume())
	}
	q.SetVolume(0.5)
	q.Say([]string{"tone"})
	got := readFrames(t, q, rate/10, 4096)
	ramp := frames(10 * time.Millisecond)
	for i := 0; i < ramp; i++ {
		if math.Abs(float64(got[i])) > math.Abs(float64(testClips["tone"][i]))+1 {
			t.Fatalf("sample %d grew while the volume went down", i)
		}
	}
	for i := ramp; i < len(got); i++ {
		if want := float64(testClips["tone"][i]) / 2; math.Abs(float64(got[i])-want) > 1 {
			t.Fatalf("sample %d = %d, want %.1f at volume 0.5", i, got[i], want)
		}
	}
	q.SetVolume(-1)
	q.Say([]string{"tone"})
	got = readFrames(t, q, rate/10, 4096)
	if slices.ContainsFunc(got[ramp:], func(s int16) bool { return s != 0 }) {
		t.Fatal("volume 0 must be silent after the ramp")
	}
}

func TestQueueWait(t *testing.T) {
	q := NewQueue(testClips, WithLatency(10*time.Millisecond), WithChannels(1))
	if err := q.Wait(context.Background()); err != nil {
		t.Fatalf("an idle queue's Wait returns at once: %v", err)
	}
	q.Say([]string{"昨夜", "9號"})
	done := make(chan error, 1)
	go func() { done <- q.Wait(context.Background()) }()

	readFrames(t, q, 700+333+frames(10*time.Millisecond)-1, 64) // one frame short of the latency
	select {
	case err := <-done:
		t.Fatalf("Wait returned %v before the latency had passed", err)
	case <-time.After(10 * time.Millisecond):
	}
	readFrames(t, q, 1, 64)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if q.Busy() {
		t.Fatal("still busy")
	}

	q.Say([]string{"昨夜"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := q.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with a cancelled context = %v", err)
	}
	q.Close()
	if err := q.Wait(context.Background()); err != nil {
		t.Fatalf("Wait after Close = %v", err)
	}
	if err := q.Say([]string{"昨夜"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Say after Close = %v", err)
	}
	if got := readFrames(t, q, 10, 64); slices.ContainsFunc(got, func(s int16) bool { return s != 0 }) {
		t.Fatal("a closed queue reads silence")
	}
}

func TestQueueLineStart(t *testing.T) {
	var starts [][]string
	q := NewQueue(testClips, WithLineStart(func(clips []string, at time.Time) {
		starts = append(starts, clips)
	}))
	seq := []string{"昨夜", "9號"}
	q.Say(seq)
	seq[0] = "changed by the caller"
	q.Say([]string{"玩家死亡"})
	readFrames(t, q, 3000, 4096)
	if len(starts) != 2 || !slices.Equal(starts[0], []string{"昨夜", "9號"}) || starts[1][0] != "玩家死亡" {
		t.Fatalf("line starts %q", starts)
	}
}

func TestDrive(t *testing.T) {
	q := NewQueue(testClips)
	var (
		mu     sync.Mutex
		events []bool
	)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		Drive(ctx, q, 20*time.Millisecond, func(stalled bool, quiet time.Duration) {
			mu.Lock()
			events = append(events, stalled)
			mu.Unlock()
		})
	}()
	defer func() { cancel(); wg.Wait() }()

	start := time.Now()
	q.Say([]string{"tone", "tone"}) // 200 ms, and no sink reads
	wctx, wcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer wcancel()
	if err := q.Wait(wctx); err != nil {
		t.Fatalf("Wait with no sink: %v", err)
	}
	if d := time.Since(start); d < 200*time.Millisecond || d > 300*time.Millisecond {
		t.Fatalf("Drive played a 200 ms line in %v; it must keep real time", d)
	}
	// A sink comes back for a while, then goes quiet again.
	for range 10 {
		readFrames(t, q, 10, 64)
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(60 * time.Millisecond)
	cancel()
	wg.Wait()
	if !slices.Equal(events, []bool{true, false, true}) {
		t.Fatalf("stall events %v, want [true false true]", events)
	}
}

func TestDriveStepsBackForASink(t *testing.T) {
	q := NewQueue(testClips, WithChannels(1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Drive(ctx, q, 50*time.Millisecond, nil)
	// A sink that reads every few milliseconds gets every sample.
	q.Say([]string{"昨夜", "9號", "玩家死亡"})
	var got []int16
	for len(got) < 2233 {
		got = append(got, readFrames(t, q, 240, 480)...)
		time.Sleep(2 * time.Millisecond)
	}
	want := slices.Concat(testClips["昨夜"], testClips["9號"], testClips["玩家死亡"])
	if !slices.Equal(got[:len(want)], want) {
		t.Fatal("Drive took samples from a live sink")
	}
}

// TestQueueConcurrent is for the race detector: a sink reads while the game
// says, interrupts, waits and turns the volume.
func TestQueueConcurrent(t *testing.T) {
	q := NewQueue(testClips)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p := make([]byte, 1024)
		for ctx.Err() == nil {
			q.Read(p)
		}
	}()
	for i := 0; i < 200; i++ {
		q.Say([]string{"昨夜", "9號"})
		switch i % 4 {
		case 1:
			q.Interrupt()
		case 2:
			q.SetVolume(float64(i%10) / 10)
		case 3:
			wctx, wcancel := context.WithTimeout(ctx, time.Second)
			if err := q.Wait(wctx); err != nil {
				t.Error(err)
			}
			wcancel()
		}
	}
	cancel()
	wg.Wait()
}

func TestQueuePulls(t *testing.T) {
	now := time.Now()
	q := NewQueue(testClips)
	q.now = func() time.Time { return now }
	p := make([]byte, 4096)
	for period := 0; period < 10; period++ {
		now = now.Add(10 * time.Millisecond)
		for i := 0; i < 3; i++ { // one refill: three reads in a row
			q.Read(p)
			now = now.Add(20 * time.Microsecond)
		}
	}
	if got := q.Pulls(); got != 10 {
		t.Fatalf("Pulls = %d, want 10", got)
	}
}

func TestQueueSetLatency(t *testing.T) {
	q := NewQueue(testClips, WithChannels(1))
	q.SetLatency(time.Millisecond)
	q.Say([]string{"9號"})
	readFrames(t, q, 333+frames(time.Millisecond)-1, 64)
	if !q.Busy() {
		t.Fatal("idle before the 1 ms latency has passed")
	}
	readFrames(t, q, 1, 64)
	if q.Busy() {
		t.Fatal("busy after the latency")
	}
}
