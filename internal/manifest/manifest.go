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
	"slices"
	"strings"

	"cegpv.dev/cegpv/program"
)

// Task is one line of a manifest: a C file, its expected verdict and its
// data model.
type Task struct {
	File      string // path as written in the manifest: relative to the manifest's directory, or absolute
	Path      string // absolute path
	Category  string
	Expected  string            // "true" (safe) or "false" (a property can be violated)
	DataModel program.DataModel // ILP32 or LP64
}

// DefaultModel is the data model of the tasks of a manifest without a
// data_model column: SV-COMP's concurrency tasks, the 2015 set among them,
// are ILP32 (SV-COMP's task definitions of today state it, and are ILP32
// too).
const DefaultModel = program.ILP32

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
// "file<TAB>category<TAB>expected_verdict", optionally followed by other
// columns; a column named data_model gives each task's data model (ILP32 or
// LP64), DefaultModel without one.
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
	line, modelCol := 0, -1
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 && strings.HasPrefix(text, "file") {
			modelCol = slices.Index(strings.Split(text, "\t"), "data_model")
			continue
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) < 3 {
			return nil, fmt.Errorf("%s:%d: want 3 tab-separated columns, got %d", path, line, len(cols))
		}
		path := cols[0]
		if !filepath.IsAbs(path) {
			path = filepath.Join(base, path) // relative to the manifest; an absolute path as given
		}
		t := Task{File: cols[0], Path: path, Category: cols[1], Expected: cols[2], DataModel: DefaultModel}
		if modelCol >= 0 {
			if modelCol >= len(cols) {
				return nil, fmt.Errorf("%s:%d: no data_model column", path, line)
			}
			switch m := program.DataModel(cols[modelCol]); m {
			case program.ILP32, program.LP64:
				t.DataModel = m
			default:
				return nil, fmt.Errorf("%s:%d: data_model %q, want ILP32 or LP64", path, line, cols[modelCol])
			}
		}
		out = append(out, t)
	}
	return out, sc.Err()
}
