// Package coretest provides fakes of the hardware core reads: a chain of
// 74HC165 shift registers with contacts on it (Chain, a core.ShiftChain) and
// a GPIO input (Pin, a core.Pin). Tests of core, and host-side emulators of
// the firmware, use them in place of the real board.
package coretest
