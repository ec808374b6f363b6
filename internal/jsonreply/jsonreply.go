// Package jsonreply writes the table's JSON answers over HTTP: the judge
// console's and the voice studio's, which share one error shape,
// {"error": the judge's words, "code": a word for programs}.
package jsonreply

import (
	"encoding/json"
	"net/http"
)

// Error is the body of a refusal.
type Error struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// Write answers v as JSON with status, not to be cached unless the handler
// set its own Cache-Control. A value that cannot be marshalled answers 500.
func Write(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal","code":"internal"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// Refuse answers an Error with status.
func Refuse(w http.ResponseWriter, status int, code, msg string) {
	Write(w, status, Error{Error: msg, Code: code})
}
