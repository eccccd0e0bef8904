// Package manifest reads task manifests (the shared benchmark set's
// manifest.tsv) for `cegpv bench` and the tests, and locates the shared
// SV-COMP 2015 set. It links no test code into the binary (internal/testenv
// adds the testing helpers on top of it).
package manifest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Task is one line of a manifest: a C file and its expected verdict.
type Task struct {
	File     string // path as written in the manifest, relative to the manifest's directory
	Path     string // absolute path
	Category string
	Expected string // "true" (safe) or "false" (a property can be violated)
}

// FindSVCOMP15 walks up from the working directory looking for
// shared/bench/sv-comp15/manifest.tsv and returns the manifest's path, or "".
func FindSVCOMP15() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		for _, cand := range []string{
			filepath.Join(dir, "shared", "bench", "sv-comp15", "manifest.tsv"),
			filepath.Join(dir, "..", "shared", "bench", "sv-comp15", "manifest.tsv"),
		} {
			if _, err := os.Stat(cand); err == nil {
				abs, _ := filepath.Abs(cand)
				return abs
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// ReadManifest reads a tab-separated manifest with a header line
// "file<TAB>category<TAB>expected_verdict".
func ReadManifest(path string) ([]Task, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	base := filepath.Dir(path)
	base, _ = filepath.Abs(base)
	var out []Task
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") || (line == 1 && strings.HasPrefix(text, "file")) {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) < 3 {
			return nil, fmt.Errorf("%s:%d: want 3 tab-separated columns, got %d", path, line, len(cols))
		}
		out = append(out, Task{File: cols[0], Path: filepath.Join(base, cols[0]), Category: cols[1], Expected: cols[2]})
	}
	return out, sc.Err()
}
