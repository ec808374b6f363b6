package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"wolftable/engine"
)

// Magic opens every journal file (PNG-style: a high-bit byte, the name, CR
// LF, ^Z, LF — text-mode transfers and line-ending conversions break it).
const Magic = "\x89WTJ\r\n\x1a\n"

// Frame layout (doc.go): length, CRC-32C of the length, body, chain hash.
const (
	frameHead = 8  // length (4) + CRC-32C of the length (4)
	hashSize  = 32 // SHA-256
	// MaxBody bounds a record's body; the writer never comes near it.
	MaxBody = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// chain is the hash stored with a record: SHA-256(prev ‖ body).
func chain(prev [32]byte, body []byte) [32]byte {
	h := sha256.New()
	h.Write(prev[:])
	h.Write(body)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// appendFrame appends one framed record and returns its chain hash.
func appendFrame(dst []byte, prev [32]byte, body []byte) ([]byte, [32]byte) {
	var head [frameHead]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(body)))
	binary.BigEndian.PutUint32(head[4:], crc32.Checksum(head[:4], castagnoli))
	sum := chain(prev, body)
	dst = append(dst, head[:]...)
	dst = append(dst, body...)
	return append(dst, sum[:]...), sum
}

// Input fields, in the order of the presence mask's bits.
const (
	fKind = iota
	fSeat
	fAction
	fTarget
	fPedal
	fTimer
	fHour
	fMinute
	fJudge
	fPoints
	nFields
)

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendTime(b []byte, t time.Time) []byte { return binary.AppendVarint(b, t.UnixNano()) }

// encodeHeader is the body of record 0.
func encodeHeader(b []byte, h *Header) []byte {
	b = append(b, byte(KindHeader))
	b = binary.AppendUvarint(b, uint64(h.Format))
	b = appendString(b, h.Software)
	b = appendString(b, h.GameID)
	b = appendString(b, h.Board)
	b = binary.AppendUvarint(b, uint64(len(h.Options)))
	for _, k := range sortedKeys(h.Options) {
		b = appendString(b, k)
		b = appendString(b, h.Options[k])
	}
	b = binary.AppendUvarint(b, uint64(len(h.Nights)))
	for _, n := range h.Nights {
		b = appendString(b, n)
	}
	b = binary.AppendUvarint(b, h.Seed)
	b = binary.AppendUvarint(b, uint64(len(h.Deal)))
	for _, r := range h.Deal {
		b = appendString(b, string(r))
	}
	b = binary.AppendUvarint(b, uint64(h.Seats))
	b = appendTime(b, h.Start)
	name, off := h.Start.Zone()
	b = binary.AppendVarint(b, int64(off))
	b = appendString(b, name)
	if h.Format >= formatBottom {
		b = binary.AppendUvarint(b, uint64(len(h.Bottom)))
		for _, r := range h.Bottom {
			b = appendString(b, string(r))
		}
	}
	if h.Format >= formatDraw {
		b = appendDraw(b, h)
	}
	return b
}

// appendDraw encodes a format 4 header's seat draw: manual (0 or 1), the
// count, then each seat's number, player id and name.
func appendDraw(b []byte, h *Header) []byte {
	manual := byte(0)
	if h.DrawManual {
		manual = 1
	}
	b = append(b, manual)
	b = binary.AppendUvarint(b, uint64(len(h.Draw)))
	for _, d := range h.Draw {
		b = binary.AppendUvarint(b, uint64(d.Seat))
		b = appendString(b, d.PlayerID)
		b = appendString(b, d.Name)
	}
	return b
}

// decodeDraw decodes what appendDraw wrote.
func (d *decoder) draw(h *Header) {
	switch d.byte1() {
	case 0:
	case 1:
		h.DrawManual = true
	default:
		d.fail(errors.New("seat draw: manual flag is neither 0 nor 1"))
	}
	n := d.count(maxSeats)
	for i := 0; i < n && d.err == nil; i++ {
		seat := d.count(maxSeats)
		id := d.str()
		h.Draw = append(h.Draw, Drawn{Seat: seat, PlayerID: id, Name: d.str()})
	}
}

// encodeRecord is the body of a record after the header.
func encodeRecord(b []byte, r *Record) []byte {
	b = append(b, byte(r.Kind))
	b = appendTime(b, r.Wall)
	b = appendString(b, r.Source)
	switch r.Kind {
	case KindInput:
		b = appendInput(b, &r.Input)
	case KindRefused:
		b = binary.AppendVarint(b, int64(r.Code))
		b = appendString(b, r.Reason)
	case KindEnd:
		b = appendString(b, r.Result)
		if r.Signed {
			b = append(b, r.PublicKey[:]...)
			b = append(b, r.Signature[:]...)
		}
	}
	return b
}

// sealSize is what a signed end record adds: public key and signature.
const sealSize = 32 + 64

// sealDomain starts every message a table signs, so a signature made for a
// journal can never be taken for anything else.
const sealDomain = "wolftable journal end record v2\x00"

// sealMessage is what an end record's signature signs (doc.go): the
// domain, the chain hash of the record before the end record (which
// commits to the header and every record), and the end record's body up
// to its signature (its time, source, result and public key).
func sealMessage(prev [32]byte, unsigned []byte) []byte {
	m := make([]byte, 0, len(sealDomain)+32+len(unsigned))
	m = append(m, sealDomain...)
	m = append(m, prev[:]...)
	return append(m, unsigned...)
}

func inputInts(in *engine.Input) [nFields - 1]int64 {
	return [nFields - 1]int64{int64(in.Kind), int64(in.Seat), int64(in.Action), int64(in.Target),
		int64(in.Pedal), int64(in.Timer), int64(in.Hour), int64(in.Minute), int64(in.Judge)}
}

// appendInput writes a presence mask (bit i: field i is not zero) and then
// the present fields: integers as zig-zag varints, Points as the 8 bytes of
// its IEEE 754 bits, big-endian.
func appendInput(b []byte, in *engine.Input) []byte {
	ints := inputInts(in)
	var mask uint64
	for i, v := range ints {
		if v != 0 {
			mask |= 1 << i
		}
	}
	pts := math.Float64bits(in.Points)
	if pts != 0 {
		mask |= 1 << fPoints
	}
	b = binary.AppendUvarint(b, mask)
	for i, v := range ints {
		if mask&(1<<i) != 0 {
			b = binary.AppendVarint(b, v)
		}
	}
	if pts != 0 {
		b = binary.BigEndian.AppendUint64(b, pts)
	}
	return b
}

// decoder reads a body; the first problem sticks.
type decoder struct {
	b   []byte
	err error
}

var errShort = errors.New("body ends early")

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail(errShort)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail(errShort)
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int reads a zig-zag varint that must fit an int (32 bits on armv7).
func (d *decoder) int() int {
	v := d.varint()
	if int64(int(v)) != v {
		d.fail(fmt.Errorf("number %d out of range", v))
		return 0
	}
	return int(v)
}

// count reads a list length bounded by limit.
// byte1 reads one byte.
func (d *decoder) byte1() byte {
	if d.err != nil {
		return 0
	}
	if len(d.b) == 0 {
		d.fail(errShort)
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *decoder) count(limit int) int {
	v := d.uvarint()
	if v > uint64(limit) {
		d.fail(fmt.Errorf("list of %d entries (limit %d)", v, limit))
		return 0
	}
	return int(v)
}

func (d *decoder) str() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if n > maxString || n > uint64(len(d.b)) {
		d.fail(fmt.Errorf("text of %d bytes", n))
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) uint64be() uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail(errShort)
		return 0
	}
	v := binary.BigEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

// decodeHeader decodes and validates the body of record 0.
func decodeHeader(body []byte) (Header, error) {
	var h Header
	if len(body) == 0 || Kind(body[0]) != KindHeader {
		return h, errors.New("record 0 is not a header record")
	}
	d := &decoder{b: body[1:]}
	f := d.uvarint()
	if d.err == nil && f > FormatVersion {
		return h, &VersionError{Version: f}
	}
	h.Format = int(f) // 0 fails h.check below
	h.Software = d.str()
	h.GameID = d.str()
	h.Board = d.str()
	n := d.count(maxList)
	h.Options = make(map[string]string, n)
	for i := 0; i < n && d.err == nil; i++ {
		k := d.str()
		h.Options[k] = d.str()
	}
	n = d.count(maxList)
	for i := 0; i < n && d.err == nil; i++ {
		h.Nights = append(h.Nights, d.str())
	}
	h.Seed = d.uvarint()
	n = d.count(maxSeats)
	for i := 0; i < n && d.err == nil; i++ {
		h.Deal = append(h.Deal, engine.Role(d.str()))
	}
	h.Seats = d.count(maxSeats)
	ns := d.varint()
	off := d.int()
	name := d.str()
	if f >= formatBottom {
		n = d.count(maxBottom)
		for i := 0; i < n && d.err == nil; i++ {
			h.Bottom = append(h.Bottom, engine.Role(d.str()))
		}
	}
	if f >= formatDraw {
		d.draw(&h)
	}
	if d.err != nil {
		return h, d.err
	}
	if len(d.b) != 0 {
		return h, fmt.Errorf("%d bytes after the header's fields", len(d.b))
	}
	if off < -24*3600 || off > 24*3600 {
		return h, fmt.Errorf("zone offset %d s", off)
	}
	h.Start = time.Unix(0, ns).In(time.FixedZone(name, off))
	if err := h.check(); err != nil {
		return h, err
	}
	if !bytes.Equal(encodeHeader(nil, &h), body) {
		return h, errors.New("header not in canonical form")
	}
	return h, nil
}

// decodeRecord decodes and validates the body of a record after the header;
// zone is the header's, for the wall times.
func decodeRecord(body []byte, zone *time.Location) (Record, error) {
	var r Record
	if len(body) == 0 {
		return r, errShort
	}
	r.Kind = Kind(body[0])
	d := &decoder{b: body[1:]}
	r.Wall = time.Unix(0, d.varint()).In(zone)
	r.Source = d.str()
	switch r.Kind {
	case KindInput:
		mask := d.uvarint()
		if mask >= 1<<nFields {
			d.fail(fmt.Errorf("input fields %#x unknown to format %d", mask, FormatVersion))
		}
		var ints [nFields - 1]int
		for i := range ints {
			if mask&(1<<i) != 0 {
				ints[i] = d.int()
			}
		}
		in := engine.Input{Kind: engine.InputKind(ints[fKind]), Seat: ints[fSeat], Action: engine.Action(ints[fAction]),
			Target: ints[fTarget], Pedal: engine.PedalPress(ints[fPedal]), Timer: engine.TimerID(ints[fTimer]),
			Hour: ints[fHour], Minute: ints[fMinute], Judge: engine.JudgeCommand(ints[fJudge])}
		if mask&(1<<fPoints) != 0 {
			in.Points = math.Float64frombits(d.uint64be())
		}
		r.Input = in
	case KindRefused:
		r.Code = engine.ErrorCode(d.int())
		r.Reason = d.str()
	case KindEnd:
		r.Result = d.str()
		if d.err == nil && len(d.b) == sealSize {
			r.Signed = true
			copy(r.PublicKey[:], d.b[:32])
			copy(r.Signature[:], d.b[32:])
			d.b = d.b[sealSize:]
		}
	}
	if d.err != nil {
		return r, d.err
	}
	if len(d.b) != 0 {
		return r, fmt.Errorf("%d bytes after the record's fields", len(d.b))
	}
	if err := r.check(); err != nil {
		return r, err
	}
	// One encoding per record: a zero field marked present, an overlong
	// varint and the like are refused.
	if !bytes.Equal(encodeRecord(nil, &r), body) {
		return r, errors.New("record not in canonical form")
	}
	return r, nil
}
