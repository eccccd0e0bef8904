package proc

import (
	"os"
	"sync"
)

// Temporary directories of child processes. A check that is abandoned
// after its grace period (cegpv.CheckOptions.Grace) may still be waiting
// for its killed child when cegpv exits, so its deferred removal never
// runs: every directory made by TempDir is also removed by CleanupTemp,
// which the command calls before it exits.

var (
	tempMu sync.Mutex
	temps  = map[string]bool{}
)

// TempDir is os.MkdirTemp, remembered until RemoveTemp.
func TempDir(dir, pattern string) (string, error) {
	d, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	tempMu.Lock()
	temps[d] = true
	tempMu.Unlock()
	return d, nil
}

// RemoveTemp removes a directory made by TempDir and everything in it.
func RemoveTemp(d string) error {
	tempMu.Lock()
	delete(temps, d)
	tempMu.Unlock()
	return os.RemoveAll(d)
}

// CleanupTemp removes every directory made by TempDir and not yet removed.
func CleanupTemp() {
	tempMu.Lock()
	ds := make([]string, 0, len(temps))
	for d := range temps {
		ds = append(ds, d)
	}
	clear(temps)
	tempMu.Unlock()
	for _, d := range ds {
		os.RemoveAll(d)
	}
}
