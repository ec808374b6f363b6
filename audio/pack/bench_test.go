package pack

import (
	"fmt"
	"runtime"
	"testing"
	"testing/fstest"
)

// benchPack is a pack the size of the full judge script: 150 clips of 1.5 s
// on average (numbers are shorter, announcements longer), at the given
// source format.
func benchPack(rate, channels int) fstest.MapFS {
	fsys := fstest.MapFS{ManifestName: {Data: []byte(testManifest)}}
	for i := 0; i < 150; i++ {
		frames := rate / 2 * (1 + i%5) // 0.5 s to 2.5 s
		s := sine(rate, frames*channels, 200+float64(i), 9000)
		fsys[fmt.Sprintf("line%03d.wav", i)] = &fstest.MapFile{Data: EncodeWAV(Audio{Rate: rate, Channels: channels, Samples: s})}
	}
	return fsys
}

// BenchmarkLoad loads a full-size pack: ns/op is the load time, MB the
// memory its clips take once loaded (48 kHz mono int16), allocs what the
// loading costs on the way.
//
//	go test -run '^$' -bench Load -benchmem ./audio/pack
func BenchmarkLoad(b *testing.B) {
	for _, src := range []struct {
		name           string
		rate, channels int
	}{
		{"espeak-22050-mono", 22050, 1},
		{"venue-44100-stereo", 44100, 2},
		{"studio-48000-mono", 48000, 1},
	} {
		b.Run(src.name, func(b *testing.B) {
			fsys := benchPack(src.rate, src.channels)
			b.ReportAllocs()
			var p *Pack
			for b.Loop() {
				var err error
				if p, err = Load(fsys); err != nil {
					b.Fatal(err)
				}
			}
			var seconds float64
			for _, c := range p.Clips {
				seconds += c.Duration().Seconds()
			}
			b.ReportMetric(float64(p.Bytes())/1e6, "MB")
			b.ReportMetric(seconds, "audio-s")
			runtime.KeepAlive(p)
		})
	}
}
