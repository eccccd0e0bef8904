package proc

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTermFirst: with TermFirst, the end of the context sends SIGTERM (the
// child's handler runs: here it writes a file), not SIGKILL.
func TestTermFirst(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "terminated")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := Command(ctx, "sh", "-c", `trap 'echo > "$0"; exit 0' TERM; echo ready; while :; do sleep 0.05; done`, mark)
	TermFirst(cmd, 5*time.Second)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil { // the trap is set
		t.Fatal(err)
	}
	cancel()
	cmd.Wait()
	if _, err := os.Stat(mark); err != nil {
		t.Fatalf("the child's SIGTERM handler did not run: %v", err)
	}
}
