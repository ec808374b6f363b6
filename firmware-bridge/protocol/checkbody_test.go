package protocol

// checkBody is the Decoder's body check with a scratch of its own, for the
// tests that compare it with ParseMessage.
func checkBody(t Type, body []byte) error {
	var sc bodyScratch
	return sc.checkBody(t, body)
}
