//go:build !wolftable_tear

package desk

func beforeMark() {}
