// Package testenv locates the shared benchmark set and reads its manifest,
// for tests and for `cegpv bench`.
package testenv

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// SVCOMP15 returns the tasks of the shared manifest, or skips t with a
// message when the shared directory is absent.
func SVCOMP15(t testing.TB) []Task {
	t.Helper()
	m := FindSVCOMP15()
	if m == "" {
		t.Skip("../shared/bench/sv-comp15/manifest.tsv not found; skipping benchmark-set test")
	}
	tasks, err := ReadManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	return tasks
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
