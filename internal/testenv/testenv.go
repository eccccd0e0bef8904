// Package testenv locates the shared benchmark set and reads its manifest,
// for tests and for `cegpv bench`.
package testenv

import (
	"path/filepath"
	"testing"

	"cegpv.dev/cegpv/internal/manifest"
)

// Task is one line of a manifest (see package manifest).
type Task = manifest.Task

// FindSVCOMP15 is manifest.FindSVCOMP15.
func FindSVCOMP15() string { return manifest.FindSVCOMP15() }

// ReadManifest is manifest.ReadManifest.
func ReadManifest(path string) ([]Task, error) { return manifest.ReadManifest(path) }

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

// SVCOMP15Task returns the task of the shared manifest whose file is
// named name (its base name), skipping t when the shared directory is
// absent and failing it when the manifest has no such task.
func SVCOMP15Task(t testing.TB, name string) Task {
	t.Helper()
	for _, task := range SVCOMP15(t) {
		if filepath.Base(task.File) == name {
			return task
		}
	}
	t.Fatalf("%s is not in the manifest", name)
	return Task{}
}
