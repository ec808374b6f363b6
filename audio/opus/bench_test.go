package opus

import (
	"testing"
	"time"
)

// BenchmarkDecode decodes the Chromium recording (1.5 s, mono, 32 kb/s):
// ns/op against 1.5 s of audio is the share of a core an upload costs.
//
//	go test -run '^$' -bench Decode -benchmem ./audio/opus
func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"tone-chromium-mono.webm", "tone-opusenc-mono.ogg", "tone-ffmpeg-stereo.webm"} {
		file := readFixture(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(file)))
			for b.Loop() {
				if _, err := Decode(file, time.Minute); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
