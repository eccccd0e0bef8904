package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"cegpv.dev/cegpv/internal/proc"
	"cegpv.dev/cegpv/internal/testenv"
)

// TestBenchExec runs real BenchExec (make deps installs it into
// .tools/venv) with cegpv's tool-info module on tools/benchexec/smoke.xml:
// six testdata programs as SV-COMP task definitions, in both modes. Every
// run must be correct: BenchExec read each verdict from cegpv's last
// output line and compared it with the task's expected verdict.
func TestBenchExec(t *testing.T) {
	root := testenv.ModuleRoot()
	bx := filepath.Join(root, ".tools", "venv", "bin", "benchexec")
	if _, err := os.Stat(bx); err != nil {
		t.Skipf("BenchExec not installed (make deps): %v", err)
	}
	if os.Getenv("CEGPV_BENCHEXEC") != "1" {
		// (in make test it once hung for minutes while other packages ran:
		// opt-in until that is understood; make benchexec-smoke runs it)
		t.Skip("runs BenchExec: set CEGPV_BENCHEXEC=1")
	}
	tool := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(tool, "bin", "cegpv"), "../cmd/cegpv").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := proc.Command(ctx, bx, "--tool-directory", tool, "--read-only-dir", "/", "--overlay-dir", "/tmp", "--overlay-dir", "/home",
		"-o", filepath.Join(t.TempDir(), "out")+"/", filepath.Join(root, "tools", "benchexec", "smoke.xml"))
	cmd.Env = append(os.Environ(), "PYTHONPATH="+filepath.Join(root, "tools", "benchexec"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		if regexp.MustCompile(`(?i)cgroup|container|namespace`).Match(out) {
			t.Skipf("BenchExec cannot run its containers here: %v\n%s", err, out)
		}
		t.Fatalf("benchexec: %v\n%s", err, out)
	}
	correct := regexp.MustCompile(`(?m)^  correct:\s+(\d+)$`).FindSubmatch(out)
	incorrect := regexp.MustCompile(`(?m)^  incorrect:\s+(\d+)$`).FindSubmatch(out)
	if correct == nil || string(correct[1]) != "12" || incorrect == nil || string(incorrect[1]) != "0" {
		t.Errorf("want 12 correct and 0 incorrect runs:\n%s", out)
	}
}
