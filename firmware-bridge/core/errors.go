package core

import "strconv"

// ConfigError reports a configuration the bridge cannot run with.
type ConfigError struct {
	Field  string // the offending field, e.g. "Scan.BitsPerSeat" or "Scan.KeyMap[3]"
	Value  int    // its value
	Reason string // "out of range", "duplicate key", …
}

func (e *ConfigError) Error() string {
	return "core: config " + e.Field + " = " + strconv.Itoa(e.Value) + ": " + e.Reason
}
