package core

import "wolftable/firmware-bridge/protocol"

// The RP2040's reset registers, as the firmware reads them at start (RP2040
// datasheet, 4.7 Watchdog and 2.10.6 Chip-level reset), and the mark the
// firmware leaves in a watchdog scratch register while its watchdog runs.
const (
	WatchdogReasonTimer = 1 << 0  // WATCHDOG.REASON.TIMER: the watchdog's counter ran out
	WatchdogReasonForce = 1 << 1  // WATCHDOG.REASON.FORCE: a forced reset (WATCHDOG.CTRL.TRIGGER)
	ChipResetHadPOR     = 1 << 8  // VREG_AND_CHIP_RESET.CHIP_RESET.HAD_POR: power-on reset or brown-out
	ChipResetHadRun     = 1 << 16 // VREG_AND_CHIP_RESET.CHIP_RESET.HAD_RUN: the RUN pin

	// WatchdogMagic is written to WATCHDOG.SCRATCH4 once the firmware's
	// watchdog runs (the pico SDK's watchdog_enable does the same, with the
	// same value; its watchdog_reboot writes 0 there). A reboot by the boot
	// ROM or a debugger also sets WATCHDOG.REASON, but not this mark.
	WatchdogMagic = 0x6ab73121
)

// ResetReasonOf returns why an RP2040 last started, from WATCHDOG.REASON,
// WATCHDOG.SCRATCH4 and VREG_AND_CHIP_RESET.CHIP_RESET read at start. A
// watchdog reset leaves CHIP_RESET as it was (HAD_POR still set from the
// power-on before), and a chip-level reset clears REASON, so REASON decides
// first.
func ResetReasonOf(watchdogReason, scratch4, chipReset uint32) protocol.ResetReason {
	switch {
	case watchdogReason&WatchdogReasonTimer != 0 && scratch4 == WatchdogMagic:
		return protocol.ResetWatchdog
	case watchdogReason&(WatchdogReasonTimer|WatchdogReasonForce) != 0:
		return protocol.ResetSoftware
	case chipReset&ChipResetHadRun != 0:
		return protocol.ResetPin
	case chipReset&ChipResetHadPOR != 0:
		return protocol.ResetPowerOn
	}
	return protocol.ResetUnknown
}
