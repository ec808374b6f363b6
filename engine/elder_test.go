package engine

// 村長 and 長老 are one rule with two cards: both live in role_elder.go.
func init() { roleFamily[Chief] = "role_elder.go" }
