package report

import (
	"go/build"
	"strings"
	"testing"
)

// The writers sit above the library and below the CLI: neither the
// library (the module root and everything it imports) nor package witness
// imports report or the CLI, so that report may import them.
func TestLayering(t *testing.T) {
	for _, top := range []string{"cegpv.dev/cegpv", "cegpv.dev/cegpv/witness"} {
		seen := map[string]bool{}
		var walk func(path string)
		walk = func(path string) {
			if seen[path] || !strings.HasPrefix(path, "cegpv.dev/cegpv") {
				return
			}
			seen[path] = true
			if path == "cegpv.dev/cegpv/report" || strings.HasPrefix(path, "cegpv.dev/cegpv/cmd/") {
				t.Errorf("%s imports %s", top, path)
				return
			}
			p, err := build.Import(path, ".", 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range p.Imports {
				walk(imp)
			}
		}
		walk(top)
		if len(seen) < 2 && top == "cegpv.dev/cegpv" {
			t.Errorf("%s: found %d packages, the walk is broken", top, len(seen))
		}
	}
}
