package reconstruct

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/internal/lemmatest"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/slice"
)

// TestGolden reads testdata/reconstruct/*.txtar. Sections:
//
//	input.c   the program P
//	kept      the kept variables V0, one per line (depgraph names: "x",
//	          "f::y", "heap@label"); A = slice.Abstract(P, depgraph.Build(P), V0)
//	variant   "order" (OrderOnly, the default) or "values" (ValuesAndOrder)
//	run       the run π of A: either lines "thread label [nondet...]" (the
//	          thread id, the label, and the integer Nondet values the step
//	          draws), replayed on A with interp.Replay, or a single line
//	          "simulate seed=N": interp.Simulate on A with that seed, Unwind 3,
//	          ContextSwitchProb 0.3 (deterministic for a fixed seed)
//
// and the expected outputs: show (program.Show of P1) and print.c
// (program.Print of P1), or error. Regenerate with -update. P1 is also
// checked (program.Check), compiled with gcc -fsyntax-only and lowered again.
func TestGolden(t *testing.T) { lemmatest.Goldens(t, "reconstruct", golden) }

var section = lemmatest.Section

// parseRun reads the "run" section and returns the run of a it describes.
func parseRun(t *testing.T, a *program.Program, text string) *program.Run {
	t.Helper()
	text = strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(text, "simulate"); ok {
		var seed int64
		if _, err := fmt.Sscanf(strings.TrimSpace(rest), "seed=%d", &seed); err != nil {
			t.Fatalf("bad run line %q", text)
		}
		out, err := interp.Simulate(a, interp.SimOptions{Seed: seed, Unwind: 3, ContextSwitchProb: 0.3})
		if err != nil {
			t.Fatal(err)
		}
		return out.Run
	}
	run := lemmatest.ParseSteps(t, text)
	if n := len(run.Steps); n > 0 {
		ix := program.NewIndex(a)
		if in := ix.Instr[run.Steps[n-1].Label]; in != nil && in.Op == program.OpAssert {
			run.Violated = in.Prop
		}
	}
	out, err := interp.Replay(a, run)
	if err != nil && run.Violated != "" {
		run.Violated = ""
		out, err = interp.Replay(a, run)
	}
	if err != nil {
		t.Fatalf("the run does not replay on A: %v", err)
	}
	return out.Run
}

func golden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src, ok := section(ar, "input.c")
	if !ok {
		t.Fatal("no input.c section")
	}
	p := lower(t, "input.c", []byte(src))
	keptText, _ := section(ar, "kept")
	var keep []depgraph.Var
	var kept []string
	for _, f := range strings.Fields(keptText) {
		keep = append(keep, depgraph.Var(f))
	}
	g := depgraph.Build(p)
	a, closed, err := slice.Abstract(p, g, keep)
	if err != nil {
		t.Fatalf("abstract: %v", err)
	}
	for _, v := range closed {
		kept = append(kept, string(v))
	}
	runText, ok := section(ar, "run")
	if !ok {
		t.Fatal("no run section")
	}
	run := parseRun(t, a, runText)
	variant, _ := section(ar, "variant")
	got := map[string]string{}
	var p1 *program.Program
	switch strings.TrimSpace(variant) {
	case "", "order":
		p1, _, err = OrderOnly(p, a, run)
	case "values":
		p1, _, err = ValuesAndOrder(p, a, run, kept)
	default:
		t.Fatalf("unknown variant %q", variant)
	}
	if err != nil {
		got["error"] = err.Error() + "\n"
	} else {
		got["show"], got["print.c"] = checkOutput(t, p1)
	}
	compare(t, file, ar, got)
}

// compare checks the expected sections against got, or rewrites them with
// -update.
func compare(t *testing.T, file string, ar *txtar.Archive, got map[string]string) {
	names := []string{"error", "show", "print.c"}
	lemmatest.CompareGolden(t, file, ar, got, names, *update)
}
