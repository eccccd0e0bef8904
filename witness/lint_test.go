package witness

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// lint runs SV-COMP's witness linter on witness b of program file when the
// WITNESSLINT environment variable names sv-witnesses' lint/witnesslinter.py (its
// Python: WITNESSLINT_PYTHON, default /usr/bin/python3 with python3-lxml, see
// `make witnesslint-deps`); without it the linter part is skipped with a message.
func lint(t *testing.T, b []byte, file string) {
	t.Helper()
	linter := os.Getenv("WITNESSLINT")
	if linter == "" {
		t.Log("WITNESSLINT not set: witnesslint not run")
		return
	}
	py := os.Getenv("WITNESSLINT_PYTHON")
	if py == "" {
		py = "/usr/bin/python3"
	}
	w := filepath.Join(t.TempDir(), "witness.graphml")
	if err := os.WriteFile(w, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, linter, "--witness", w, file)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("witnesslint rejects the witness of %s: %v\n%s", file, err, out)
	}
}
