package deskserver

import (
	"testing"
	"time"
)

// TestAgoText (issue 31 item 8): the operator's page says 26 秒前, not
// Go's 26s 前.
func TestAgoText(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 秒前"},
		{-time.Second, "0 秒前"},
		{26*time.Second + 400*time.Millisecond, "26 秒前"},
		{59*time.Second + 600*time.Millisecond, "1 分 00 秒前"},
		{3*time.Minute + 5*time.Second, "3 分 05 秒前"},
		{2*time.Hour + 3*time.Minute + 9*time.Second, "2 小時 03 分前"},
	} {
		if got := agoText(c.d); got != c.want {
			t.Errorf("agoText(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
