package jsonreply

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestWrite: the status, the type, no caching unless the handler said, and
// 500 for a value JSON cannot hold.
func TestWrite(t *testing.T) {
	w := httptest.NewRecorder()
	Refuse(w, http.StatusConflict, "game_on", "對局進行中")
	var e Error
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || w.Code != 409 || e.Code != "game_on" || e.Error != "對局進行中" ||
		w.Header().Get("Cache-Control") != "no-store" || w.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("%d %q %+v %v", w.Code, w.Body, e, err)
	}
	w = httptest.NewRecorder()
	w.Header().Set("Cache-Control", "max-age=5")
	Write(w, 200, math.NaN())
	if w.Code != 500 || w.Header().Get("Cache-Control") != "max-age=5" {
		t.Errorf("NaN: %d %s", w.Code, w.Header().Get("Cache-Control"))
	}
}
