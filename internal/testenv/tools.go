package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ModuleRoot walks up from the working directory to the directory holding
// go.mod, or returns "".
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Tool returns the path of an external checker for live tests: the
// environment variable env when set, else name on PATH, else bin/name
// under the module root (where `make deps` links the checkers it
// installs). It skips t with a message when there is none.
func Tool(t testing.TB, name, env string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if root := ModuleRoot(); root != "" {
		p := filepath.Join(root, "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("%s not found (set %s, put it on PATH or run `make deps`): live test skipped", name, env)
	return ""
}
