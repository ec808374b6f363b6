package pack_test

import (
	"fmt"
	"testing/fstest"

	"wolftable/audio/pack"
)

func ExampleLoad() {
	// A pack is any fs.FS: os.DirFS("/var/lib/wolftable/voice") for a venue's
	// folder, or fs.Sub(embedded, "voice") for the built-in one.
	fsys := fstest.MapFS{
		"pack.txt": {Data: []byte("name: 小梁\nlanguage: zh-TW\nrecorded-by: venue 3\ndate: 2025-11-29\n")},
		"昨夜.wav":   {Data: pack.EncodeWAV(pack.Audio{Rate: 22050, Channels: 1, Samples: make([]int16, 22050)})},
	}
	p, err := pack.Load(fsys)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _ := p.Clip("昨夜")
	fmt.Println(p.Manifest.Name, p.IDs(), c.Duration(), len(c.Samples), "samples at", pack.SampleRate)
	// Output: 小梁 [昨夜] 1s 16000 samples at 16000
}
