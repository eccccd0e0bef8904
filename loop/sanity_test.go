package loop

import (
	"strings"
	"testing"

	"cegpv.dev/cegpv/program"
)

// With Options.Sanity a program that breaks the model's invariants ends
// the run with an internal error naming the pass; without it nothing is
// checked.
func TestSanityNamesThePass(t *testing.T) {
	broken := &program.Program{} // no main function
	v := &verifier{opts: Options{Sanity: true}}
	v.opts.Bounds.Unwind = 3
	err := v.sane("refine", broken)
	if program.KindOf(err) != program.Internal || !strings.Contains(err.Error(), "sanity check after refine (unwind 3, level 0)") || !strings.Contains(err.Error(), "no main function") {
		t.Errorf("sane: %v, want an internal error naming the pass and the violation", err)
	}
	v.opts.Sanity = false
	if err := v.sane("refine", broken); err != nil {
		t.Errorf("sane without Sanity: %v", err)
	}
}
