package cegpv_test

import (
	"fmt"
	"strings"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/progen"
	"cegpv.dev/cegpv/interp"
)

// TestHeapAgainstGCC compares the heap model (malloc, realloc growing and
// shrinking blocks of integers and padded structs, realloc of a null
// pointer and to size zero, the void * idiom) with gcc on the programs of
// progen.GenerateHeap: each is compiled with gcc -m32 and -m64 and run;
// its observations are the same in every schedule, so one run decides
// them. Under each data model the interpreter must compute gcc's values,
// and every engine must prove the program that asserts them and refute
// the one that asserts one of them changed (the explicit search, which
// does not take heap blocks, excepted). -seeds N runs seeds 1..N.
func TestHeapAgainstGCC(t *testing.T) {
	needZ3(t)
	models := gccModels(t)
	n := nSeeds(3)
	if testing.Short() {
		n = nSeeds(1)
	}
	dir := t.TempDir()
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(n); seed++ {
		a := progen.GenerateHeap(seed)
		for _, m := range models {
			want := gccGlobals(t, dir, seed, a, m.flag)
			name := fmt.Sprintf("seed %d, %s", seed, m.model)
			p, err := frontend.Lower("heap.c", []byte(a.Src), frontend.Options{Model: m.model})
			if err != nil {
				t.Errorf("%s: rejected: %v\n%s", name, err, a.Src)
				continue
			}
			out, err := interp.Simulate(p, interp.SimOptions{Seed: seed, ContextSwitchProb: 0.5})
			if err != nil || out.Status != interp.Completed {
				t.Errorf("%s: interpreter: %v %v %v\n%s", name, out.Status, out.Err, err, a.Src)
				continue
			}
			bad := false
			for i, g := range a.Globals {
				if got := out.Final[g].Bits; got != want[i] {
					t.Errorf("%s: interpreter %s = %d, gcc %s %d\n%s", name, g, got, m.flag, want[i], a.Src)
					bad = true
				}
			}
			if bad {
				continue
			}
			// unwind 3 (the programs have no loop): engineVerdicts runs
			// the lazy sequentialisation only at 2 or less, and over z3
			// (the test binary does not find bin/yices-smt2) it does not
			// encode these heap programs within its 20 s
			bd := backend.Bounds{Unwind: 3, UnwindingAssertions: true}
			for _, wrong := range []bool{false, true} {
				src := assertFinal(a, want, seed, wrong)
				q, err := frontend.Lower("heap.c", []byte(src), frontend.Options{Model: m.model})
				if err != nil {
					t.Fatalf("%s: the program lowers, the one asserting its values does not: %v\n%s", name, err, src)
				}
				wantV := backend.Safe
				if wrong {
					wantV = backend.Unsafe
				}
				var diffs []string
				for _, d := range engineVerdicts(t, q, bd, wantV) {
					if strings.HasPrefix(d, "explicit: inconclusive") && strings.Contains(d, "the contents of a heap block are indeterminate") {
						continue // the explicit search does not take heap blocks (analysis.Domains)
					}
					diffs = append(diffs, d)
				}
				for _, d := range diffs {
					t.Errorf("%s (a wrong value asserted: %v): %s", name, wrong, d)
				}
				if len(diffs) > 0 {
					t.Logf("%s:\n%s", name, src)
				} else {
					counts["agree "+wantV.String()]++
				}
			}
		}
	}
	t.Logf("%d seeds, data models %v: %v", n, models, counts)
}
