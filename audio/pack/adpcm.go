package pack

// Packed clips: a loaded pack's samples held in IMA ADPCM, 4 bits a sample,
// a quarter of the memory of 16-bit samples (the default pack: about 4 MB
// instead of 15). A clip is unpacked when it is said — a few hundred
// microseconds for a long line — never while the sound device plays. The
// coding is lossy (about 30 dB signal to noise on speech at 16 kHz, like a
// good telephone line) and deterministic: the same clip always unpacks to
// the same samples.

var adpcmIndex = [16]int{-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8}

var adpcmStep = [89]int{
	7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45,
	50, 55, 60, 66, 73, 80, 88, 97, 107, 118, 130, 143, 157, 173, 190, 209, 230,
	253, 279, 307, 337, 371, 408, 449, 494, 544, 598, 658, 724, 796, 876, 963,
	1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066, 2272, 2499, 2749, 3024, 3327,
	3660, 4026, 4428, 4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487,
	12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767,
}

// adpcmState is the coder's state: the predicted sample and the step index.
type adpcmState struct{ pred, index int }

// next applies one 4-bit code and returns the sample it gives.
func (s *adpcmState) next(code byte) int16 {
	step := adpcmStep[s.index]
	diff := step >> 3
	if code&4 != 0 {
		diff += step
	}
	if code&2 != 0 {
		diff += step >> 1
	}
	if code&1 != 0 {
		diff += step >> 2
	}
	if code&8 != 0 {
		s.pred -= diff
	} else {
		s.pred += diff
	}
	s.pred = max(-32768, min(32767, s.pred))
	s.index = max(0, min(88, s.index+adpcmIndex[code]))
	return int16(s.pred)
}

// encodeADPCM codes samples, two a byte (the first in the low nibble).
func encodeADPCM(samples []int16) []byte {
	out := make([]byte, (len(samples)+1)/2)
	var st adpcmState
	for i, v := range samples {
		step := adpcmStep[st.index]
		delta := int(v) - st.pred
		var code byte
		if delta < 0 {
			code, delta = 8, -delta
		}
		if delta >= step {
			code |= 4
			delta -= step
		}
		if delta >= step>>1 {
			code |= 2
			delta -= step >> 1
		}
		if delta >= step>>2 {
			code |= 1
		}
		st.next(code) // the decoder's own step keeps both sides in step
		if i%2 == 0 {
			out[i/2] = code
		} else {
			out[i/2] |= code << 4
		}
	}
	return out
}

// decodeADPCM unpacks n samples.
func decodeADPCM(data []byte, n int) []int16 {
	n = min(n, 2*len(data))
	out := make([]int16, n)
	var st adpcmState
	for i := range out {
		b := data[i/2]
		if i%2 == 1 {
			b >>= 4
		}
		out[i] = st.next(b & 15)
	}
	return out
}

// Packed returns the clip with its samples packed (Clip.Packed), or the clip
// itself when it is packed already.
func (c Clip) Pack() Clip {
	if c.Samples == nil {
		return c
	}
	c.Packed, c.Frames = encodeADPCM(c.Samples), len(c.Samples)
	c.Samples = nil
	return c
}

// PCM is the clip's samples: Samples, or Packed unpacked.
func (c Clip) PCM() []int16 {
	if c.Samples != nil || c.Packed == nil {
		return c.Samples
	}
	return decodeADPCM(c.Packed, c.Frames)
}

// Len is the clip's length in samples.
func (c Clip) Len() int {
	if c.Samples != nil {
		return len(c.Samples)
	}
	return c.Frames
}
