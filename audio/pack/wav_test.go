package pack

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"
)

// wavFile builds a WAV file from a fmt chunk body and a list of further
// chunks, for tests that need headers EncodeWAV would never write.
func wavFile(fmtBody []byte, chunks ...[]byte) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WAVE")
	b = append(b, chunk("fmt ", fmtBody)...)
	for _, c := range chunks {
		b = append(b, c...)
	}
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

func chunk(id string, body []byte) []byte {
	b := append([]byte(id), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[4:], uint32(len(body)))
	b = append(b, body...)
	if len(body)%2 == 1 {
		b = append(b, 0)
	}
	return b
}

func fmtBody(tag, channels, rate, bits int) []byte {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint16(b[0:], uint16(tag))
	binary.LittleEndian.PutUint16(b[2:], uint16(channels))
	binary.LittleEndian.PutUint32(b[4:], uint32(rate))
	binary.LittleEndian.PutUint32(b[8:], uint32(rate*channels*bits/8))
	binary.LittleEndian.PutUint16(b[12:], uint16(channels*bits/8))
	binary.LittleEndian.PutUint16(b[14:], uint16(bits))
	return b
}

func extensibleBody(subTag, channels, rate, bits int) []byte {
	b := fmtBody(waveExtensible, channels, rate, bits)
	ext := make([]byte, 24)
	binary.LittleEndian.PutUint16(ext[0:], 22)
	binary.LittleEndian.PutUint16(ext[2:], uint16(bits))
	binary.LittleEndian.PutUint32(ext[4:], 4)
	binary.LittleEndian.PutUint16(ext[8:], uint16(subTag))
	copy(ext[10:], "\x00\x00\x00\x00\x10\x00\x80\x00\x00\xAA\x00\x38\x9B\x71")
	return append(b, ext...)
}

func pcm16(s ...int16) []byte {
	b := make([]byte, 2*len(s))
	for i, v := range s {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	}
	return b
}

func TestDecodeWAV(t *testing.T) {
	samples := []int16{0, 1000, -1000, 32767, -32768, 7}
	tests := []struct {
		name     string
		file     []byte
		want     Audio
		wantErr  error
		errMatch string
	}{
		{name: "canonical mono", file: EncodeWAV(Audio{Rate: 22050, Channels: 1, Samples: samples}),
			want: Audio{Rate: 22050, Channels: 1, Samples: samples}},
		{name: "canonical stereo", file: EncodeWAV(Audio{Rate: 44100, Channels: 2, Samples: samples}),
			want: Audio{Rate: 44100, Channels: 2, Samples: samples}},
		{name: "extensible pcm, LIST chunk with odd size, data first", file: func() []byte {
			b := []byte("RIFF\x00\x00\x00\x00WAVE")
			b = append(b, chunk("LIST", []byte("INFOx"))...)
			b = append(b, chunk("data", pcm16(samples...))...)
			b = append(b, chunk("fmt ", extensibleBody(wavePCM, 1, 16000, 16))...)
			return b
		}(), want: Audio{Rate: 16000, Channels: 1, Samples: samples}},
		{name: "unknown data size", file: func() []byte {
			b := wavFile(fmtBody(wavePCM, 1, 8000, 16), chunk("data", pcm16(samples...)))
			binary.LittleEndian.PutUint32(b[40:], 0xFFFFFFFF)
			return b
		}(), want: Audio{Rate: 8000, Channels: 1, Samples: samples}},
		{name: "junk after the data", file: append(wavFile(fmtBody(wavePCM, 1, 8000, 16), chunk("data", pcm16(samples...))), "id3 \xff\xff\x00\x00abc"...),
			want: Audio{Rate: 8000, Channels: 1, Samples: samples}},

		{name: "8-bit", file: wavFile(fmtBody(wavePCM, 1, 8000, 8), chunk("data", []byte{128, 129})), wantErr: ErrUnsupported, errMatch: "8-bit"},
		{name: "24-bit", file: wavFile(fmtBody(wavePCM, 1, 8000, 24), chunk("data", make([]byte, 6))), wantErr: ErrUnsupported, errMatch: "24-bit"},
		{name: "float", file: wavFile(fmtBody(waveFloat, 1, 48000, 32), chunk("data", make([]byte, 8))), wantErr: ErrUnsupported, errMatch: "floating-point"},
		{name: "extensible float", file: wavFile(extensibleBody(waveFloat, 1, 48000, 32), chunk("data", make([]byte, 8))), wantErr: ErrUnsupported, errMatch: "floating-point"},
		{name: "mu-law", file: wavFile(fmtBody(waveMuLaw, 1, 8000, 8), chunk("data", make([]byte, 8))), wantErr: ErrUnsupported, errMatch: "law"},
		{name: "adpcm", file: wavFile(fmtBody(0x11, 1, 8000, 4), chunk("data", make([]byte, 8))), wantErr: ErrUnsupported, errMatch: "non-PCM"},
		{name: "6 channels", file: wavFile(fmtBody(wavePCM, 6, 48000, 16), chunk("data", make([]byte, 24))), wantErr: ErrUnsupported, errMatch: "6 channels"},
		{name: "rate 4000", file: wavFile(fmtBody(wavePCM, 1, 4000, 16), chunk("data", make([]byte, 24))), wantErr: ErrUnsupported, errMatch: "4000"},
		{name: "RIFX", file: append([]byte("RIFX"), wavFile(fmtBody(wavePCM, 1, 8000, 16))[4:]...), wantErr: ErrUnsupported},

		{name: "empty", file: nil, wantErr: ErrMalformed},
		{name: "not riff", file: []byte("ID3\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), wantErr: ErrMalformed, errMatch: "RIFF"},
		{name: "not wave", file: []byte("RIFF\x04\x00\x00\x00AVI "), wantErr: ErrMalformed},
		{name: "no fmt", file: append([]byte("RIFF\x00\x00\x00\x00WAVE"), chunk("data", pcm16(1))...), wantErr: ErrMalformed, errMatch: "no fmt"},
		{name: "no data", file: wavFile(fmtBody(wavePCM, 1, 8000, 16)), wantErr: ErrMalformed, errMatch: "no data"},
		{name: "short fmt", file: append([]byte("RIFF\x00\x00\x00\x00WAVE"), chunk("fmt ", make([]byte, 10))...), wantErr: ErrMalformed},
		{name: "truncated data", file: func() []byte {
			b := EncodeWAV(Audio{Rate: 8000, Channels: 1, Samples: samples})
			return b[:len(b)-3]
		}(), wantErr: ErrMalformed, errMatch: "cut short"},
		{name: "truncated header", file: EncodeWAV(Audio{Rate: 8000, Channels: 1, Samples: samples})[:30], wantErr: ErrMalformed},
		{name: "half a frame", file: wavFile(fmtBody(wavePCM, 2, 8000, 16), chunk("data", pcm16(1, 2, 3))), wantErr: ErrMalformed, errMatch: "frames"},
		{name: "no samples", file: wavFile(fmtBody(wavePCM, 1, 8000, 16), chunk("data", nil)), wantErr: ErrMalformed, errMatch: "no samples"},
		{name: "bad block align", file: func() []byte {
			f := fmtBody(wavePCM, 2, 8000, 16)
			binary.LittleEndian.PutUint16(f[12:], 2)
			return wavFile(f, chunk("data", pcm16(1, 2)))
		}(), wantErr: ErrMalformed, errMatch: "block align"},
		{name: "two data chunks", file: wavFile(fmtBody(wavePCM, 1, 8000, 16), chunk("data", pcm16(1)), chunk("data", pcm16(1))), wantErr: ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeWAV(tt.file)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.errMatch) {
					t.Errorf("err = %q, want it to mention %q", err, tt.errMatch)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeWAV: %v", err)
			}
			if got.Rate != tt.want.Rate || got.Channels != tt.want.Channels || !slices.Equal(got.Samples, tt.want.Samples) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAudioMono(t *testing.T) {
	a := Audio{Rate: 8000, Channels: 2, Samples: []int16{100, 300, -32768, -32768, 32767, 32767, 1, -2}}
	want := []int16{200, -32768, 32767, 0}
	if got := a.Mono(); !slices.Equal(got, want) {
		t.Fatalf("Mono = %v, want %v", got, want)
	}
	if a.Frames() != 4 || a.Duration().Microseconds() != 500 {
		t.Fatalf("Frames %d Duration %v", a.Frames(), a.Duration())
	}
}
