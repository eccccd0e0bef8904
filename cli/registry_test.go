package cli

import (
	"strings"
	"testing"

	"cegpv.dev/cegpv/depgraph"
)

type testHeuristic string

func (h testHeuristic) Name() string                                            { return string(h) }
func (testHeuristic) Choose(g *depgraph.Graph, t []depgraph.Var) []depgraph.Var { return t }

// A registered heuristic is found with its ladder; a name registered
// twice or a built-in one is an error of Main's, before any command.
func TestRegistry(t *testing.T) {
	var reg Registry
	reg.Heuristic(testHeuristic("regtest-a"), depgraph.Steps{K: 3})
	reg.Heuristic(testHeuristic("regtest-b"))
	if err := reg.install(); err != nil {
		t.Fatal(err)
	}
	h, err := depgraph.Lookup("regtest-a")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range depgraph.Levels(h) {
		names = append(names, l.Name())
	}
	if got := strings.Join(names, " "); got != "regtest-a steps3 cone" {
		t.Errorf("ladder %q", got)
	}
	if _, err := depgraph.Lookup("regtest-b"); err != nil {
		t.Error(err)
	}
	var twice Registry
	twice.Heuristic(testHeuristic("regtest-c"))
	twice.Heuristic(testHeuristic("regtest-c"))
	if err := twice.install(); err == nil {
		t.Error("a name registered twice was accepted")
	}
	var builtin Registry
	builtin.Heuristic(testHeuristic("cone"))
	if code := Main([]string{"version"}, &builtin); code != exitUsage {
		t.Errorf("registering cone: exit %d, want %d", code, exitUsage)
	}
	if err := (*Registry)(nil).install(); err != nil {
		t.Error(err)
	}
}
