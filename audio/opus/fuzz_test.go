package opus

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fuzzMax bounds the audio in FuzzDecodeNeverPanics.
const fuzzMax = 2 * time.Second

// typed tells whether err wraps one of the package's sentinels and is
// named for the package.
func typed(err error) bool {
	return (errors.Is(err, ErrMalformed) || errors.Is(err, ErrUnsupported) || errors.Is(err, ErrTooLong)) &&
		!errors.Is(err, errTruncated) && strings.HasPrefix(err.Error(), "opus: ")
}

// FuzzDecodeNeverPanics: any bytes give an error wrapping ErrMalformed,
// ErrUnsupported or ErrTooLong, or 48 kHz audio of 1 or 2 channels, not
// empty, no longer than the maxDuration, in a buffer no larger than it.
// Never a panic. Seeds: testdata/fuzz/FuzzDecodeNeverPanics (the fixtures
// and mutations of them) and the hand-built files below.
func FuzzDecodeNeverPanics(f *testing.F) {
	f.Add(webmFile(monoTracks(), elUnknown(idCluster, simpleBlock(1, laceXiph, silence, silence, []byte{0xFB, 0x06}))))
	f.Add(webmFile(el(idTracks, opusTrack(1, opusHead(2, 0, 300))), el(idCluster,
		el(idBlockGroup, el(idBlock, block(1, laceEBML, []byte{0xFC}, []byte{0xFC, 0, 0})), elUint(idDiscardPadding, 1000000)))))
	f.Add(oggOpus(1, opusHead(1, 312, 0), repeat(silence, 5), 2))
	f.Add(oggOpus(1, opusHead(2, 0, -500), [][]byte{{0xFC}, {0xFF, 0x03}}, 255))
	maxFrames := framesIn(fuzzMax)
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Decode(b, fuzzMax)
		if err != nil {
			if !typed(err) {
				t.Fatalf("error %q wraps none of ErrMalformed, ErrUnsupported, ErrTooLong", err)
			}
			return
		}
		if a.Rate != SampleRate || a.Channels < 1 || a.Channels > 2 {
			t.Fatalf("%d Hz, %d channels", a.Rate, a.Channels)
		}
		if len(a.Samples) == 0 || len(a.Samples)%a.Channels != 0 {
			t.Fatalf("%d samples for %d channels", len(a.Samples), a.Channels)
		}
		if int64(a.Frames()) > maxFrames || int64(cap(a.Samples)) > maxFrames*int64(a.Channels) {
			t.Fatalf("%d frames in a buffer of %d samples, max %v", a.Frames(), cap(a.Samples), fuzzMax)
		}
	})
}

// demuxAny runs the demuxer of b's format, the Ogg one without checking
// CRCs (so that the fuzzer reaches past them).
func demuxAny(b []byte, s sink) error {
	if Sniff(b) == Ogg {
		_, err := (&oggDemuxer{noCRC: true}).demux(b, s)
		return err
	}
	return demuxWebM(b, s)
}

// FuzzDemuxPacketsWithinInput: on any bytes, the WebM and Ogg demuxers
// return a typed error, or one track and packets whose bytes all come from
// the input (no more of them than the input holds), with a discard within
// two seconds. Never a panic. Seeds: testdata/fuzz/FuzzDemuxPacketsWithinInput.
func FuzzDemuxPacketsWithinInput(f *testing.F) {
	f.Add(webmFile(monoTracks(), elUnknown(idCluster, simpleBlock(1, laceEBML, frames(3, 300, 1)...))))
	f.Add(joinPages(oggPackets(3, append([][]byte{opusHead(1, 0, 0), []byte("OpusTags")}, frames(600, 3)...), []int64{0, 0, 1, 2}, 2)))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r recorder
		err := demuxAny(b, &r)
		if err != nil {
			if !typed(err) {
				t.Fatalf("error %q wraps none of ErrMalformed, ErrUnsupported, ErrTooLong", err)
			}
			return
		}
		if len(r.tracks) != 1 {
			t.Fatalf("%d tracks", len(r.tracks))
		}
		if tr := r.tracks[0]; tr.channels < 1 || tr.channels > 2 || tr.preSkip < 0 || tr.preSkip > 2*SampleRate {
			t.Fatalf("track %+v", tr)
		}
		total := 0
		for i, p := range r.packets {
			total += len(p)
			if r.discards[i] < 0 || r.discards[i] > 2*SampleRate {
				t.Fatalf("packet %d: discard %d", i, r.discards[i])
			}
		}
		if total > len(b) {
			t.Fatalf("%d packet bytes from %d bytes", total, len(b))
		}
	})
}

// fuzzSizes reads little-endian uint16 sizes, each below limit.
func fuzzSizes(b []byte, limit, maxCount int) []int {
	var out []int
	for i := 0; i+1 < len(b) && len(out) < maxCount; i += 2 {
		out = append(out, int(binary.LittleEndian.Uint16(b[i:]))%limit)
	}
	return out
}

// FuzzOggPacketsRoundTrip: packets of any sizes, paged with any number of
// segments a page (spanning pages when they must), come out of the Ogg
// demuxer as they went in, with the last page's granule. Seeds:
// testdata/fuzz/FuzzOggPacketsRoundTrip.
func FuzzOggPacketsRoundTrip(f *testing.F) {
	f.Add([]byte{3, 0, 0xFF, 0, 0, 1, 0x58, 2}, uint8(1))
	f.Add([]byte{0xFE, 0x03, 0, 0, 0xFF, 0, 1, 0}, uint8(254))
	f.Fuzz(func(t *testing.T, sizes []byte, segs uint8) {
		in := frames(fuzzSizes(sizes, 2048, 300)...)
		head, tags := opusHead(2, 100, 0), []byte("OpusTags")
		granules := make([]int64, len(in)+2)
		for i := range in {
			granules[i+2] = int64(i+1) * 960
		}
		file := joinPages(oggPackets(7, append([][]byte{head, tags}, in...), granules, 1+int(segs)%255))
		var r recorder
		granule, err := (&oggDemuxer{}).demux(file, &r)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(r.packets, in, bytes.Equal) {
			t.Fatalf("packets of %v bytes, want %v", lens(r.packets), lens(in))
		}
		want := int64(len(in)) * 960
		if len(in) == 0 {
			want = -1
		}
		if granule != want {
			t.Fatalf("granule %d, want %d", granule, want)
		}
	})
}

// FuzzWebMLacingRoundTrip: frames of any sizes, in a block of any lacing
// (fixed: all of the first one's size; none: the first frame only), come
// out of the WebM demuxer as they went in. Seeds:
// testdata/fuzz/FuzzWebMLacingRoundTrip.
func FuzzWebMLacingRoundTrip(f *testing.F) {
	f.Add(uint8(laceXiph), []byte{0, 0, 0xFF, 0, 0xFE, 1, 2, 0})
	f.Add(uint8(laceEBML), []byte{0xFF, 0x0F, 0, 0, 3, 0, 0xFF, 0x0F})
	f.Add(uint8(laceFixed), []byte{10, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, kind uint8, sizes []byte) {
		kind %= 4
		n := fuzzSizes(sizes, 4096, 256)
		if len(n) == 0 {
			return
		}
		switch kind {
		case laceNone:
			n = n[:1]
		case laceFixed:
			for i := range n {
				n[i] = n[0]
			}
		}
		in := frames(n...)
		var r recorder
		err := demuxWebM(webmFile(monoTracks(), elUnknown(idCluster, simpleBlock(1, kind, in...))), &r)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(r.packets, in, bytes.Equal) {
			t.Fatalf("lacing %d: packets of %v bytes, want %v", kind, lens(r.packets), lens(in))
		}
	})
}

var writeSeeds = flag.Bool("write-seeds", false, "rewrite the seed corpora in testdata/fuzz from the fixtures")

// TestWriteSeeds writes the checked-in seed corpora when asked (see
// testdata/README.md): the fixtures, and mutations of them.
func TestWriteSeeds(t *testing.T) {
	if !*writeSeeds {
		t.Skip("-write-seeds not given")
	}
	chromium := readFixture(t, "tone-chromium-mono.webm")
	ffmpeg := readFixture(t, "tone-ffmpeg-stereo.webm")
	ogg := readFixture(t, "tone-opusenc-mono.ogg")
	files := map[string][]byte{
		"chromium":             chromium,
		"opusenc":              ogg,
		"ffmpeg_first_6k":      ffmpeg[:6000],
		"chromium_half":        chromium[:len(chromium)/2],
		"chromium_lacing_xiph": setLacing(chromium, laceXiph),
		"chromium_lacing_ebml": setLacing(chromium, laceEBML),
		"chromium_known_size":  knownSegment(chromium),
		"chromium_no_head":     bytes.Replace(chromium, []byte("OpusHead"), []byte("OpusHeax"), 1),
		"opusenc_bad_crc":      flipByte(ogg, 500),
		"opusenc_half":         ogg[:len(ogg)/2],
		"opusenc_stereo_head":  recrc(setByte(ogg, oggHeaderLen+1+9, 2)),
		"huge_size":            webmFile(el(idTracks, elSized(idTrackEntry, 1<<40))),
		"ogg_empty_segments":   joinPages([]oggPage{{flags: oggBOS, serial: 1, table: make([]byte, 255)}}),
	}
	// The demuxers' target gets the fixtures and the mutations of their
	// structure (not those only the decoder sees).
	demux := []string{"chromium", "opusenc", "chromium_known_size", "chromium_lacing_xiph", "opusenc_half", "huge_size", "ogg_empty_segments"}
	for _, target := range []string{"FuzzDecodeNeverPanics", "FuzzDemuxPacketsWithinInput"} {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range files {
			if target == "FuzzDemuxPacketsWithinInput" && !slices.Contains(demux, name) {
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for target, seeds := range map[string]map[string]string{
		"FuzzOggPacketsRoundTrip": {
			"none":        "[]byte(\"\")\nuint8(0)",
			"spanning":    "[]byte(\"\\xff\\a\\x00\\x00\\xfe\\x00\\xff\\x00\")\nuint8(1)",
			"255_a_page":  "[]byte(\"\\xff\\x00\\xff\\x00\\xff\\x00\\xff\\x00\")\nuint8(0)",
			"full_pages":  "[]byte(\"\\x00\\x01\\x00\\x01\\x00\\x01\\x00\\x01\")\nuint8(254)",
			"three_pages": "[]byte(\"\\x01\\x00\\xfd\\x02\\x02\\x00\")\nuint8(2)",
		},
		"FuzzWebMLacingRoundTrip": {
			"none":       "uint8(0)\n[]byte(\"\\x05\\x00\")",
			"xiph_255s":  "uint8(1)\n[]byte(\"\\xff\\x00\\xfe\\x01\\x00\\x00\\xfd\\x01\")",
			"fixed":      "uint8(2)\n[]byte(\"\\x10\\x00\\x00\\x00\\x00\\x00\")",
			"ebml_delta": "uint8(3)\n[]byte(\"\\x00\\x0f\\x01\\x00\\xff\\x0f\\x00\\x00\")",
			"ebml_one":   "uint8(3)\n[]byte(\"\\x00\\x01\")",
		},
	} {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, s := range seeds {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("go test fuzz v1\n"+s+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// setLacing sets the lacing bits of every SimpleBlock of b found by its
// pattern (ID A3, a 1-byte size, track 1): the frames become nonsense
// lacing for the fuzzer to work from.
func setLacing(b []byte, kind byte) []byte {
	b = slices.Clone(b)
	for i := 0; i+5 < len(b); i++ {
		if b[i] == idSimpleBlock && b[i+1]&0x80 != 0 && b[i+2] == 0x81 {
			b[i+5] = b[i+5]&^6 | kind<<1
		}
	}
	return b
}

// knownSegment gives the Segment of a MediaRecorder file its real size.
func knownSegment(b []byte) []byte {
	i := bytes.Index(b, idBytes(idSegment))
	if i < 0 || i+12 > len(b) {
		return b
	}
	b = slices.Clone(b)
	copy(b[i+4:], vint(uint64(len(b)-i-12), 8))
	return b
}

// recrc recomputes the CRC of every page of an Ogg file.
func recrc(b []byte) []byte {
	b = slices.Clone(b)
	for off := 0; off+oggHeaderLen <= len(b); {
		n := oggHeaderLen + int(b[off+26])
		if off+n > len(b) {
			break
		}
		for _, l := range b[off+oggHeaderLen : off+n] {
			n += int(l)
		}
		if off+n > len(b) {
			break
		}
		binary.LittleEndian.PutUint32(b[off+22:], oggCRC(b[off:off+n]))
		off += n
	}
	return b
}
