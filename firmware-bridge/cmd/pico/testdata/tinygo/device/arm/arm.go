// Package arm is a stand-in for TinyGo's device/arm for the firmware's
// compile check: the declarations cmd/pico uses, with the signatures of
// TinyGo v0.33.0 (src/device/arm/arm.go). It is never run.
package arm

// Asm emits the assembly instruction asm inline.
func Asm(asm string)
