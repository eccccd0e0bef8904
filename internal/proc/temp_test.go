package proc

import (
	"os"
	"path/filepath"
	"testing"
)

// A directory that its owner never removed is removed by CleanupTemp; one
// removed by RemoveTemp is forgotten.
func TestCleanupTemp(t *testing.T) {
	base := t.TempDir()
	kept, err := TempDir(base, "x-")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(kept, "prog.c"), []byte("int main;"), 0o644)
	gone, _ := TempDir(base, "y-")
	if err := RemoveTemp(gone); err != nil {
		t.Fatal(err)
	}
	CleanupTemp()
	if _, err := os.Stat(kept); !os.IsNotExist(err) {
		t.Errorf("%s still exists after CleanupTemp: %v", kept, err)
	}
	if ents, _ := os.ReadDir(base); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}
