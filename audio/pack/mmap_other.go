//go:build !unix

package pack

import (
	"io"
	"os"
)

// mapFile reads f into memory where there is no mmap.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	b := make([]byte, size)
	if _, err := f.ReadAt(b, 0); err != nil && err != io.EOF {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}
