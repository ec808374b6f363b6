package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Unresumable reports whether err, from Unfinished or Resume, means the
// journal itself cannot be resumed — damaged, cut before its header, from
// a newer format, or not replaying on this build — rather than a problem
// of the machine (permissions, a full disk, another writer holding it).
func Unresumable(err error) bool {
	var ce *CorruptError
	var ve *VersionError
	var re *ReplayError
	return errors.As(err, &ce) || errors.As(err, &ve) || errors.As(err, &re) ||
		errors.Is(err, ErrNoHeader) || errors.Is(err, ErrNotJournal)
}

// MoveAside renames a journal that cannot be resumed to
// "NAME.damaged-20261201T053300Z" in its folder (a suffix -2, -3, … if
// that name is taken), so the table can go on with a new game while the
// file is kept for `wolftable record verify`. Nothing is deleted. The
// rename is made durable (the folder is fsynced). It returns the new path.
func MoveAside(path string, now time.Time) (string, error) {
	base := path + ".damaged-" + now.UTC().Format("20060102T150405Z")
	to := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
			break
		} else if err != nil {
			return "", fmt.Errorf("journal: moving %s aside: %w", path, err)
		}
		if i > 1000 {
			return "", fmt.Errorf("journal: moving %s aside: too many damaged copies", path)
		}
		to = fmt.Sprintf("%s-%d", base, i)
	}
	if err := os.Rename(path, to); err != nil {
		return "", fmt.Errorf("journal: moving %s aside: %w", path, err)
	}
	if err := syncDir(filepath.Dir(to)); err != nil {
		return to, fmt.Errorf("journal: moving %s aside: %w", path, err)
	}
	return to, nil
}
