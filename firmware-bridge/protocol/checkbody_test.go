package protocol

// checkBody is the Decoder's version 1 body check with a scratch of its
// own, for the tests that compare it with ParseMessage.
func checkBody(t Type, body []byte) error { return checkBodyVersion(ProtocolVersion, t, body) }

// checkBodyVersion is the Decoder's body check in version.
func checkBodyVersion(version uint8, t Type, body []byte) error {
	var sc bodyScratch
	return sc.checkBody(version, t, body)
}
