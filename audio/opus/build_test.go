package opus

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"
)

// Builders of hand-made WebM and Ogg files for the tests.

// vint is a variable-length integer of n bytes (0: the fewest) holding v,
// its length marker set.
func vint(v uint64, n int) []byte {
	if n == 0 {
		n = 1
		for v >= 1<<(7*n)-1 { // all ones is reserved (unknown size)
			n++
		}
	}
	b := make([]byte, n)
	v |= 1 << (7 * n)
	for i := n - 1; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return b
}

// idBytes is an element ID as written.
func idBytes(id uint32) []byte {
	switch {
	case id >= 1<<24:
		return []byte{byte(id >> 24), byte(id >> 16), byte(id >> 8), byte(id)}
	case id >= 1<<16:
		return []byte{byte(id >> 16), byte(id >> 8), byte(id)}
	case id >= 1<<8:
		return []byte{byte(id >> 8), byte(id)}
	}
	return []byte{byte(id)}
}

// el is an element of known size.
func el(id uint32, body ...[]byte) []byte {
	b := bytes.Join(body, nil)
	return bytes.Join([][]byte{idBytes(id), vint(uint64(len(b)), 0), b}, nil)
}

// elUnknown is an element of unknown size (8 bytes of size, all ones, as
// MediaRecorder writes it).
func elUnknown(id uint32, body ...[]byte) []byte {
	return bytes.Join(append([][]byte{idBytes(id), {0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}}, body...), nil)
}

func elUint(id uint32, v uint64) []byte {
	var b []byte
	for ; v > 0; v >>= 8 {
		b = append([]byte{byte(v)}, b...)
	}
	return el(id, b)
}

func elString(id uint32, s string) []byte { return el(id, []byte(s)) }

func ebmlHeader(docType string) []byte {
	return el(idEBML, elUint(0x4286, 1), elUint(idEBMLReadVersion, 1), elUint(idEBMLMaxIDLength, 4),
		elUint(idEBMLMaxSizeLength, 8), elString(idDocType, docType), elUint(0x4287, 4), elUint(0x4285, 2))
}

// opusHead is an OpusHead packet, mapping family 0.
func opusHead(channels, preSkip int, gain int16) []byte {
	b := []byte("OpusHead\x01")
	b = append(b, byte(channels))
	b = binary.LittleEndian.AppendUint16(b, uint16(preSkip))
	b = binary.LittleEndian.AppendUint32(b, 48000)
	b = binary.LittleEndian.AppendUint16(b, uint16(gain))
	return append(b, 0)
}

// opusTrack is a TrackEntry for an A_OPUS track; extra are more children.
func opusTrack(number uint64, head []byte, extra ...[]byte) []byte {
	body := [][]byte{elUint(idTrackNumber, number), elUint(0x73C5, 0x1234), elUint(idTrackType, trackTypeAudio),
		elString(idCodecID, codecOpus)}
	if head != nil {
		body = append(body, el(idCodecPrivate, head))
	}
	return el(idTrackEntry, append(body, extra...)...)
}

// audioEl is an Audio element with the given channels.
func audioEl(channels uint64) []byte {
	return el(idAudio, el(0xB5, []byte{0x47, 0x3B, 0x80, 0x00}), elUint(idChannels, channels))
}

// webmFile is an EBML header and an unknown-size Segment holding body.
func webmFile(body ...[]byte) []byte {
	return append(ebmlHeader("webm"), elUnknown(idSegment, body...)...)
}

// monoTracks is the Tracks of a mono Opus file, track 1.
func monoTracks() []byte {
	return el(idTracks, opusTrack(1, opusHead(1, 312, 0), audioEl(1)))
}

// block is the body of a SimpleBlock or Block: track, timestamp 0, the
// given lacing, the frames.
func block(track uint64, lacing byte, frames ...[]byte) []byte {
	b := append(vint(track, 0), 0, 0, lacing<<1|0x80)
	if lacing != laceNone {
		b = append(b, byte(len(frames)-1))
	}
	switch lacing {
	case laceXiph:
		for _, f := range frames[:len(frames)-1] {
			n := len(f)
			for ; n >= 255; n -= 255 {
				b = append(b, 255)
			}
			b = append(b, byte(n))
		}
	case laceEBML:
		if len(frames) == 1 {
			break
		}
		b = append(b, vint(uint64(len(frames[0])), 0)...)
		for i := 1; i < len(frames)-1; i++ {
			b = append(b, signedVint(int64(len(frames[i])-len(frames[i-1])))...)
		}
	}
	for _, f := range frames {
		b = append(b, f...)
	}
	return b
}

// signedVint is an EBML lace size difference.
func signedVint(d int64) []byte {
	n := 1
	for d > int64(1)<<(7*n-1)-1 || d < -(int64(1)<<(7*n-1)-1) {
		n++
	}
	return vint(uint64(d+int64(1)<<(7*n-1)-1), n)
}

func simpleBlock(track uint64, lacing byte, frames ...[]byte) []byte {
	return el(idSimpleBlock, block(track, lacing, frames...))
}

// oggPage is one page to build.
type oggPage struct {
	flags   byte
	granule int64
	serial  uint32
	seq     uint32
	table   []byte
	body    []byte
}

func (p oggPage) bytes() []byte {
	b := []byte("OggS\x00")
	b = append(b, p.flags)
	b = binary.LittleEndian.AppendUint64(b, uint64(p.granule))
	b = binary.LittleEndian.AppendUint32(b, p.serial)
	b = binary.LittleEndian.AppendUint32(b, p.seq)
	b = append(b, 0, 0, 0, 0, byte(len(p.table)))
	b = append(b, p.table...)
	b = append(b, p.body...)
	binary.LittleEndian.PutUint32(b[22:], oggCRC(b))
	return b
}

// oggPackets paginates a logical stream: each of the first two packets
// (the headers) on pages of its own, the rest at most segs segments a page
// (a packet spans pages when it must). granules[i] is the granule position
// at the end of packet i (headers: 0). The first page is BOS, the last EOS.
func oggPackets(serial uint32, packets [][]byte, granules []int64, segs int) []oggPage {
	var pages []oggPage
	cur := oggPage{serial: serial, granule: -1}
	flush := func() {
		cur.seq = uint32(len(pages))
		pages = append(pages, cur)
		cont := len(cur.table) > 0 && cur.table[len(cur.table)-1] == 255
		cur = oggPage{serial: serial, granule: -1}
		if cont {
			cur.flags = oggContinued
		}
	}
	for i, p := range packets {
		rest := p
		for {
			if len(cur.table) == segs {
				flush()
			}
			n := min(len(rest), 255)
			cur.table = append(cur.table, byte(n))
			cur.body = append(cur.body, rest[:n]...)
			rest = rest[n:]
			if n < 255 {
				break
			}
		}
		cur.granule = granules[i]
		if i < 2 {
			flush()
		}
	}
	if len(cur.table) > 0 {
		flush()
	}
	pages[0].flags |= oggBOS
	pages[len(pages)-1].flags |= oggEOS
	return pages
}

func joinPages(pages []oggPage) []byte {
	var b []byte
	for _, p := range pages {
		b = append(b, p.bytes()...)
	}
	return b
}

// oggOpus is an Ogg Opus file: OpusHead head, OpusTags, then the packets,
// each 960 samples long (20 ms), at most segs segments a page.
func oggOpus(serial uint32, head []byte, audio [][]byte, segs int) []byte {
	packets := append([][]byte{head, []byte("OpusTags\x04\x00\x00\x00test\x00\x00\x00\x00")}, audio...)
	granules := make([]int64, len(packets))
	for i := 2; i < len(granules); i++ {
		granules[i] = int64(i-1) * 960
	}
	return joinPages(oggPackets(serial, packets, granules, segs))
}

// recorder is a sink that keeps what it is given.
type recorder struct {
	tracks   []track
	packets  [][]byte
	discards []int
}

func (r *recorder) begin(t track) error {
	r.tracks = append(r.tracks, t)
	return nil
}

func (r *recorder) packet(p []byte, discard int) error {
	r.packets = append(r.packets, bytes.Clone(p))
	r.discards = append(r.discards, discard)
	return nil
}

// found checks what a demuxer did against a table case: the error it
// wanted (an "opus: " error wrapping it), or the one track and the packets.
// It returns false when there is nothing more to check.
func (r *recorder) found(t *testing.T, err, wantErr error, want track, packets [][]byte) bool {
	t.Helper()
	if wantErr != nil {
		if !errors.Is(err, wantErr) {
			t.Fatalf("error %v, want %v", err, wantErr)
		}
		if !strings.HasPrefix(err.Error(), "opus: ") {
			t.Errorf("error %q", err)
		}
		t.Log(err)
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(r.tracks) != 1 || r.tracks[0] != want {
		t.Errorf("tracks %+v, want %+v", r.tracks, want)
	}
	if !slices.EqualFunc(r.packets, packets, bytes.Equal) {
		t.Errorf("packets of %v bytes, want %v", lens(r.packets), lens(packets))
	}
	return true
}

// fixturePackets is the Opus header and packets of a fixture.
func fixturePackets(t testing.TB, name string) (track, [][]byte) {
	t.Helper()
	b := readFixture(t, name)
	var r recorder
	var err error
	if Sniff(b) == Ogg {
		_, err = (&oggDemuxer{}).demux(b, &r)
	} else {
		err = demuxWebM(b, &r)
	}
	if err != nil || len(r.tracks) != 1 {
		t.Fatalf("%s: %d tracks, %v", name, len(r.tracks), err)
	}
	return r.tracks[0], r.packets
}

// silence is a 20 ms Opus packet of silence: a TOC byte (CELT, fullband,
// 20 ms, one frame) with an empty frame.
var silence = []byte{0xF8}

func repeat(p []byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = p
	}
	return out
}
