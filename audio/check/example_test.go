package check_test

import (
	"fmt"
	"testing/fstest"

	"wolftable/audio/check"
	"wolftable/audio/pack"
)

func ExampleCheck() {
	silence := make([]int16, 48000) // one second of nothing
	fsys := fstest.MapFS{
		"pack.txt": {Data: []byte("name: venue 3\nlanguage: zh-TW\n")},
		"昨夜.wav":   {Data: pack.EncodeWAV(pack.Audio{Rate: 48000, Channels: 1, Samples: silence})},
		"9號.wav": {Data: func() []byte {
			b := pack.EncodeWAV(pack.Audio{Rate: 8000, Channels: 1, Samples: make([]int16, 100)})
			b[34] = 8 // claim 8-bit samples
			return b
		}()},
	}
	// The ids would come from the script catalogue.
	for _, f := range check.Check(fsys, []string{"昨夜", "9號", "玩家死亡"}) {
		fmt.Println(f)
	}
	// Output:
	// error: 9號 (9號.wav): pack: unsupported audio format: wav: 8-bit samples (need 16-bit); re-export as 16-bit PCM WAV
	// error: 昨夜 (昨夜.wav): no voice above -45 dBFS
	// error: 玩家死亡: no recording: add 玩家死亡.wav
}
