// Package rp is a stand-in for TinyGo's device/rp for the firmware's
// compile check: the two peripherals cmd/pico reads. TinyGo generates the
// real package from the RP2040's SVD file when it builds (it is not in its
// source tree): a struct per peripheral, a volatile.Register32 field per
// register named as the SVD names it, and a pointer variable per
// peripheral; machine_rp2040_watchdog.go uses rp.WATCHDOG.LOAD and
// rp.WATCHDOG.CTRL that way. The registers are those of the RP2040
// datasheet (4.7.6 WATCHDOG, 2.10.8 VREG_AND_CHIP_RESET). It is never run.
package rp

import "runtime/volatile"

// WATCHDOG at 0x40058000.
type WATCHDOG_Type struct {
	CTRL     volatile.Register32 // 0x00
	LOAD     volatile.Register32 // 0x04
	REASON   volatile.Register32 // 0x08: bit 0 TIMER, bit 1 FORCE
	SCRATCH0 volatile.Register32 // 0x0C
	SCRATCH1 volatile.Register32 // 0x10
	SCRATCH2 volatile.Register32 // 0x14
	SCRATCH3 volatile.Register32 // 0x18
	SCRATCH4 volatile.Register32 // 0x1C
	SCRATCH5 volatile.Register32 // 0x20
	SCRATCH6 volatile.Register32 // 0x24
	SCRATCH7 volatile.Register32 // 0x28
	TICK     volatile.Register32 // 0x2C
}

var WATCHDOG = &WATCHDOG_Type{}

// VREG_AND_CHIP_RESET at 0x40064000.
type VREG_AND_CHIP_RESET_Type struct {
	VREG       volatile.Register32 // 0x0
	BOD        volatile.Register32 // 0x4
	CHIP_RESET volatile.Register32 // 0x8: bit 8 HAD_POR, bit 16 HAD_RUN, bit 20 HAD_PSM_RESTART
}

var VREG_AND_CHIP_RESET = &VREG_AND_CHIP_RESET_Type{}
