package protocol

// versioned is a Message whose body differs from one protocol version to
// another: Hello and HostHello repeat the version, Hello's caps are checked
// in version 1 only, and Stats has the reset reason from version 2. The
// other messages are the same in every version.
type versioned interface {
	appendBodyVersion(dst []byte, version uint8) []byte
	unmarshalBodyVersion(body []byte, version uint8) error
	validateVersion(version uint8) error
}

var (
	_ versioned = (*Hello)(nil)
	_ versioned = (*HostHello)(nil)
	_ versioned = (*Stats)(nil)
)

// KnownVersion reports whether a Decoder accepts frames of version v:
// ProtocolVersion to LatestVersion.
func KnownVersion(v uint8) bool { return v >= ProtocolVersion && v <= LatestVersion }

// AppendBodyVersion appends m's body as version encodes it.
func AppendBodyVersion(dst []byte, m Message, version uint8) []byte {
	if v, ok := m.(versioned); ok {
		return v.appendBodyVersion(dst, version)
	}
	return m.AppendBody(dst)
}

// ValidateVersion returns the *BodyError ParseMessageVersion would return
// for m's own encoding in version, or nil.
func ValidateVersion(m Message, version uint8) error {
	if v, ok := m.(versioned); ok {
		return v.validateVersion(version)
	}
	return m.Validate()
}

// ParseMessageVersion returns the message of type t that body encodes in
// version (a known one: KnownVersion): a new *Hello, *KeyEvent, … It
// returns FaultVersion for a version this package does not know, FaultType
// for an unknown type and a *BodyError for a body that does not fit the
// type.
func ParseMessageVersion(version uint8, t Type, body []byte) (Message, error) {
	if !KnownVersion(version) {
		return nil, FaultVersion
	}
	m := newMessage(t)
	if m == nil {
		return nil, FaultType
	}
	var err error
	if v, ok := m.(versioned); ok {
		err = v.unmarshalBodyVersion(body, version)
	} else {
		err = m.UnmarshalBody(body)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Stats' body lengths: version 1, and version 2 with the reset reason.
const (
	statsLen   = 20
	statsLenV2 = 21
)

func statsBodyLen(version uint8) int {
	if version >= Version2 {
		return statsLenV2
	}
	return statsLen
}
