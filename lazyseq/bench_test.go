package lazyseq

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
)

// BenchmarkLazyCounter3Rounds checks testdata/progs/lazy_counter_unsafe.c
// at 3 rounds (unwind 5, threads 5: cegpv verify's defaults) with the
// built-in backend behind the sequentialisation, and reports the
// encoding's shared-memory events and the solver's time per check
// (docs/bench/rounds).
func BenchmarkLazyCounter3Rounds(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "progs", "lazy_counter_unsafe.c"))
	if err != nil {
		b.Fatal(err)
	}
	p, err := frontend.Lower("lazy_counter_unsafe.c", src, frontend.Options{})
	if err != nil {
		b.Fatal(err)
	}
	be := Backend{Inner: builtin.New(builtin.Options{}), Rounds: 3}
	var events, solver float64
	for i := 0; i < b.N; i++ {
		res, err := be.Check(context.Background(), p, backend.Bounds{Unwind: 5, Threads: 5})
		if err != nil || res.Verdict != backend.Unsafe {
			b.Fatalf("%v %v (%s), want UNSAFE", res.Verdict, err, res.Reason)
		}
		events += float64(res.Stats.Events)
		solver += res.Stats.SolverTime.Seconds()
	}
	b.ReportMetric(events/float64(b.N), "events/op")
	b.ReportMetric(solver/float64(b.N), "solver-s/op")
}
