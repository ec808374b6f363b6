package protocol

// CRC-16/CCITT-FALSE, the parameters as the Rocksoft model names them
// (catalogued as CRC-16/IBM-3740):
const (
	crcWidth  = 16
	crcPoly   = 0x1021 // x^16 + x^12 + x^5 + 1
	crcInit   = 0xFFFF
	crcRefIn  = false // input bytes enter most significant bit first
	crcRefOut = false // the register is not reflected before xorout
	crcXorOut = 0x0000
	crcCheck  = 0x29B1 // CRC16([]byte("123456789"))
)

// crcTable[b] is the register after shifting byte b through an all-zero
// register, most significant bit first. Because crcRefIn and crcRefOut are
// both false the table-driven loop in CRC16 shifts left and needs no
// reflection; crc_test.go checks it against a bit-by-bit model that honours
// every parameter above.
var crcTable = makeCRCTable()

func makeCRCTable() (t [256]uint16) {
	for b := range t {
		r := uint16(b) << (crcWidth - 8)
		for i := 0; i < 8; i++ {
			if r&0x8000 != 0 {
				r = r<<1 ^ crcPoly
			} else {
				r <<= 1
			}
		}
		t[b] = r
	}
	return t
}

// CRC16 returns the CRC-16/CCITT-FALSE of p. A frame carries it big-endian
// after its payload.
func CRC16(p []byte) uint16 {
	r := uint16(crcInit)
	for _, b := range p {
		r = r<<8 ^ crcTable[byte(r>>8)^b]
	}
	return r ^ crcXorOut
}
