package deskserver

import (
	"testing"
	"time"
)

// TestAgoText (issue 31 item 8, issue 29 item 6): the operator's page
// says 26 秒前, not Go's 26s 前.
func TestAgoText(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "剛剛"},
		{26*time.Second + 400*time.Millisecond, "26 秒前"},
		{3*time.Minute + 5*time.Second, "3 分鐘前"},
		{2*time.Hour + 3*time.Minute, "2 小時前"},
		{72 * time.Hour, "3 天前"},
	} {
		if got := ageWords(c.d); got != c.want {
			t.Errorf("ageWords(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
