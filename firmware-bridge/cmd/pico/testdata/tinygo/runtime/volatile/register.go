// Package volatile is a stand-in for TinyGo's runtime/volatile for the
// firmware's compile check: Register32 as TinyGo v0.33.0 declares it
// (src/runtime/volatile/register.go). It is never run.
package volatile

// Register32 is a 32-bit memory-mapped register.
type Register32 struct {
	Reg uint32
}

func (r *Register32) Get() uint32                                      { return r.Reg }
func (r *Register32) Set(value uint32)                                 {}
func (r *Register32) SetBits(value uint32)                             {}
func (r *Register32) ClearBits(value uint32)                           {}
func (r *Register32) HasBits(value uint32) bool                        { return false }
func (r *Register32) ReplaceBits(value uint32, mask uint32, pos uint8) {}
