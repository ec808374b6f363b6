package protocol

import "strconv"

// Fault is why a Decoder dropped a frame before looking at its body. Faults
// are errors and comparable with ==:
//
//	if err == protocol.FaultCRC { ... }
//
// A Fault converts to error without allocating, so a stream of garbage costs
// the firmware no heap.
type Fault uint8

// The faults a Decoder reports, in the order it checks for them.
const (
	FaultOverrun Fault = iota + 1 // more than MaxFrameLen bytes before a delimiter
	FaultCOBS                     // the bytes between two delimiters are not valid COBS
	FaultShort                    // the payload is shorter than header + CRC
	FaultCRC                      // the CRC does not match the payload
	FaultVersion                  // intact frame of another protocol version
	FaultType                     // intact frame of an unknown message type
)

var faultText = [...]string{
	FaultOverrun: "frame longer than MaxFrameLen",
	FaultCOBS:    "invalid COBS",
	FaultShort:   "frame too short",
	FaultCRC:     "CRC mismatch",
	FaultVersion: "unsupported protocol version",
	FaultType:    "unknown message type",
}

func (f Fault) Error() string {
	if int(f) < len(faultText) && faultText[f] != "" {
		return "protocol: " + faultText[f]
	}
	return "protocol: Fault(" + strconv.Itoa(int(f)) + ")"
}

// BodyError reports a message body that does not fit its type's layout: a
// wrong length, or a field out of its range. The Decoder returns it (as a
// *BodyError) for intact frames whose body is invalid; UnmarshalBody and
// Validate return it too.
type BodyError struct {
	Type  Type   // the message type
	Field string // "length", or the field that is out of range
	Value int    // the offending length or field value
}

func (e *BodyError) Error() string {
	if e.Field == "length" {
		return "protocol: " + e.Type.String() + " body: bad length " + strconv.Itoa(e.Value)
	}
	return "protocol: " + e.Type.String() + " body: " + e.Field + " " + strconv.Itoa(e.Value) + " out of range"
}

func bodyLenError(t Type, n int) error { return &BodyError{Type: t, Field: "length", Value: n} }

func rangeError(t Type, field string, v int) error {
	return &BodyError{Type: t, Field: field, Value: v}
}

// checkLen reports a BodyError unless len(body) == want.
func checkLen(t Type, body []byte, want int) error {
	if len(body) != want {
		return bodyLenError(t, len(body))
	}
	return nil
}
