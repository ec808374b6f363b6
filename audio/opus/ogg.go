package opus

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// An Ogg demuxer (RFC 3533) for Ogg Opus (RFC 7845). A page is
//
//	0  "OggS"
//	4  version, 0
//	5  header type: 1 continued packet, 2 first page (BOS), 4 last (EOS)
//	6  granule position, s64 LE: for Opus, 48 kHz samples (pre-skip
//	   included) at the end of the last packet that ends on the page; -1
//	   when none does
//	14 stream serial number, u32 LE
//	18 page sequence number, u32 LE
//	22 CRC-32 of the page with this field zero, u32 LE
//	26 segment count, then the segment table: one length (0-255) each
//	27+n the body: the segments. A packet is a run of 255-byte segments
//	   ended by a shorter one; a page ending in a 255 continues the packet
//	   on the next page.
//
// The first packet of an Opus stream is its OpusHead, alone on the stream's
// BOS page; the second its OpusTags; the rest are audio.
const (
	oggHeaderLen = 27
	oggContinued = 1
	oggBOS       = 2
	oggEOS       = 4
)

var magicOpusTags = []byte("OpusTags")

type oggDemuxer struct {
	noCRC bool // fuzzing: pages need not carry their checksum
}

// oggStream is the state of the Opus logical stream.
type oggStream struct {
	serial  uint32
	seq     uint32
	packets int    // packets completed: 0 OpusHead, 1 OpusTags, then audio
	pending []byte // a packet begun on an earlier page
	partial bool   // the last page ended inside a packet
}

// demux finds the Opus stream of an Ogg file and gives its packets to s. It
// returns the granule position of the page its last packet ended on, -1 if
// none told one.
func (o *oggDemuxer) demux(b []byte, s sink) (int64, error) {
	var (
		st      *oggStream
		others  []string // the codecs of the other streams
		granule int64    = -1
		audio   int      // audio packets given
		off     int
	)
	truncated := func() (int64, error) {
		if audio > 0 {
			return granule, nil
		}
		return -1, malformed("ogg: truncated before any audio")
	}
	for off < len(b) {
		if len(b)-off < oggHeaderLen {
			if bytes.HasPrefix(magicOgg, b[off:]) || bytes.HasPrefix(b[off:], magicOgg) {
				return truncated()
			}
			return -1, malformed("ogg: no page at byte %d", off)
		}
		h := b[off:]
		if !bytes.HasPrefix(h, magicOgg) {
			return -1, malformed("ogg: no page at byte %d", off)
		}
		if h[4] != 0 {
			return -1, unsupported("ogg: page version %d", h[4])
		}
		flags := h[5]
		pageGranule := int64(binary.LittleEndian.Uint64(h[6:]))
		serial := binary.LittleEndian.Uint32(h[14:])
		seq := binary.LittleEndian.Uint32(h[18:])
		nseg := int(h[26])
		if len(h) < oggHeaderLen+nseg {
			return truncated()
		}
		table := h[oggHeaderLen : oggHeaderLen+nseg]
		bodyLen := 0
		for _, l := range table {
			bodyLen += int(l)
		}
		pageLen := oggHeaderLen + nseg + bodyLen
		if len(h) < pageLen {
			return truncated()
		}
		page := h[:pageLen]
		if !o.noCRC {
			if want, got := binary.LittleEndian.Uint32(page[22:]), oggCRC(page); want != got {
				return -1, malformed("ogg: page %d of stream %08x: CRC %08x, want %08x", seq, serial, want, got)
			}
		}
		off += pageLen
		body := page[oggHeaderLen+nseg:]

		if flags&oggBOS != 0 {
			if st == nil && bytes.HasPrefix(body, magicOpusHead) {
				st = &oggStream{serial: serial, seq: seq - 1}
			} else if st == nil {
				others = append(others, oggCodec(body))
				continue
			} else if serial == st.serial {
				return -1, malformed("ogg: stream %08x begins twice", serial)
			}
		}
		if st == nil {
			// The BOS pages of all streams come first: one is past.
			if len(others) > 0 {
				return -1, unsupported("ogg: codec %v (only Opus)", others)
			}
			return -1, malformed("ogg: a page before any stream began")
		}
		if serial != st.serial {
			continue
		}
		if seq != st.seq+1 {
			return -1, malformed("ogg: page %d of stream %08x after page %d: pages lost", seq, serial, st.seq)
		}
		st.seq = seq
		if cont := flags&oggContinued != 0; cont != st.partial {
			if cont {
				return -1, malformed("ogg: page %d continues a packet that did not begin", seq)
			}
			return -1, malformed("ogg: page %d does not continue the packet of the page before", seq)
		}
		ended := false
		start := 0 // in body, of the packet being read
		pos := 0
		for i, l := range table {
			pos += int(l)
			if l == 255 && !(i == len(table)-1) {
				continue
			}
			if l == 255 {
				break // continued on the next page
			}
			p := body[start:pos]
			if st.partial {
				st.pending = append(st.pending, p...)
				p = st.pending
				st.partial = false
			}
			start = pos
			if err := o.packet(st, p, s); err != nil {
				return -1, err
			}
			if st.packets > 2 {
				audio++
				ended = true
			}
			st.pending = st.pending[:0]
		}
		if n := len(table); n > 0 && table[n-1] == 255 {
			st.pending = append(st.pending, body[start:]...)
			st.partial = true
		}
		if ended && pageGranule != -1 {
			granule = pageGranule
		}
		if flags&oggEOS != 0 {
			break
		}
	}
	if st == nil {
		if len(others) > 0 {
			return -1, unsupported("ogg: codec %v (only Opus)", others)
		}
		return -1, malformed("ogg: no stream")
	}
	if st.packets < 2 {
		return truncated()
	}
	return granule, nil
}

// packet handles one whole packet of the Opus stream.
func (o *oggDemuxer) packet(st *oggStream, p []byte, s sink) error {
	st.packets++
	switch st.packets {
	case 1:
		t, err := parseOpusHead(p)
		if err != nil {
			return err
		}
		return s.begin(t)
	case 2:
		if !bytes.HasPrefix(p, magicOpusTags) {
			return malformed("ogg: the second packet is not OpusTags")
		}
		return nil
	}
	return s.packet(p, 0)
}

// oggCodec names the codec of a stream by its first packet.
func oggCodec(p []byte) string {
	for _, c := range []struct{ magic, name string }{
		{"\x01vorbis", "Vorbis"},
		{"\x7fFLAC", "FLAC"},
		{"Speex   ", "Speex"},
		{"\x80theora", "Theora"},
		{"OpusHead", "Opus"},
	} {
		if bytes.HasPrefix(p, []byte(c.magic)) {
			return c.name
		}
	}
	if len(p) > 8 {
		p = p[:8]
	}
	return fmt.Sprintf("%q", p)
}

// oggCRCTable is for Ogg's CRC-32: polynomial 0x04C11DB7, not reflected,
// initial value 0, no final XOR.
var oggCRCTable = func() (t [256]uint32) {
	for i := range t {
		r := uint32(i) << 24
		for range 8 {
			if r&0x80000000 != 0 {
				r = r<<1 ^ 0x04C11DB7
			} else {
				r <<= 1
			}
		}
		t[i] = r
	}
	return t
}()

// oggCRC is the checksum of a page, its CRC field counted as zero.
func oggCRC(page []byte) uint32 {
	var crc uint32
	for i, c := range page {
		if i >= 22 && i < 26 {
			c = 0
		}
		crc = crc<<8 ^ oggCRCTable[byte(crc>>24)^c]
	}
	return crc
}
