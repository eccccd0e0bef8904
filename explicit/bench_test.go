package explicit

import (
	"context"
	"os"
	"testing"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
)

// BenchmarkExploreWMM runs the search on pthread-wmm tasks of the shared
// set made of lock-protected blocks (skipped when ../shared is absent), at
// --unwind 5 with a 1 GiB store, and reports the states stored.
//
//	go test -run '^$' -bench ExploreWMM -benchtime 1x ./explicit
func BenchmarkExploreWMM(b *testing.B) {
	for _, name := range []string{"safe030_tso.oepc_true", "mix010_tso.opt_false", "safe002_power.oepc_false"} {
		task := testenv.SVCOMP15Task(b, name+"-unreach-call.c")
		src, err := os.ReadFile(task.Path)
		if err != nil {
			b.Fatal(err)
		}
		p, err := frontend.Lower(task.Path, src, frontend.Options{Model: task.DataModel})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			var states int
			for n := 0; n < b.N; n++ {
				r, err := Explore(context.Background(), p, ExploreOptions{Unwind: 5, MaxStateBytes: 1 << 30, MaxHeap: 8 << 30})
				if err != nil || r.Status == Inconclusive {
					b.Fatalf("%v %v", err, r)
				}
				states = r.States
			}
			b.ReportMetric(float64(states), "states")
		})
	}
}
