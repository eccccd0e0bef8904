package budget

import (
	"context"
	"errors"
	"os/exec"
	"testing"
	"time"
)

// spin uses about d of CPU time on the calling goroutine's clock, or stops
// when ctx ends.
func spin(ctx context.Context, d time.Duration) error {
	start := Used(ctx)
	for Used(ctx)-start < d {
		for i := 0; i < 1e5; i++ {
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// A goroutine's work counts on its clock and the clocks that clock counts
// towards; a sleep does not.
func TestThreadTime(t *testing.T) {
	ctx, stop := Start(context.Background(), "root", 10*time.Second)
	defer stop()
	time.Sleep(50 * time.Millisecond)
	if u := Used(ctx); u > 20*time.Millisecond {
		t.Errorf("a sleep counted %v", u)
	}
	cctx, cstop := WithLimit(ctx, "child", 0)
	spin(cctx, 100*time.Millisecond)
	cu := Used(cctx)
	cstop()
	if cu < 100*time.Millisecond || Used(ctx) < cu {
		t.Errorf("child %v, root %v", cu, Used(ctx))
	}
	if l, ok := Left(ctx); !ok || l > 10*time.Second-cu {
		t.Errorf("left %v %v", l, ok)
	}
}

// A limit cancels the context with an Exhausted cause, a time limit.
func TestLimit(t *testing.T) {
	ctx, stop := Start(context.Background(), "root", 0)
	defer stop()
	cctx, cstop := WithLimit(ctx, "probe", 50*time.Millisecond)
	defer cstop()
	err := spin(cctx, 10*time.Second)
	if err == nil || !errors.Is(context.Cause(cctx), context.DeadlineExceeded) {
		t.Fatalf("err %v, cause %v", err, context.Cause(cctx))
	}
	var ex *Exhausted
	if !errors.As(context.Cause(cctx), &ex) || ex.Name != "probe" {
		t.Errorf("cause %v", context.Cause(cctx))
	}
}

// A child process's CPU time counts; after it ended, by its rusage.
func TestProcess(t *testing.T) {
	ctx, stop := Start(context.Background(), "root", 0)
	defer stop()
	cmd := exec.Command("sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	end := Process(ctx, cmd.Process.Pid)
	cmd.Wait()
	end(cmd.ProcessState)
	want := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if u := Used(ctx); u < want {
		t.Errorf("used %v, the process took %v", u, want)
	}
}

// The winner of a race is the engine that ends first in CPU time, whatever
// the wall clock says: here the fast engine sleeps (no CPU) before it
// answers, after the slow one has answered in wall time.
func TestRaceByCPU(t *testing.T) {
	ctx, stop := Start(context.Background(), "root", 0)
	defer stop()
	dec := func(s string, err error) bool { return err == nil }
	res, err, w := Race(ctx, dec,
		Engine[string]{Name: "slow", Run: func(ctx context.Context) (string, error) {
			return "slow", spin(ctx, 300*time.Millisecond)
		}},
		Engine[string]{Name: "sleepy", Run: func(ctx context.Context) (string, error) {
			time.Sleep(600 * time.Millisecond)
			return "sleepy", spin(ctx, 20*time.Millisecond)
		}})
	if err != nil || res != "sleepy" || w != 1 {
		t.Errorf("got %q %v %d, want sleepy", res, err, w)
	}
	if u := Used(ctx); u > 200*time.Millisecond {
		t.Errorf("root charged %v, the winner took about 20ms", u)
	}
	// a delayed engine starts once the first has used its After
	res, _, w = Race(ctx, dec,
		Engine[string]{Name: "first", Run: func(ctx context.Context) (string, error) {
			return "first", spin(ctx, 100*time.Millisecond)
		}},
		Engine[string]{Name: "late", After: time.Second, Run: func(ctx context.Context) (string, error) {
			return "late", nil
		}})
	if res != "first" || w != 0 {
		t.Errorf("got %q %d, want first", res, w)
	}
}
