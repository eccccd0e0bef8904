package builtin

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/program"
)

// lowerTimeout runs the front end in the data model m ("": the host's) with
// a time limit (a front-end hang must not hang the backend's tests).
func lowerTimeout(file string, m program.DataModel, d time.Duration) (*program.Program, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	type res struct {
		p   *program.Program
		err error
	}
	ch := make(chan res, 1)
	go func() {
		p, err := frontend.Lower(file, src, frontend.Options{Model: m})
		ch <- res{p, err}
	}()
	select {
	case r := <-ch:
		return r.p, r.err
	case <-time.After(d):
		return nil, fmt.Errorf("front end did not finish within %v", d)
	}
}

// TestSVCOMP runs the tasks of ../shared/bench/sv-comp15 whose file matches
// $CEGPV_SVCOMP (a regular expression); it is skipped when the variable is
// unset. Wrong verdicts fail; the rest is logged.
func TestSVCOMP(t *testing.T) {
	pat := os.Getenv("CEGPV_SVCOMP")
	if pat == "" {
		t.Skip("set CEGPV_SVCOMP to a regexp of task files to run the sv-comp15 tasks")
	}
	needZ3(t)
	re := regexp.MustCompile(pat)
	tasks := testenv.SVCOMP15(t)
	limit := 60 * time.Second
	if s := os.Getenv("CEGPV_TIMEOUT"); s != "" {
		limit, _ = time.ParseDuration(s)
	}
	for _, task := range tasks {
		if !re.MatchString(task.File) {
			continue
		}
		p, err := lowerTimeout(task.Path, task.DataModel, 20*time.Second)
		if err != nil {
			t.Logf("%-70s FRONTEND %v", task.File, firstLine(err.Error()))
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		start := time.Now()
		res, err := New(Options{}).Check(ctx, p, backend.Bounds{Unwind: 5})
		cancel()
		el := time.Since(start)
		v := res.Verdict.SVCOMP()
		if err != nil {
			v = "ERROR " + firstLine(err.Error())
		} else if res.Verdict == backend.Unknown {
			v += " " + res.Reason
		}
		mark := ""
		if (task.Expected == "true" && res.Verdict == backend.Unsafe) || (task.Expected == "false" && res.Verdict == backend.Safe && res.Proof) {
			mark = "WRONG"
			t.Errorf("%s: wrong verdict %v", task.File, res.Verdict)
		}
		t.Logf("%-70s exp=%-5s got=%-8s %6.1fs ev=%d enc=%v solve=%v %s", task.File, task.Expected, v, el.Seconds(), res.Stats.Events, res.Stats.EncodeTime.Round(time.Millisecond), res.Stats.SolverTime.Round(time.Millisecond), mark)
	}
}

func firstLine(s string) string {
	if len(s) > 150 {
		s = s[:150]
	}
	return s
}
