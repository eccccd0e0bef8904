package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's "In 30 seconds" output is what the default run prints
// (times masked: they vary), and every local file the README links or
// shows exists (issue 28 item 7). When the output changes on purpose,
// paste the new output into the README.
func TestReadmeExample(t *testing.T) {
	needZ3CLI(t)
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "$ bin/cegpv verify testdata/progs/lazy_counter_unsafe.c\n"
	_, block, ok := strings.Cut(string(readme), cmd)
	if !ok {
		t.Fatalf("README.md has no example %q", cmd)
	}
	want, _, ok := strings.Cut(block, "```")
	if !ok {
		t.Fatal("README.md: the example's block is not closed")
	}
	t.Chdir("..") // the README's paths are the repository's
	code, got, errs := cliRun(t, "verify", "testdata/progs/lazy_counter_unsafe.c")
	if code != exitUnsafe {
		t.Fatalf("exit %d, want %d: %s", code, exitUnsafe, errs)
	}
	secs := regexp.MustCompile(`\d+\.\d\ds`)
	if mask := func(s string) string { return secs.ReplaceAllString(s, "N.NNs") }; mask(got) != mask(want) {
		t.Errorf("README.md's example output drifted from what `cegpv verify testdata/progs/lazy_counter_unsafe.c` prints; now:\n%s", got)
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`).FindAllStringSubmatch(string(readme), -1) {
		_, err := os.Stat(filepath.FromSlash(m[1]))
		switch {
		case err != nil && strings.HasPrefix(m[1], "../"):
			// outside the repository (../shared): absent on a clone elsewhere
			t.Logf("README.md links %s, outside the repository, absent here: %v", m[1], err)
		case err != nil:
			t.Errorf("README.md links %s: %v", m[1], err)
		}
	}
}
