package opus

import (
	"bytes"
	"slices"
	"testing"
	"time"
)

// frames are distinct packets for the demuxer tests (the demuxer does not
// look inside them): lengths 0, 1, 254, 255, 256, 510 and 600 cover the
// Xiph lacing's runs of 255.
func frames(sizes ...int) [][]byte {
	out := make([][]byte, len(sizes))
	for i, n := range sizes {
		out[i] = bytes.Repeat([]byte{byte(i + 1)}, n)
	}
	return out
}

func TestWebMDemux(t *testing.T) {
	f := frames(3, 254, 255, 256, 510, 600, 1, 2)
	vp8 := el(idTrackEntry, elUint(idTrackNumber, 2), elUint(idTrackType, 1), elString(idCodecID, "V_VP8"))
	vorbis := el(idTrackEntry, elUint(idTrackNumber, 1), elUint(idTrackType, trackTypeAudio),
		elString(idCodecID, "A_VORBIS"), el(idCodecPrivate, []byte{2, 30, 40}), audioEl(2))
	mono := track{channels: 1, preSkip: 312}
	cluster := func(body ...[]byte) []byte {
		return el(idCluster, append([][]byte{elUint(idTimestamp, 0)}, body...)...)
	}
	for _, tc := range []struct {
		name     string
		file     []byte
		track    track
		packets  [][]byte
		discards []int
		err      error
	}{
		{
			name: "unknown-size clusters",
			file: webmFile(monoTracks(),
				elUnknown(idCluster, elUint(idTimestamp, 0), simpleBlock(1, laceNone, f[0]), simpleBlock(1, laceNone, f[1])),
				elUnknown(idCluster, elUint(idTimestamp, 40), simpleBlock(1, laceNone, f[2])),
				el(0x1C53BB6B, el(0xBB, elUint(0xB3, 0))), // Cues end the cluster
				elUnknown(idCluster, el(idVoid, make([]byte, 3)), simpleBlock(1, laceNone, f[3]))),
			track:   mono,
			packets: f[:4],
		},
		{
			name: "known sizes",
			file: append(ebmlHeader("matroska"), el(idSegment,
				el(0x114D9B74, el(0x4DBB, elUint(0x53AB, 1))),                       // SeekHead
				el(0x1549A966, elUint(0x2AD7B1, 1000000), elString(0x4D80, "test")), // Info
				monoTracks(),
				cluster(simpleBlock(1, laceNone, f[0])),
				cluster(simpleBlock(1, laceNone, f[1]), el(idVoid), simpleBlock(1, laceNone, f[2])),
				el(0x1254C367, el(0x7373))) /* Tags */ ...),
			track:   mono,
			packets: f[:3],
		},
		{
			name:    "Xiph lacing",
			file:    webmFile(monoTracks(), cluster(simpleBlock(1, laceXiph, f...))),
			track:   mono,
			packets: f,
		},
		{
			name:    "Xiph lacing, one frame",
			file:    webmFile(monoTracks(), cluster(simpleBlock(1, laceXiph, f[5]))),
			track:   mono,
			packets: f[5:6],
		},
		{
			name:    "EBML lacing",
			file:    webmFile(monoTracks(), cluster(simpleBlock(1, laceEBML, f...))),
			track:   mono,
			packets: f,
		},
		{
			name:    "EBML lacing, one frame",
			file:    webmFile(monoTracks(), cluster(simpleBlock(1, laceEBML, f[4]))),
			track:   mono,
			packets: f[4:5],
		},
		{
			name:    "EBML lacing, two frames",
			file:    webmFile(monoTracks(), cluster(simpleBlock(1, laceEBML, f[6], f[4]))),
			track:   mono,
			packets: [][]byte{f[6], f[4]},
		},
		{
			name:    "fixed-size lacing",
			file:    webmFile(monoTracks(), cluster(simpleBlock(1, laceFixed, f[1], f[1], f[1]))),
			track:   mono,
			packets: [][]byte{f[1], f[1], f[1]},
		},
		{
			name: "BlockGroup with DiscardPadding",
			file: webmFile(monoTracks(), cluster(
				simpleBlock(1, laceNone, f[0]),
				el(idBlockGroup, el(idBlock, block(1, laceNone, f[1])), elUint(0x9B, 20)),
				el(idBlockGroup, elUint(0xFB, 0), el(idBlock, block(1, laceXiph, f[2], f[3])), elUint(idDiscardPadding, 2500000)))),
			track:    mono,
			packets:  f[:4],
			discards: []int{0, 0, 0, 120},
		},
		{
			name: "other tracks' blocks skipped",
			file: webmFile(el(idTracks, vp8, opusTrack(3, opusHead(1, 312, 0))), cluster(
				simpleBlock(2, laceNone, []byte("video")), simpleBlock(3, laceNone, f[0]),
				simpleBlock(2, laceXiph, f[1], f[2]), simpleBlock(3, laceEBML, f[3], f[4]))),
			track:   mono,
			packets: [][]byte{f[0], f[3], f[4]},
		},
		{
			name: "the first Opus track",
			file: webmFile(el(idTracks, opusTrack(5, opusHead(2, 100, -256)), opusTrack(1, opusHead(1, 312, 0))),
				cluster(simpleBlock(1, laceNone, f[0]), simpleBlock(5, laceNone, f[1]))),
			track:   track{channels: 2, preSkip: 100, gain: -256},
			packets: f[1:2],
		},
		{
			name:    "CodecDelay without an OpusHead",
			file:    webmFile(el(idTracks, opusTrack(1, nil, elUint(idCodecDelay, 6500000), audioEl(2))), cluster(simpleBlock(1, laceNone, f[0]))),
			track:   track{channels: 2, preSkip: 312},
			packets: f[:1],
		},
		{
			name:    "the OpusHead's pre-skip over CodecDelay",
			file:    webmFile(el(idTracks, opusTrack(1, opusHead(1, 100, 0), elUint(idCodecDelay, 6500000))), cluster(simpleBlock(1, laceNone, f[0]))),
			track:   track{channels: 1, preSkip: 100},
			packets: f[:1],
		},
		{
			name:    "no OpusHead, no Channels: mono",
			file:    webmFile(el(idTracks, opusTrack(1, nil)), cluster(simpleBlock(1, laceNone, f[0]))),
			track:   track{channels: 1},
			packets: f[:1],
		},
		{
			name:    "truncated in a block",
			file:    cut(webmFile(monoTracks(), elUnknown(idCluster, simpleBlock(1, laceNone, f[0]), simpleBlock(1, laceNone, f[4]))), 100),
			track:   mono,
			packets: f[:1],
		},
		{
			name:    "truncated in a known-size cluster",
			file:    cut(append(ebmlHeader("webm"), el(idSegment, monoTracks(), cluster(simpleBlock(1, laceNone, f[0]), simpleBlock(1, laceNone, f[4])))...), 100),
			track:   mono,
			packets: f[:1],
		},
		{
			name:    "truncated in an element header",
			file:    cut(webmFile(monoTracks(), elUnknown(idCluster, simpleBlock(1, laceNone, f[0]), simpleBlock(1, laceNone, f[4]))), len(f[4])+5),
			track:   mono,
			packets: f[:1],
		},
		{name: "Vorbis", file: webmFile(el(idTracks, vorbis), cluster(simpleBlock(1, laceNone, f[0]))), err: ErrUnsupported},
		{name: "video only", file: webmFile(el(idTracks, vp8)), err: ErrUnsupported},
		{name: "3 channels", file: webmFile(el(idTracks, opusTrack(1, nil, audioEl(3)))), err: ErrUnsupported},
		{name: "3 channels in the OpusHead", file: webmFile(el(idTracks, opusTrack(1, opusHead(3, 0, 0)))), err: ErrUnsupported},
		{name: "encrypted", file: webmFile(el(idTracks, opusTrack(1, opusHead(1, 0, 0), el(idContentEncodings, el(0x6240))))), err: ErrUnsupported},
		{name: "DocType mkv3d", file: append(ebmlHeader("mkv3d"), elUnknown(idSegment)...), err: ErrUnsupported},
		{name: "EBMLReadVersion 2", file: append(el(idEBML, elUint(idEBMLReadVersion, 2)), elUnknown(idSegment)...), err: ErrUnsupported},
		{name: "cluster before tracks", file: webmFile(cluster(simpleBlock(1, laceNone, f[0])), monoTracks()), err: ErrMalformed},
		{name: "no tracks", file: webmFile(el(idVoid)), err: ErrMalformed},
		{name: "no segment", file: ebmlHeader("webm"), err: ErrMalformed},
		{name: "not EBML", file: el(idSegment), err: ErrMalformed},
		{name: "empty", file: nil, err: ErrMalformed},
		{name: "EBML header cut short", file: ebmlHeader("webm")[:10], err: ErrMalformed},
		{name: "truncated in the tracks", file: webmFile(monoTracks())[:60], err: ErrMalformed},
		{name: "truncated before a block", file: cut(webmFile(monoTracks(), elUnknown(idCluster, simpleBlock(1, laceNone, f[4]))), 100), err: ErrMalformed},
		{name: "a track past its Tracks", file: webmFile(elSized(idTracks, -5, opusTrack(1, opusHead(1, 0, 0))), el(idVoid, make([]byte, 40))), err: ErrMalformed},
		{name: "a block past its cluster", file: webmFile(monoTracks(), elSized(idCluster, -3, simpleBlock(1, laceNone, f[1])), el(idVoid, make([]byte, 40))), err: ErrMalformed},
		{name: "an element past its segment", file: append(ebmlHeader("webm"), elSized(idSegment, -3, monoTracks(), cluster(simpleBlock(1, laceNone, f[1])), el(idVoid, make([]byte, 40)))...), err: ErrMalformed},
		{name: "unknown-size Tracks", file: webmFile(elUnknown(idTracks, opusTrack(1, opusHead(1, 0, 0)))), err: ErrMalformed},
		{name: "unknown-size block", file: webmFile(monoTracks(), elUnknown(idCluster, elUnknown(idSimpleBlock, block(1, laceNone, f[0])))), err: ErrMalformed},
		{name: "an ID of 5 bytes", file: webmFile(monoTracks(), []byte{0x08, 1, 2, 3, 4, 0x80}), err: ErrMalformed},
		{name: "a zero byte for an ID", file: webmFile(monoTracks(), []byte{0x00, 0x80}), err: ErrMalformed},
		{name: "track number 0", file: webmFile(el(idTracks, opusTrack(0, opusHead(1, 0, 0)))), err: ErrMalformed},
		{name: "a block without flags", file: webmFile(monoTracks(), cluster(el(idSimpleBlock, []byte{0x81, 0}))), err: ErrMalformed},
		{name: "fixed lacing, uneven", file: webmFile(monoTracks(), cluster(simpleBlock(1, laceFixed, f[0], f[1]))), err: ErrMalformed},
		{name: "Xiph lacing past the block", file: webmFile(monoTracks(), cluster(el(idSimpleBlock, []byte{0x81, 0, 0, 0x82, 1, 255, 10, 1, 2}))), err: ErrMalformed},
		{name: "Xiph lacing cut short", file: webmFile(monoTracks(), cluster(el(idSimpleBlock, []byte{0x81, 0, 0, 0x82, 2, 255}))), err: ErrMalformed},
		{name: "EBML lacing past the block", file: webmFile(monoTracks(), cluster(el(idSimpleBlock, []byte{0x81, 0, 0, 0x86, 1, 0x90, 1, 2}))), err: ErrMalformed},
		{name: "EBML lacing, negative size", file: webmFile(monoTracks(), cluster(el(idSimpleBlock, []byte{0x81, 0, 0, 0x86, 2, 0x81, 0x80, 1, 2, 3}))), err: ErrMalformed},
		{name: "laced block without a count", file: webmFile(monoTracks(), cluster(el(idSimpleBlock, []byte{0x81, 0, 0, 0x82}))), err: ErrMalformed},
		{name: "two Blocks in a BlockGroup", file: webmFile(monoTracks(), cluster(el(idBlockGroup, el(idBlock, block(1, laceNone, f[0])), el(idBlock, block(1, laceNone, f[0]))))), err: ErrMalformed},
		{name: "a 9-byte integer", file: webmFile(el(idTracks, el(idTrackEntry, el(idTrackNumber, make([]byte, 9))))), err: ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			err := demuxWebM(tc.file, &r)
			if !r.found(t, err, tc.err, tc.track, tc.packets) {
				return
			}
			want := tc.discards
			if want == nil {
				want = make([]int, len(tc.packets))
			}
			if !slices.Equal(r.discards, want) {
				t.Errorf("discards %v, want %v", r.discards, want)
			}
		})
	}
}

// cut is b less its last n bytes.
func cut(b []byte, n int) []byte { return b[:len(b)-n] }

// elSized is an element whose size field says its body is more bytes than
// it is (delta < 0: fewer).
func elSized(id uint32, delta int, body ...[]byte) []byte {
	b := bytes.Join(body, nil)
	return bytes.Join([][]byte{idBytes(id), vint(uint64(len(b)+delta), 8), b}, nil)
}

func lens(ps [][]byte) []int {
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = len(p)
	}
	return out
}

// TestWebMLacingDecodes puts the Chromium recording's packets in blocks of
// each lacing kind, and BlockGroups: the audio is the same to the sample.
func TestWebMLacingDecodes(t *testing.T) {
	tr, packets := fixturePackets(t, "tone-chromium-mono.webm")
	want, err := Decode(readFixture(t, "tone-chromium-mono.webm"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	tracks := el(idTracks, opusTrack(1, opusHead(tr.channels, tr.preSkip, 0)))
	for _, tc := range []struct {
		name  string
		block func(p [][]byte) []byte
	}{
		{"SimpleBlock", func(p [][]byte) []byte {
			var b []byte
			for _, q := range p {
				b = append(b, simpleBlock(1, laceNone, q)...)
			}
			return b
		}},
		{"BlockGroup", func(p [][]byte) []byte {
			var b []byte
			for _, q := range p {
				b = append(b, el(idBlockGroup, el(idBlock, block(1, laceNone, q)))...)
			}
			return b
		}},
		{"Xiph", func(p [][]byte) []byte { return simpleBlock(1, laceXiph, p...) }},
		{"EBML", func(p [][]byte) []byte { return simpleBlock(1, laceEBML, p...) }},
		{"fixed", func(p [][]byte) []byte {
			var b []byte
			for _, q := range p { // one frame a block: Opus packets differ in size
				b = append(b, simpleBlock(1, laceFixed, q)...)
			}
			return b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var clusters [][]byte
			for i := 0; i < len(packets); i += 4 {
				clusters = append(clusters, elUnknown(idCluster, elUint(idTimestamp, uint64(i*60)), tc.block(packets[i:min(i+4, len(packets))])))
			}
			got, err := Decode(webmFile(append([][]byte{tracks}, clusters...)...), 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if got.Channels != want.Channels || !slices.Equal(got.Samples, want.Samples) {
				t.Errorf("%d frames, %d channels; want %d, %d, the same samples", got.Frames(), got.Channels, want.Frames(), want.Channels)
			}
		})
	}
}

// TestWebMDiscardPadding: ffmpeg's stereo file ends with a BlockGroup whose
// DiscardPadding trims the last packet.
func TestWebMDiscardPadding(t *testing.T) {
	var r recorder
	if err := demuxWebM(readFixture(t, "tone-ffmpeg-stereo.webm"), &r); err != nil {
		t.Fatal(err)
	}
	last := r.discards[len(r.discards)-1]
	if last <= 0 || last >= 960 {
		t.Errorf("the last packet's discard is %d samples", last)
	}
	if r.tracks[0].preSkip != 312 || r.tracks[0].channels != 2 {
		t.Errorf("track %+v", r.tracks[0])
	}
}
