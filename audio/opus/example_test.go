package opus_test

import (
	"errors"
	"fmt"
	"os"
	"time"

	"wolftable/audio/opus"
)

func ExampleDecode() {
	// An upload from the judge console's recorder, here opusenc's.
	b, err := os.ReadFile("testdata/tone-opusenc-mono.ogg")
	if err != nil {
		fmt.Println(err)
		return
	}
	a, err := opus.Decode(b, 30*time.Second)
	switch {
	case errors.Is(err, opus.ErrTooLong):
		fmt.Println("a judge's line is at most 30 s")
	case err != nil:
		fmt.Println(err)
	default:
		fmt.Println(opus.Sniff(b), a.Rate, "Hz,", a.Channels, "channel,", a.Duration())
	}
	// Output: Ogg 48000 Hz, 1 channel, 1.5s
}

func ExampleSniff() {
	fmt.Println(opus.Sniff([]byte("OggS\x00\x02")), opus.Sniff([]byte{0x1A, 0x45, 0xDF, 0xA3}), opus.Sniff([]byte("RIFF")))
	// Output: Ogg WebM unknown
}
