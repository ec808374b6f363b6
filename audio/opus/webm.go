package opus

import (
	"errors"
	"math"
	"math/bits"
	"strings"
)

// A WebM/Matroska demuxer, as much of it as Opus recordings need. EBML
// (RFC 8794) is a tree of elements, each an ID, a size and a body; both are
// variable-length integers whose first byte's leading zeros say how many
// more bytes follow. Matroska: RFC 9559.

// Element IDs, as written (length marker included).
const (
	idEBML              = 0x1A45DFA3
	idEBMLReadVersion   = 0x42F7
	idEBMLMaxIDLength   = 0x42F2
	idEBMLMaxSizeLength = 0x42F3
	idDocType           = 0x4282
	idSegment           = 0x18538067
	idTracks            = 0x1654AE6B
	idTrackEntry        = 0xAE
	idTrackNumber       = 0xD7
	idTrackType         = 0x83
	idCodecID           = 0x86
	idCodecPrivate      = 0x63A2
	idCodecDelay        = 0x56AA
	idAudio             = 0xE1
	idChannels          = 0x9F
	idContentEncodings  = 0x6D80
	idCluster           = 0x1F43B675
	idTimestamp         = 0xE7
	idSilentTracks      = 0x5854
	idPosition          = 0xA7
	idPrevSize          = 0xAB
	idSimpleBlock       = 0xA3
	idBlockGroup        = 0xA0
	idBlock             = 0xA1
	idDiscardPadding    = 0x75A2
	idEncryptedBlock    = 0xAF
	idVoid              = 0xEC
	idCRC32             = 0xBF
)

const (
	trackTypeAudio       = 2
	codecOpus            = "A_OPUS"
	noEnd          int64 = math.MaxInt64 // the end of an element of unknown size
	unknownSize    int64 = -1            // a size field of all ones
)

// errTruncated: the data ends inside an element. Not returned by Decode:
// a truncated file gives what was whole before the cut.
var errTruncated = errors.New("opus: truncated")

// Block lacing, the flags' bits 1-2.
const (
	laceNone  = 0
	laceXiph  = 1
	laceFixed = 2
	laceEBML  = 3
)

type webm struct {
	b        []byte
	s        sink
	track    uint64 // the Opus track's number, once Tracks was read
	tracked  bool
	packets  int
	sizeBuf  [256]int
	frameBuf [][]byte
}

// demuxWebM finds the Opus track of a WebM/Matroska file and gives its
// packets to s.
func demuxWebM(b []byte, s sink) error {
	w := &webm{b: b, s: s}
	err := w.run()
	switch {
	case errors.Is(err, errTruncated):
		if w.packets > 0 {
			return nil
		}
		return malformed("webm: truncated before any audio")
	case err != nil:
		return err
	case !w.tracked:
		return malformed("webm: no Tracks")
	}
	return nil
}

func (w *webm) run() error {
	id, data, size, err := w.header(0, noEnd)
	if err != nil {
		return err
	}
	if id != idEBML || size == unknownSize {
		return malformed("webm: no EBML header")
	}
	end, err := w.whole(data, size, noEnd)
	if err != nil {
		return err
	}
	if err := w.children(data, end, w.ebmlHeader); err != nil {
		return err
	}
	for off := end; ; {
		if off >= w.len() {
			if off > w.len() {
				return errTruncated
			}
			return malformed("webm: no Segment")
		}
		id, data, size, err := w.header(off, noEnd)
		if err != nil {
			return err
		}
		if id == idSegment {
			segEnd := noEnd
			if size != unknownSize {
				segEnd = data + size // data + size < 2^57: no overflow
			}
			return w.segment(data, segEnd)
		}
		if size == unknownSize {
			return malformed("webm: element 0x%X of unknown size before the Segment", id)
		}
		off = data + size
	}
}

func (w *webm) len() int64 { return int64(len(w.b)) }

func (w *webm) ebmlHeader(id uint32, body []byte) error {
	switch id {
	case idDocType:
		if t := strings.TrimRight(string(body), "\x00"); t != "webm" && t != "matroska" {
			return unsupported("EBML document type %q (webm or matroska)", t)
		}
	case idEBMLReadVersion, idEBMLMaxIDLength, idEBMLMaxSizeLength:
		v, err := ebmlUint(id, body)
		if err != nil {
			return err
		}
		if id == idEBMLReadVersion && v > 1 || id == idEBMLMaxIDLength && v > 4 || id == idEBMLMaxSizeLength && v > 8 {
			return unsupported("EBML header element 0x%X = %d", id, v)
		}
	}
	return nil
}

// segment reads the Segment's children from off to end (noEnd: unknown
// size, to the end of the data).
func (w *webm) segment(off, end int64) error {
	for off < end {
		if off >= w.len() {
			if end == noEnd {
				return nil
			}
			return errTruncated
		}
		id, data, size, err := w.header(off, end)
		if err != nil {
			return err
		}
		switch {
		case id == idEBML && end == noEnd:
			return nil // the next file, chained
		case id == idCluster:
			if !w.tracked {
				return malformed("webm: a Cluster before the Tracks")
			}
			if off, err = w.cluster(data, size, end); err != nil {
				return err
			}
		case size == unknownSize:
			return malformed("webm: element 0x%X of unknown size", id)
		case id == idTracks:
			bodyEnd, err := w.whole(data, size, end)
			if err != nil {
				return err
			}
			if !w.tracked {
				if err := w.tracks(data, bodyEnd); err != nil {
					return err
				}
			}
			off = bodyEnd
		default: // SeekHead, Info, Cues, Tags, Void, ...: skipped
			if off, err = w.within(data, size, end); err != nil {
				return err
			}
		}
	}
	return nil
}

// cluster reads a Cluster whose body starts at data, in a parent ending at
// end, and returns where the next element starts. A Cluster of unknown size
// ends at the first element that cannot be its child.
func (w *webm) cluster(data, size, end int64) (int64, error) {
	unknown := size == unknownSize
	if !unknown {
		var err error
		if end, err = w.within(data, size, end); err != nil {
			return 0, err
		}
	}
	off := data
	for off < end {
		if off >= w.len() {
			if end == noEnd {
				return off, nil
			}
			return 0, errTruncated
		}
		id, data, size, err := w.header(off, end)
		if err != nil {
			return 0, err
		}
		if unknown && !isClusterChild(id) {
			return off, nil
		}
		if size == unknownSize {
			return 0, malformed("webm: element 0x%X of unknown size in a Cluster", id)
		}
		switch id {
		case idSimpleBlock, idBlockGroup:
			bodyEnd, err := w.whole(data, size, end)
			if err != nil {
				return 0, err
			}
			if id == idSimpleBlock {
				err = w.block(w.b[data:bodyEnd], 0)
			} else {
				err = w.blockGroup(data, bodyEnd)
			}
			if err != nil {
				return 0, err
			}
			off = bodyEnd
		default:
			if off, err = w.within(data, size, end); err != nil {
				return 0, err
			}
		}
	}
	return off, nil
}

func isClusterChild(id uint32) bool {
	switch id {
	case idTimestamp, idSilentTracks, idPosition, idPrevSize, idSimpleBlock,
		idBlockGroup, idEncryptedBlock, idVoid, idCRC32:
		return true
	}
	return false
}

func (w *webm) blockGroup(off, end int64) error {
	var block []byte
	var discard int64
	err := w.children(off, end, func(id uint32, body []byte) error {
		switch id {
		case idBlock:
			if block != nil {
				return malformed("webm: a BlockGroup with two Blocks")
			}
			block = body
		case idDiscardPadding:
			v, err := ebmlInt(id, body)
			if err != nil {
				return err
			}
			discard = v
		}
		return nil
	})
	if err != nil || block == nil {
		return err
	}
	n := 0
	if discard > 0 {
		n = nsToSamples(uint64(discard))
	}
	return w.block(block, n)
}

// block reads a SimpleBlock's or Block's body: track number, 16-bit
// relative timestamp, flags, then the frames, laced or not. Frames of the
// Opus track go to the sink; discard applies to the last one.
func (w *webm) block(p []byte, discard int) error {
	num, n, err := blockVint(p)
	if err != nil {
		return err
	}
	if len(p) < n+3 {
		return malformed("webm: a block of %d bytes", len(p))
	}
	if num != w.track {
		return nil
	}
	frames, err := w.lace((p[n+2]>>1)&3, p[n+3:])
	if err != nil {
		return err
	}
	for i, f := range frames {
		d := 0
		if i == len(frames)-1 {
			d = discard
		}
		w.packets++
		if err := w.s.packet(f, d); err != nil {
			return err
		}
	}
	return nil
}

// lace splits a block's data into its frames.
func (w *webm) lace(kind byte, data []byte) ([][]byte, error) {
	frames := w.frameBuf[:0]
	defer func() { w.frameBuf = frames[:0] }()
	if kind == laceNone {
		frames = append(frames, data)
		return frames, nil
	}
	if len(data) == 0 {
		return nil, malformed("webm: a laced block without a frame count")
	}
	count := int(data[0]) + 1
	data = data[1:]
	sizes := w.sizeBuf[:0]
	total := 0
	switch kind {
	case laceXiph:
		for i := 0; i < count-1; i++ {
			size := 0
			for {
				if len(data) == 0 {
					return nil, malformed("webm: Xiph lacing cut short")
				}
				c := data[0]
				data = data[1:]
				size += int(c)
				if c != 255 {
					break
				}
			}
			sizes = append(sizes, size)
			if total += size; total > len(data) {
				return nil, malformed("webm: laced frames larger than their block")
			}
		}
	case laceEBML:
		if count == 1 {
			break
		}
		first, n, err := blockVint(data)
		if err != nil {
			return nil, err
		}
		data = data[n:]
		if first > uint64(len(data)) {
			return nil, malformed("webm: laced frames larger than their block")
		}
		size := int64(first)
		sizes = append(sizes, int(size))
		total = int(size)
		for i := 1; i < count-1; i++ {
			raw, n, err := blockVint(data)
			if err != nil {
				return nil, err
			}
			data = data[n:]
			// A signed difference: the raw value less half its range.
			size += int64(raw) - (int64(1)<<(7*n-1) - 1)
			if size < 0 {
				return nil, malformed("webm: a negative EBML-laced frame size")
			}
			if size > int64(len(data)) {
				return nil, malformed("webm: laced frames larger than their block")
			}
			sizes = append(sizes, int(size))
			if total += int(size); total > len(data) {
				return nil, malformed("webm: laced frames larger than their block")
			}
		}
	case laceFixed:
		if len(data)%count != 0 {
			return nil, malformed("webm: %d bytes in %d fixed-size frames", len(data), count)
		}
		for i := 0; i < count-1; i++ {
			sizes = append(sizes, len(data)/count)
		}
		total = len(data) / count * (count - 1)
	}
	if total > len(data) {
		return nil, malformed("webm: laced frames larger than their block")
	}
	sizes = append(sizes, len(data)-total)
	for _, s := range sizes {
		frames = append(frames, data[:s])
		data = data[s:]
	}
	return frames, nil
}

// blockVint reads a variable-length integer inside a block (a track number
// or an EBML lace size), its length marker removed.
func blockVint(p []byte) (uint64, int, error) {
	if len(p) == 0 || p[0] == 0 {
		return 0, 0, malformed("webm: a bad variable-length integer in a block")
	}
	n := bits.LeadingZeros8(p[0]) + 1
	if len(p) < n {
		return 0, 0, malformed("webm: a block cut short")
	}
	v := uint64(p[0]) & (0xFF >> n)
	for _, c := range p[1:n] {
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// opusEntry is what is read of a TrackEntry.
type opusEntry struct {
	number     uint64
	kind       uint64
	codec      string
	private    []byte
	delay      uint64 // CodecDelay, ns
	channels   uint64
	hasEncrypt bool // ContentEncodings: compressed or encrypted
}

func (w *webm) tracks(off, end int64) error {
	var found *opusEntry
	var others []string
	err := w.children(off, end, func(id uint32, body []byte) error {
		if id != idTrackEntry {
			return nil
		}
		e, err := w.trackEntry(body)
		if err != nil {
			return err
		}
		switch {
		case e.codec == codecOpus && found == nil:
			found = &e
		case e.kind == trackTypeAudio || strings.HasPrefix(e.codec, "A_"):
			others = append(others, e.codec)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if found == nil {
		if len(others) > 0 {
			return unsupported("webm: audio codec %s (only %s)", strings.Join(others, ", "), codecOpus)
		}
		return unsupported("webm: no audio track")
	}
	e := found
	if e.number == 0 {
		return malformed("webm: track number 0")
	}
	if e.hasEncrypt {
		return unsupported("webm: a compressed or encrypted Opus track")
	}
	var t track
	if len(e.private) > 0 {
		if t, err = parseOpusHead(e.private); err != nil {
			return err
		}
	} else {
		// No OpusHead: the Matroska elements say the same, less the gain.
		switch e.channels {
		case 1, 2:
		default:
			return unsupported("%d channels (1 or 2)", e.channels)
		}
		t = track{channels: int(e.channels), preSkip: nsToSamples(e.delay)}
	}
	w.track, w.tracked = e.number, true
	return w.s.begin(t)
}

// trackEntry reads a TrackEntry's body.
func (w *webm) trackEntry(body []byte) (opusEntry, error) {
	e := opusEntry{channels: 1}
	sub := webm{b: body}
	err := sub.children(0, int64(len(body)), func(id uint32, b []byte) error {
		var err error
		switch id {
		case idTrackNumber:
			e.number, err = ebmlUint(id, b)
		case idTrackType:
			e.kind, err = ebmlUint(id, b)
		case idCodecID:
			e.codec = strings.TrimRight(string(b), "\x00")
		case idCodecPrivate:
			e.private = b
		case idCodecDelay:
			e.delay, err = ebmlUint(id, b)
		case idContentEncodings:
			e.hasEncrypt = true
		case idAudio:
			a := webm{b: b}
			err = a.children(0, int64(len(b)), func(id uint32, b []byte) error {
				if id != idChannels {
					return nil
				}
				var err error
				e.channels, err = ebmlUint(id, b)
				return err
			})
		}
		return err
	})
	return e, err
}

// nsToSamples converts nanoseconds to 48 kHz samples, rounded, clamped to
// two seconds (more is no delay or padding an encoder makes).
func nsToSamples(ns uint64) int {
	ns = min(ns, 2e9)
	return int((ns*SampleRate + 5e8) / 1e9)
}

// header reads the ID and size of the element at off, in a parent ending at
// end, and returns the offset of its body. size is unknownSize for an
// element of unknown size (all ones).
func (w *webm) header(off, end int64) (id uint32, data, size int64, err error) {
	v, n, err := w.vint(off, end, 4)
	if err != nil {
		return 0, 0, 0, err
	}
	s, m, err := w.vint(off+n, end, 8)
	if err != nil {
		return 0, 0, 0, err
	}
	s &^= 1 << (7 * m) // the length marker
	size = int64(s)
	if s == 1<<(7*m)-1 {
		size = unknownSize
	}
	return uint32(v), off + n + m, size, nil
}

// vint reads the variable-length integer at off, marker included, of at
// most maxLen bytes.
func (w *webm) vint(off, end int64, maxLen int) (uint64, int64, error) {
	if off >= end {
		return 0, 0, malformed("webm: an element runs past its parent at byte %d", off)
	}
	if off >= w.len() {
		return 0, 0, errTruncated
	}
	first := w.b[off]
	n := int64(bits.LeadingZeros8(first) + 1)
	if first == 0 || n > int64(maxLen) {
		return 0, 0, malformed("webm: a bad element header at byte %d", off)
	}
	if off+n > end {
		return 0, 0, malformed("webm: an element runs past its parent at byte %d", off)
	}
	if off+n > w.len() {
		return 0, 0, errTruncated
	}
	var v uint64
	for _, c := range w.b[off : off+n] {
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// within checks that a body of size bytes at data ends by its parent's end,
// and returns where it ends. The body may go past the data's end (the
// caller finds out).
func (w *webm) within(data, size, end int64) (int64, error) {
	if size > end-data {
		return 0, malformed("webm: an element of %d bytes runs past its parent at byte %d", size, data)
	}
	return data + size, nil
}

// whole is within, and the body must be in the data.
func (w *webm) whole(data, size, end int64) (int64, error) {
	e, err := w.within(data, size, end)
	if err != nil {
		return 0, err
	}
	if e > w.len() {
		return 0, errTruncated
	}
	return e, nil
}

// children calls fn for each child of the element whose body spans
// [off, end), which must be in the data. The children must have known
// sizes.
func (w *webm) children(off, end int64, fn func(id uint32, body []byte) error) error {
	for off < end {
		id, data, size, err := w.header(off, end)
		if err != nil {
			return err
		}
		if size == unknownSize {
			return malformed("webm: element 0x%X of unknown size", id)
		}
		e, err := w.whole(data, size, end)
		if err != nil {
			return err
		}
		if err := fn(id, w.b[data:e]); err != nil {
			return err
		}
		off = e
	}
	return nil
}

// ebmlUint reads an unsigned integer element's body (0 to 8 bytes).
func ebmlUint(id uint32, b []byte) (uint64, error) {
	if len(b) > 8 {
		return 0, malformed("webm: integer element 0x%X of %d bytes", id, len(b))
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v, nil
}

// ebmlInt reads a signed integer element's body.
func ebmlInt(id uint32, b []byte) (int64, error) {
	u, err := ebmlUint(id, b)
	if err != nil || len(b) == 0 {
		return 0, err
	}
	shift := 64 - 8*len(b)
	return int64(u<<shift) >> shift, nil
}
