package frontend

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/program"
)

type lowered struct {
	task testenv.Task
	prog *program.Program
	err  error
}

func lowerAll(t testing.TB, tasks []testenv.Task) []lowered {
	out := make([]lowered, len(tasks))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, task := range tasks {
		wg.Add(1)
		go func(i int, task testenv.Task) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			src, err := os.ReadFile(task.Path)
			if err != nil {
				out[i] = lowered{task: task, err: err}
				return
			}
			p, err := Lower(task.File, src, Options{Model: task.DataModel, IncludeDirs: []string{filepath.Dir(task.Path)}})
			out[i] = lowered{task: task, prog: p, err: err}
		}(i, task)
	}
	wg.Wait()
	return out
}

func TestSVCOMP15(t *testing.T) {
	tasks := testenv.SVCOMP15(t)
	res := lowerAll(t, tasks)
	ok := 0
	var rejected []string
	for _, r := range res {
		if r.err != nil {
			if program.KindOf(r.err) != program.Unsupported {
				t.Errorf("%s: %v", r.task.File, r.err)
			}
			rejected = append(rejected, fmt.Sprintf("%s: %v", r.task.File, firstLine(r.err.Error())))
			continue
		}
		if err := program.Check(r.prog); err != nil {
			t.Errorf("%s: Check: %v", r.task.File, firstLines(err.Error(), 5))
			continue
		}
		ok++
	}
	// Round trip: print, compile, lower again, print identically.
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, r := range res {
		if r.err != nil {
			continue
		}
		wg.Add(1)
		go func(r lowered) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var b bytes.Buffer
			if _, err := program.Print(&b, r.prog); err != nil {
				t.Errorf("%s: Print: %v", r.task.File, err)
				return
			}
			roundTrip(t, r.task.File, b.Bytes(), Options{Model: r.task.DataModel})
		}(r)
	}
	wg.Wait()
	sort.Strings(rejected)
	for _, s := range rejected {
		t.Logf("rejected %s", s)
	}
	rate := float64(ok) / float64(len(tasks))
	t.Logf("lowered %d of %d files (%.1f%%)", ok, len(tasks), 100*rate)
	if rate < 0.98 {
		t.Errorf("lowering rate %.1f%% < 98%%", 100*rate)
	}
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

func firstLines(s string, n int) string {
	ls := strings.SplitN(s, "\n", n+1)
	if len(ls) > n {
		ls = ls[:n]
	}
	return strings.Join(ls, "\n")
}

func BenchmarkLowerSVCOMP15(b *testing.B) {
	tasks := testenv.SVCOMP15(b)
	srcs := make([][]byte, len(tasks))
	for i, task := range tasks {
		src, err := os.ReadFile(task.Path)
		if err != nil {
			b.Fatal(err)
		}
		srcs[i] = src
	}
	var times []float64
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for i, task := range tasks {
			start := time.Now()
			Lower(task.File, srcs[i], Options{Model: task.DataModel, IncludeDirs: []string{filepath.Dir(task.Path)}})
			times = append(times, float64(time.Since(start).Microseconds())/1000)
		}
	}
	sort.Float64s(times)
	b.ReportMetric(times[len(times)/2], "ms/file-median")
	b.ReportMetric(times[len(times)*9/10], "ms/file-p90")
}
