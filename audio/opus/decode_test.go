package opus

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"wolftable/audio/pack"
)

// fixtures are the recordings in testdata (made as testdata/README.md
// says) from the source signal of source_test.go.
var fixtures = []struct {
	name     string
	format   Format
	channels int
	// frames is what ffmpeg decodes of the file (with libopus, pre-skip
	// and end padding removed), noted when the fixture was made.
	frames int
	// The source's tone starts at srcLead; the Chromium recording starts
	// wherever the fake microphone's loop was.
	aligned bool
}{
	{"tone-chromium-mono.webm", WebM, 1, 72000, false},
	{"tone-ffmpeg-stereo.webm", WebM, 2, 72000, true},
	{"tone-opusenc-mono.ogg", Ogg, 1, 72000, true},
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeFixtures(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			b := readFixture(t, f.name)
			if got := Sniff(b); got != f.format {
				t.Errorf("Sniff = %v, want %v", got, f.format)
			}
			a, err := Decode(b, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if a.Rate != SampleRate || a.Channels != f.channels {
				t.Fatalf("%d Hz, %d channels; want %d Hz, %d channels", a.Rate, a.Channels, SampleRate, f.channels)
			}
			const tolerance = 1200 // 25 ms
			if d := a.Frames() - f.frames; d < -tolerance || d > tolerance {
				t.Errorf("%d frames (%v), ffmpeg decodes %d", a.Frames(), a.Duration(), f.frames)
			}
			if f.aligned {
				if d := a.Frames() - srcFrames; d < -tolerance || d > tolerance {
					t.Errorf("%d frames (%v), the source has %d", a.Frames(), a.Duration(), srcFrames)
				}
			}
			src := sourceTone(f.channels)
			for c := 0; c < f.channels; c++ {
				got, want := channel(a, c), channel(src, c)
				if l, w := toneLevel(got), toneLevel(want); math.Abs(l-w) > 1 {
					t.Errorf("channel %d: tone at %.2f dBFS, the source's at %.2f", c, l, w)
				}
				if fr := toneFrequency(got); math.Abs(fr-srcFreq[c]) > 2 {
					t.Errorf("channel %d: tone at %.1f Hz, want %.0f", c, fr, srcFreq[c])
				}
				if !f.aligned {
					continue
				}
				// Where the tone begins tells the pre-skip was removed: it
				// is 312 samples (6.5 ms) in these files.
				g0, _ := loud(got)
				w0, _ := loud(want)
				if d := g0 - w0; d < -48 || d > 48 {
					t.Errorf("channel %d: the tone begins at frame %d, the source's at %d", c, g0, w0)
				}
			}
		})
	}
}

func TestDecodeTooLong(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			b := readFixture(t, f.name)
			for _, max := range []time.Duration{0, time.Millisecond, 100 * time.Millisecond, 1400 * time.Millisecond} {
				a, err := Decode(b, max)
				if !errors.Is(err, ErrTooLong) {
					t.Errorf("max %v: %v, %v; want ErrTooLong", max, a.Duration(), err)
				} else if !strings.HasPrefix(err.Error(), "opus: ") {
					t.Errorf("max %v: error %q", max, err)
				}
			}
			// Exactly as long as what ffmpeg decodes: it fits.
			if a, err := Decode(b, time.Duration(f.frames)*time.Second/SampleRate); err != nil || a.Frames() != f.frames {
				t.Errorf("max = its length: %d frames, %v", a.Frames(), err)
			}
		})
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Format
	}{
		{"\x1a\x45\xdf\xa3", WebM},
		{"\x1a\x45\xdf\xa3\x9f\x42\x86", WebM},
		{"OggS\x00\x02", Ogg},
		{"OggS", Ogg},
		{"OggX", Unknown},
		{"Ogg", Unknown},
		{"\x1a\x45\xdf", Unknown},
		{"RIFF\x00\x00\x00\x00WAVE", Unknown},
		{"ID3\x04", Unknown},
		{"", Unknown},
	} {
		t.Run(fmt.Sprintf("%q", tc.in), func(t *testing.T) {
			if got := Sniff([]byte(tc.in)); got != tc.want {
				t.Errorf("Sniff = %v, want %v", got, tc.want)
			}
		})
	}
	if Unknown.String() != "unknown" || WebM.String() != "WebM" || Ogg.String() != "Ogg" || Format(9).String() != "unknown" {
		t.Error("Format.String")
	}
}

func TestDecodeErrors(t *testing.T) {
	tracks := monoTracks()
	for _, tc := range []struct {
		name string
		file []byte
		err  error
	}{
		{"empty", nil, ErrUnsupported},
		{"WAV", pack.EncodeWAV(sourceTone(1)), ErrUnsupported},
		{"MP3", []byte("ID3\x04\x00\x00\x00\x00\x00\x00"), ErrUnsupported},
		{"a packet libopus refuses", webmFile(tracks, elUnknown(idCluster, simpleBlock(1, laceNone, silence), simpleBlock(1, laceNone, []byte{0x03}))), ErrMalformed},
		{"an empty packet", webmFile(tracks, elUnknown(idCluster, simpleBlock(1, laceXiph, silence, nil, silence))), ErrMalformed},
		{"no blocks", webmFile(tracks, elUnknown(idCluster, elUint(idTimestamp, 0))), ErrMalformed},
		{"pre-skip longer than the audio", webmFile(el(idTracks, opusTrack(1, opusHead(1, 2000, 0))), elUnknown(idCluster, simpleBlock(1, laceNone, silence))), ErrMalformed},
		{"Ogg headers only", oggOpus(1, opusHead(1, 0, 0), nil, 255), ErrMalformed},
		{"Ogg, a packet libopus refuses", oggOpus(1, opusHead(1, 0, 0), [][]byte{silence, {0xFF, 0xFF}}, 255), ErrMalformed},
		{"Ogg Vorbis", joinPages([]oggPage{{flags: oggBOS | oggEOS, serial: 7, table: []byte{30}, body: append([]byte("\x01vorbis"), make([]byte, 23)...)}}), ErrUnsupported},
		{"WebM Vorbis", webmFile(el(idTracks, el(idTrackEntry, elUint(idTrackNumber, 1), elUint(idTrackType, 2), elString(idCodecID, "A_VORBIS")))), ErrUnsupported},
		{"a bad CRC", flipByte(readFixture(t, "tone-opusenc-mono.ogg"), 3000), ErrMalformed},
		{"a long silence, max 1 s", webmFile(tracks, elUnknown(idCluster, simpleBlock(1, laceXiph, repeat([]byte{0xFB, 0x06}, 20)...))), ErrTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Decode(tc.file, time.Second)
			if !errors.Is(err, tc.err) {
				t.Fatalf("%v of audio, error %v; want %v", a.Duration(), err, tc.err)
			}
			if !strings.HasPrefix(err.Error(), "opus: ") {
				t.Errorf("error %q", err)
			}
			t.Log(err)
		})
	}
}

// TestDecodeTruncated: a recording cut short keeps its whole packets.
func TestDecodeTruncated(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			b := readFixture(t, f.name)
			whole, err := Decode(b, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			// (opusenc's pages hold a second of audio: a cut keeps only
			// whole pages, their CRC checked.)
			for _, keep := range []int{len(b) * 3 / 4, len(b) - 1} {
				a, err := Decode(b[:keep], 10*time.Second)
				if err != nil {
					t.Fatalf("%d bytes of %d: %v", keep, len(b), err)
				}
				if a.Channels != whole.Channels || a.Frames() == 0 || a.Frames() > whole.Frames()+960 {
					t.Errorf("%d bytes of %d: %d frames, %d channels; whole, %d frames", keep, len(b), a.Frames(), a.Channels, whole.Frames())
				}
				n := min(len(a.Samples), len(whole.Samples)) - 960*a.Channels // the end may differ (no end trimming)
				if !slices.Equal(a.Samples[:n], whole.Samples[:n]) {
					t.Errorf("%d bytes of %d: the samples differ from the whole file's", keep, len(b))
				}
			}
			if _, err := Decode(b[:100], 10*time.Second); !errors.Is(err, ErrMalformed) {
				t.Errorf("100 bytes: %v, want ErrMalformed", err)
			}
		})
	}
}

// TestDecodeMemoryBounded: ten minutes of silence (120 ms packets laced 255
// to a block), decoded with a maxDuration of one second, cost about one
// second of samples, not ten minutes'.
func TestDecodeMemoryBounded(t *testing.T) {
	long := repeat([]byte{0xFB, 0x06}, 255) // 255 × 120 ms
	var blocks [][]byte
	for range 20 {
		blocks = append(blocks, simpleBlock(1, laceXiph, long...))
	}
	file := webmFile(monoTracks(), elUnknown(idCluster, blocks...))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Decode(file, time.Second)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLong) {
		t.Fatalf("%v, want ErrTooLong", err)
	}
	// One second of mono is 96 kB; ten minutes 57.6 MB.
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("decoding allocated %d bytes", n)
	}
	a, err := Decode(file, 2*time.Second+500*time.Millisecond)
	if !errors.Is(err, ErrTooLong) || a.Samples != nil {
		t.Errorf("%d samples, %v; want ErrTooLong", len(a.Samples), err)
	}
}

// TestDecodeBuffer: the buffer grows to the audio, never past maxDuration.
func TestDecodeBuffer(t *testing.T) {
	b := readFixture(t, "tone-ffmpeg-stereo.webm")
	for _, max := range []time.Duration{1501 * time.Millisecond, 2 * time.Second, time.Hour} {
		a, err := Decode(b, max)
		if err != nil {
			t.Fatal(err)
		}
		if limit := framesIn(max) * 2; int64(cap(a.Samples)) > limit || cap(a.Samples) > 2*len(a.Samples) {
			t.Errorf("max %v: %d samples in a buffer of %d", max, len(a.Samples), cap(a.Samples))
		}
	}
}

// TestDecodeGain: the OpusHead's output gain is applied (+6.02 dB doubles
// the amplitude).
func TestDecodeGain(t *testing.T) {
	tr, packets := fixturePackets(t, "tone-opusenc-mono.ogg")
	for _, gain := range []int16{0, 1541, -1541} {
		a, err := Decode(oggOpus(1, opusHead(tr.channels, tr.preSkip, gain), packets, 255), 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		want := srcRMSdBFS + float64(gain)/256
		if got := toneLevel(a.Samples); math.Abs(got-want) > 1 {
			t.Errorf("gain %.2f dB: the tone at %.2f dBFS, want %.2f", float64(gain)/256, got, want)
		}
	}
}

func TestFramesIn(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int64
	}{
		{-time.Second, 0},
		{0, 0},
		{time.Second, 48000},
		{1500 * time.Millisecond, 72000},
		{20833, 0},
		{20834, 1},
		{time.Second + 20834, 48001},
		{10 * time.Minute, 28800000},
		{math.MaxInt64, int64(math.MaxInt64/time.Millisecond)*48 + int64(math.MaxInt64%time.Millisecond)*48/1e6},
	} {
		if got := framesIn(tc.d); got != tc.want {
			t.Errorf("framesIn(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}
