//go:build linux && cgo && !android

package speaker

// #cgo pkg-config: alsa
// #include <alsa/asoundlib.h>
//
// static void wolftable_alsa_quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {}
// static void wolftable_alsa_silence(void) { snd_lib_error_set_handler(wolftable_alsa_quiet); }
import "C"

// quietALSA stops libasound printing its own lines on stderr ("ALSA lib
// pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default") when the sound
// device will not open: the speaker reports that error itself (Err, its
// log), and serve and selftest say what to do about it (hw/remedy).
func quietALSA() { C.wolftable_alsa_silence() }
