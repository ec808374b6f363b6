// Package defaultpack is the judge's voice the table ships with: a voice
// pack (see audio/pack) embedded in the binary, synthesized from the script
// catalogue by espeak-ng's cmn-latn-pinyin voice and encoded as 48 kHz mono
// MP3.
//
// The files in pack/ are made by
//
//	wolftable voice generate audio/defaultpack/pack
//
// (it needs espeak-ng and lame; see audio/voice.Generate), and must be made
// again whenever a spoken line of the catalogue, its pinyin, or the
// generator's settings change: the voice package's tests fail on a stale
// pack (its manifest records a hash of what it says).
//
// `wolftable voice export DIR` writes it out as an ordinary pack folder, a
// starting point for a venue's own recordings.
package defaultpack

import (
	"embed"
	"io/fs"
)

//go:embed pack
var files embed.FS

// FS is the pack folder: pack.txt and one MP3 per clip, at the top level.
func FS() fs.FS {
	sub, err := fs.Sub(files, "pack")
	if err != nil {
		panic(err) // "pack" is a valid path
	}
	return sub
}
