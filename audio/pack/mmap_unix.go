//go:build unix

package pack

import (
	"os"
	"syscall"
)

// mapFile maps f's size bytes, private and copy-on-write: the clips'
// samples are the file's pages, shared with the page cache, and a write
// into one (nothing does) would stay in the process.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
