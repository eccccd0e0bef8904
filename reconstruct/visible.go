package reconstruct

import (
	"strings"

	"cegpv.dev/cegpv/program"
)

// Visible returns the visible labels of the abstraction a: every label whose
// instruction is not a Skip produced by slicing (slice.Abstract turns the
// instructions that only touch sliced variables into Skip with a Msg that
// starts with "sliced"). The visible projection of a run of a is the
// subsequence of its steps at visible labels; reconstruction forces its label
// sequence and refinement excludes it.
func Visible(a *program.Program) map[program.Label]bool {
	vis := map[program.Label]bool{}
	for _, f := range a.Funcs {
		for _, in := range f.Body {
			if !IsSliced(in) {
				vis[in.Label] = true
			}
		}
	}
	return vis
}

// IsSliced reports whether in is a Skip produced by slicing.
func IsSliced(in *program.Instr) bool {
	return in.Op == program.OpSkip && strings.HasPrefix(in.Msg, "sliced")
}

// Project returns the labels of the steps of run at visible labels, in order.
func Project(run *program.Run, visible map[program.Label]bool) []program.Label {
	var out []program.Label
	for _, s := range run.Steps {
		if visible[s.Label] {
			out = append(out, s.Label)
		}
	}
	return out
}
