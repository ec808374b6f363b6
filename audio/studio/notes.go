package studio

import (
	"fmt"
	"time"

	"wolftable/audio/check"
)

// Note is a finding of voice check as the judge reads it beside the clip.
type Note struct {
	Severity string  `json:"severity"` // info, warning, error
	Kind     string  `json:"kind"`     // check.Kind
	Value    float64 `json:"value,omitempty"`
	Unit     string  `json:"unit,omitempty"`
	Message  string  `json:"message"` // Chinese
}

// Notes renders findings for the judge; suggested is the clip's suggested
// length (the length rule's words). The level (Info) is kept, the pack-wide
// ones are not.
func Notes(fs []check.Finding, suggested time.Duration) []Note {
	out := make([]Note, 0, len(fs))
	for _, f := range fs {
		if f.Kind == check.Spread {
			continue
		}
		out = append(out, Note{Severity: f.Severity.String(), Kind: string(f.Kind), Value: f.Value, Unit: f.Unit, Message: say(f, suggested)})
	}
	return out
}

// say is a finding in the judge's words.
func say(f check.Finding, suggested time.Duration) string {
	secs := func(ms float64) string { return fmt.Sprintf("%.1f 秒", ms/1000) }
	switch f.Kind {
	case check.Level:
		return fmt.Sprintf("音量 %.1f dBFS", f.Value)
	case check.Clipping:
		return fmt.Sprintf("有 %.0f 處爆音：離麥克風遠一點，或把收音調小再錄", f.Value)
	case check.Silent:
		return "聽不到聲音：請靠近麥克風再錄"
	case check.LeadingSilence:
		return fmt.Sprintf("聲音前空白 %.0f 毫秒，句子中間會出現停頓", f.Value)
	case check.TrailingSilence:
		return fmt.Sprintf("聲音後空白 %.0f 毫秒，句子中間會出現停頓", f.Value)
	case check.Length:
		if time.Duration(f.Value)*time.Millisecond > suggested {
			return fmt.Sprintf("錄了 %s，這句約 %.1f 秒：是不是多錄了別的聲音？", secs(f.Value), suggested.Seconds())
		}
		return fmt.Sprintf("只有 %s，這句約 %.1f 秒：是不是沒錄完？", secs(f.Value), suggested.Seconds())
	case check.SampleRate:
		return fmt.Sprintf("取樣率只有 %.0f Hz，音質像電話：請用 44100 或 48000 Hz 錄", f.Value)
	case check.Loudness:
		return fmt.Sprintf("比其他句子的音量差了 %.1f dB", f.Value)
	case check.Unreadable, check.Format:
		return "檔案無法播放：請重錄（" + f.Message + "）"
	}
	return f.Message
}
