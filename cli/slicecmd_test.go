package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestDepgraphAndSliceCommands runs the depgraph and slice commands in
// process on a program of testdata/progs.
func TestDepgraphAndSliceCommands(t *testing.T) {
	const file = "../testdata/progs/paper_fig2.c"
	for _, tc := range []struct {
		args []string
		code int
		out  []string // substrings of stdout
		err  []string // substrings of stderr
	}{
		{[]string{"depgraph", file}, 0, []string{"x  ", "group", "property main.assertion.1: main::t1, main::t2, x", "V0 (paper): "}, nil},
		{[]string{"depgraph", "--dot", "--heuristic", "cone", file}, 0, []string{"digraph depgraph {", `"x" [label="x", style=filled`}, nil},
		{[]string{"depgraph", "--heuristic", "nonsense", file}, exitUsage, nil, []string{"unknown heuristic"}},
		{[]string{"slice", "--keep", "x,main::t1,main::t2", file}, 0, []string{"int x", "if (__VERIFIER_nondet_int()) goto", "assert(x != 2);"}, []string{"kept: main::t1, main::t2, x"}},
		{[]string{"slice", "--show", "--keep", "x", file}, 0, []string{"skip /* sliced: y */", "main.4  skip /* sliced join */"}, nil},
		{[]string{"slice", "--keep", "nosuchvar", file}, exitUsage, nil, []string{`no variable "nosuchvar"`}},
		{[]string{"slice", "--heuristic", "paper", file}, 0, []string{"int main(void)"}, []string{"kept: "}},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errb)
		name := strings.Join(tc.args, " ")
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d; stderr:\n%s", name, code, tc.code, errb.String())
		}
		for _, s := range tc.out {
			if !strings.Contains(out.String(), s) {
				t.Errorf("%s: stdout lacks %q:\n%s", name, s, out.String())
			}
		}
		for _, s := range tc.err {
			if !strings.Contains(errb.String(), s) {
				t.Errorf("%s: stderr lacks %q:\n%s", name, s, errb.String())
			}
		}
	}
}
