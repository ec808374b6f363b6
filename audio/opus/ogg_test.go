package opus

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestOggDemux(t *testing.T) {
	f := frames(3, 254, 255, 256, 510, 600, 1, 2)
	head := opusHead(1, 312, 0)
	tags := []byte("OpusTags\x00\x00\x00\x00\x00\x00\x00\x00")
	gran := func(n int) []int64 { // headers 0, then 960 a packet
		g := make([]int64, n)
		for i := 2; i < n; i++ {
			g[i] = int64(i-1) * 960
		}
		return g
	}
	stream := func(serial uint32, packets [][]byte, segs int) []oggPage {
		return oggPackets(serial, packets, gran(len(packets)), segs)
	}
	all := append([][]byte{head, tags}, f...)
	mono := track{channels: 1, preSkip: 312}
	vorbis := oggPage{flags: oggBOS, serial: 7, table: []byte{30}, body: append([]byte("\x01vorbis"), make([]byte, 23)...)}
	for _, tc := range []struct {
		name    string
		file    []byte
		track   track
		packets [][]byte
		granule int64
		err     error
	}{
		{name: "one packet a page", file: joinPages(stream(1, all, 1)), track: mono, packets: f, granule: 8 * 960},
		{name: "many packets a page", file: joinPages(stream(1, all, 255)), track: mono, packets: f, granule: 8 * 960},
		{name: "packets spanning pages", file: joinPages(stream(1, all, 2)), track: mono, packets: f, granule: 8 * 960},
		{
			name:    "a packet over three pages",
			file:    joinPages(stream(1, [][]byte{head, tags, f[0], bytes.Repeat([]byte{9}, 2000), f[1]}, 3)),
			track:   mono,
			packets: [][]byte{f[0], bytes.Repeat([]byte{9}, 2000), f[1]},
			granule: 3 * 960,
		},
		{
			name:    "interleaved with a Vorbis stream",
			file:    interleave(stream(1, all, 2), []oggPage{vorbis, {serial: 7, seq: 1, table: []byte{4}, body: []byte("abcd")}}),
			track:   mono,
			packets: f,
			granule: 8 * 960,
		},
		{
			name:    "the last page's granule",
			file:    joinPages(setGranule(stream(1, all, 255), -1, 7000)),
			track:   mono,
			packets: f,
			granule: 7000,
		},
		{
			name:    "truncated in the last page",
			file:    cut(joinPages(stream(1, all, 2)), 100),
			track:   mono,
			packets: f[:len(f)-3],
			granule: 5 * 960,
		},
		{
			name:    "truncated in a page header",
			file:    cut(joinPages(stream(1, all, 1)), len(stream(1, all, 1)[len(stream(1, all, 1))-1].bytes())-20),
			track:   mono,
			packets: f[:len(f)-1],
			granule: 7 * 960,
		},
		{
			name:    "no EOS",
			file:    joinPages(setFlags(stream(1, all, 255), -1, 0)),
			track:   mono,
			packets: f,
			granule: 8 * 960,
		},
		{
			name:    "a chained stream after EOS ignored",
			file:    append(joinPages(stream(1, all, 255)), joinPages(stream(2, all, 255))...),
			track:   mono,
			packets: f,
			granule: 8 * 960,
		},
		{
			name:    "family 1, stereo",
			file:    joinPages(stream(1, [][]byte{append(withFamily(opusHead(2, 0, 0), 1), 1, 1, 0, 1), tags, f[0]}, 255)),
			track:   track{channels: 2},
			packets: f[:1],
			granule: 960,
		},
		{name: "headers only", file: joinPages(stream(1, [][]byte{head, tags}, 255)), track: mono, granule: -1},
		{name: "bad CRC", file: flipByte(joinPages(stream(1, all, 2)), 200), err: ErrMalformed},
		{name: "bad CRC field", file: flipByte(joinPages(stream(1, all, 2)), 22), err: ErrMalformed},
		{name: "a page lost", file: joinPages(slices.Delete(stream(1, all, 1), 4, 5)), err: ErrMalformed},
		{name: "continued without a beginning", file: joinPages(setFlags(stream(1, all, 1), 3, oggContinued)), err: ErrMalformed},
		{name: "not continued", file: joinPages(uncontinue(stream(1, all, 2))), err: ErrMalformed},
		{name: "Vorbis", file: joinPages([]oggPage{vorbis, {serial: 7, seq: 1, table: []byte{4}, body: []byte("abcd")}}), err: ErrUnsupported},
		{name: "Vorbis alone", file: vorbis.bytes(), err: ErrUnsupported},
		{name: "version 1", file: setByte(joinPages(stream(1, all, 255)), 4, 1), err: ErrUnsupported},
		{name: "garbage after a page", file: append(joinPages(stream(1, all, 1)[:3]), []byte("garbage garbage garbage garbage")...), err: ErrMalformed},
		{name: "no BOS", file: joinPages(setFlags(stream(1, all, 255), 0, 0)), err: ErrMalformed},
		{name: "OpusTags missing", file: joinPages(stream(1, [][]byte{head, f[0], f[1]}, 255)), err: ErrMalformed},
		{name: "OpusHead short", file: joinPages(stream(1, [][]byte{head[:15], tags, f[0]}, 255)), err: ErrMalformed},
		{name: "OpusHead version 16", file: joinPages(stream(1, [][]byte{setByte(head, 8, 16), tags, f[0]}, 255)), err: ErrUnsupported},
		{name: "0 channels", file: joinPages(stream(1, [][]byte{opusHead(0, 0, 0), tags, f[0]}, 255)), err: ErrMalformed},
		{name: "3 channels", file: joinPages(stream(1, [][]byte{opusHead(3, 0, 0), tags, f[0]}, 255)), err: ErrUnsupported},
		{name: "family 1, 6 channels", file: joinPages(stream(1, [][]byte{append(withFamily(opusHead(6, 0, 0), 1), 4, 2, 0, 4, 1, 2, 3, 5), tags, f[0]}, 255)), err: ErrUnsupported},
		{name: "family 1, two streams", file: joinPages(stream(1, [][]byte{append(withFamily(opusHead(2, 0, 0), 1), 2, 0, 0, 1), tags, f[0]}, 255)), err: ErrUnsupported},
		{name: "family 1, swapped", file: joinPages(stream(1, [][]byte{append(withFamily(opusHead(2, 0, 0), 1), 1, 1, 1, 0), tags, f[0]}, 255)), err: ErrUnsupported},
		{name: "family 1, no table", file: joinPages(stream(1, [][]byte{withFamily(opusHead(2, 0, 0), 1), tags, f[0]}, 255)), err: ErrMalformed},
		{name: "family 1, no streams", file: joinPages(stream(1, [][]byte{append(withFamily(opusHead(1, 0, 0), 1), 0, 0, 0), tags, f[0]}, 255)), err: ErrMalformed},
		{name: "family 255", file: joinPages(stream(1, [][]byte{withFamily(opusHead(1, 0, 0), 255), tags, f[0]}, 255)), err: ErrUnsupported},
		{name: "truncated in the headers", file: cut(joinPages(stream(1, all, 255)[:2]), 5), err: ErrMalformed},
		{name: "a second BOS of the Opus stream", file: joinPages(setFlags(stream(1, all, 255), 2, oggBOS)), err: ErrMalformed},
		{name: "empty", file: nil, err: ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			granule, err := (&oggDemuxer{}).demux(tc.file, &r)
			if !r.found(t, err, tc.err, tc.track, tc.packets) {
				return
			}
			if granule != tc.granule {
				t.Errorf("granule %d, want %d", granule, tc.granule)
			}
		})
	}
}

// interleave puts the pages of b between those of a, after a's first
// (BOS pages first, as RFC 3533 wants).
func interleave(a, b []oggPage) []byte {
	var out []byte
	for i, p := range a {
		out = append(out, p.bytes()...)
		if i < len(b) {
			out = append(out, b[i].bytes()...)
		}
	}
	return out
}

// setGranule sets page i's granule (-1: the last page).
func setGranule(pages []oggPage, i int, g int64) []oggPage {
	if i < 0 {
		i += len(pages)
	}
	pages[i].granule = g
	return pages
}

// setFlags sets page i's header type (-1: the last page).
func setFlags(pages []oggPage, i int, flags byte) []oggPage {
	if i < 0 {
		i += len(pages)
	}
	pages[i].flags = flags
	return pages
}

// uncontinue clears the continued flag of the first page that has it.
func uncontinue(pages []oggPage) []oggPage {
	for i := range pages {
		if pages[i].flags&oggContinued != 0 {
			pages[i].flags &^= oggContinued
			return pages
		}
	}
	panic("no continued page")
}

func flipByte(b []byte, i int) []byte {
	b = slices.Clone(b)
	b[i] ^= 0x10
	return b
}

func setByte(b []byte, i int, v byte) []byte {
	b = slices.Clone(b)
	b[i] = v
	return b
}

func withFamily(head []byte, family byte) []byte { return setByte(head, 18, family) }

func TestOggCRC(t *testing.T) {
	// A page from the opusenc fixture: its CRC as written.
	b := readFixture(t, "tone-opusenc-mono.ogg")
	n := oggHeaderLen + int(b[26])
	for _, l := range b[oggHeaderLen:n] {
		n += int(l)
	}
	if got, want := oggCRC(b[:n]), binary.LittleEndian.Uint32(b[22:]); got != want {
		t.Errorf("CRC %08x, the file says %08x", got, want)
	}
}

// TestOggPagingDecodes pages the opusenc file's packets anew, a packet
// spanning pages or many to a page: the audio is the same to the sample.
func TestOggPagingDecodes(t *testing.T) {
	name := "tone-opusenc-mono.ogg"
	tr, packets := fixturePackets(t, name)
	want, err := Decode(readFixture(t, name), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, segs := range []int{1, 2, 3, 50, 255} {
		got, err := Decode(oggOpus(99, opusHead(tr.channels, tr.preSkip, 0), packets, segs), 10*time.Second)
		if err != nil {
			t.Fatalf("%d segments a page: %v", segs, err)
		}
		// The granules of oggOpus end where the packets do: the original's
		// last granule trims more.
		if got.Frames() < want.Frames() || !slices.Equal(got.Samples[:len(want.Samples)], want.Samples) {
			t.Errorf("%d segments a page: %d frames, want %d and the same samples", segs, got.Frames(), want.Frames())
		}
	}
}

func TestOggEndTrimming(t *testing.T) {
	head := opusHead(1, 312, 0)
	audio := repeat(silence, 10) // 9600 samples, 9288 after the pre-skip
	for _, tc := range []struct {
		granule int64
		frames  int
		err     error
	}{
		{10 * 960, 9600 - 312, nil},
		{10*960 - 1000, 9600 - 312 - 1000, nil},
		{1 << 40, 9600 - 312, nil}, // larger than decoded: nothing trimmed
		{312 + 1, 1, nil},
		{312, 0, ErrMalformed}, // trimmed to nothing
		{-1, 9600 - 312, nil},  // no granule: nothing trimmed
	} {
		pages := oggPackets(5, append([][]byte{head, []byte("OpusTags\x00\x00\x00\x00\x00\x00\x00\x00")}, audio...), make([]int64, 12), 255)
		pages[len(pages)-1].granule = tc.granule
		a, err := Decode(joinPages(pages), time.Second)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("granule %d: %v, want %v", tc.granule, err, tc.err)
			}
			continue
		}
		if err != nil || a.Frames() != tc.frames {
			t.Errorf("granule %d: %d frames, %v; want %d", tc.granule, a.Frames(), err, tc.frames)
		}
	}
	// End trimming makes a file fit its maxDuration: 120 ms decoded, the
	// last packet trimmed to make 100 ms.
	pages := oggPackets(5, append([][]byte{opusHead(1, 0, 0), []byte("OpusTags\x00\x00\x00\x00\x00\x00\x00\x00")}, audio[:6]...), make([]int64, 8), 255)
	pages[len(pages)-1].granule = 4800
	if a, err := Decode(joinPages(pages), 100*time.Millisecond); err != nil || a.Frames() != 4800 {
		t.Errorf("trimmed to 4800 frames, max 100 ms: %d frames, %v", a.Frames(), err)
	}
	pages[len(pages)-1].granule = 4801
	if _, err := Decode(joinPages(pages), 100*time.Millisecond); !errors.Is(err, ErrTooLong) {
		t.Errorf("trimmed to 4801 frames, max 100 ms: %v, want ErrTooLong", err)
	}
}
