// Package atomicfile writes a file so that a reader, or the machine after a
// power cut, sees either the old file whole or the new one whole: a
// temporary file in the same folder, synced, renamed over the name, and the
// folder synced so the rename itself is kept.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to path with mode, atomically. On an error the old
// file, if any, is untouched and no temporary file is left.
func Write(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
