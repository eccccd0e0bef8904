package lazyseq

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

var (
	threadsRe = regexp.MustCompile(`(?m)^// bounds:.*threads=(\d+)`)
	allProgs  = flag.Bool("all", false, "TestProgs: every testdata/progs program (an UNKNOWN within 60 s is then skipped), not only the quick ones")
)

// quick are the programs of testdata/progs that TestProgs checks by
// default, with their rounds: each must be answered correctly.
var quick = map[string]int{
	"lazy_counter_unsafe.c":   3, // main joins after both threads: three rounds
	"join_missing_unsafe.c":   2,
	"join_order_safe.c":       2,
	"cond_wait_if_unsafe.c":   2,
	"cond_wait_safe.c":        2,
	"cil_addr_unsafe.c":       2,
	"cil_addr_safe.c":         2,
	"four_switches_unsafe.c":  3,
	"detach_unsafe.c":         1,
	"exit_main_unsafe.c":      2,
	"exit_main_safe.c":        2,
	"spin_unsafe.c":           3,
	"self_unsafe.c":           2,
	"self_safe.c":             2,
	"rwlock_unsafe.c":         2,
	"errorcheck_unsafe.c":     2,
	"timedlock_unsafe.c":      2,
	"timedwait_unsafe.c":      1,
	"atomic_section_unsafe.c": 2,
	"atomic_section_safe.c":   2,
	// threads whose result is drawn nondeterministically (pthread-wmm)
	"thread_result_nondet_unsafe.c": 2,
}

// TestProgs checks the quick testdata/progs programs (with -all: every
// one that lazyseq supports, at 3 rounds) with the built-in backend behind
// the sequentialisation: an unsafe
// program must be found FALSE with a run that replays on the original
// program and violates the same property, a safe one TRUE (bounded,
// naming its rounds). Programs that the translation rejects are listed.
func TestProgs(t *testing.T) {
	progs, err := testenv.Progs(filepath.Join("..", ""))
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range progs {
		rounds, ok := quick[pr.Name]
		if !ok && !*allProgs {
			continue
		}
		if !ok {
			rounds = 3
		}
		be := Backend{Inner: builtin.New(builtin.Options{}), Rounds: rounds}
		t.Run(pr.Name, func(t *testing.T) {
			p, err := frontend.Lower(pr.Path, pr.Src, frontend.Options{Model: pr.Model})
			if err != nil {
				t.Fatal(err)
			}
			threads := 2
			if m := threadsRe.FindSubmatch(pr.Src); m != nil {
				threads, _ = strconv.Atoi(string(m[1]))
			}
			if _, _, err := Sequentialize(p, Options{Rounds: rounds, Threads: threads, Unwind: pr.Unwind}); err != nil {
				if program.KindOf(err) != program.Unsupported {
					t.Fatalf("Sequentialize: %v", err)
				}
				t.Skipf("unsupported: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := be.Check(ctx, p, backend.Bounds{Unwind: pr.Unwind, Threads: threads})
			if err != nil || res.Verdict == backend.Unknown {
				if ok {
					t.Fatalf("no answer: %v %s", err, res.Reason)
				}
				t.Skipf("no answer: %v %s", err, res.Reason)
			}
			if res.Bounds.Rounds != rounds || res.Proof || res.Complete {
				t.Errorf("bounds %v proof %v complete %v: want rounds %d and a bounded answer", res.Bounds, res.Proof, res.Complete, rounds)
			}
			switch pr.Expect {
			case "unsafe":
				if res.Verdict != backend.Unsafe {
					t.Fatalf("verdict %v (%s), want UNSAFE", res.Verdict, res.Reason)
				}
				out, err := interp.Replay(p, res.Run)
				if err != nil {
					t.Fatalf("the mapped run does not replay: %v", err)
				}
				if out.Status != interp.Violated || out.Prop != res.Run.Violated {
					t.Fatalf("replay: %v %s, want violation of %s", out.Status, out.Prop, res.Run.Violated)
				}
			case "safe":
				if res.Verdict != backend.Safe {
					t.Fatalf("verdict %v (%s), want SAFE", res.Verdict, res.Reason)
				}
			}
		})
	}
}

// TestRoundBound checks that the round bound is one: the lost update of
// lazy_counter_unsafe.c needs three rounds (main can only join after both
// workers have ended, and the worker that reads first writes after the
// other's read, so in a later round than main's turn), so two rounds
// must answer SAFE, bounded by the rounds.
func TestRoundBound(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "progs", "lazy_counter_unsafe.c"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := frontend.Lower("lazy_counter_unsafe.c", src, frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := Backend{Inner: builtin.New(builtin.Options{}), Rounds: 2}.Check(ctx, p, backend.Bounds{Unwind: 3, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != backend.Safe || res.Proof || res.Complete {
		t.Fatalf("%v proof %v complete %v (%s), want a bounded SAFE", res.Verdict, res.Proof, res.Complete, res.Reason)
	}
	if got, want := res.Bounds.String(), "unwind 3, threads 2 and 2 rounds"; got != want {
		t.Errorf("bounds %q, want %q", got, want)
	}
}

// TestBlockedThread: a thread that blocks for good at its first steps,
// which touch only its own locals, must not cut the runs of the others (it
// stays at its first switch point): main waits for the third thread's
// flag, so the violation needs two rounds in which the blocked thread is
// scheduled between them.
func TestBlockedThread(t *testing.T) {
	src := `#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_assume(int);
int flag;
void *blocked(void *arg) { int a = 0; __VERIFIER_assume(a == 1); flag = 2; return 0; }
void *setter(void *arg) { flag = 1; return 0; }
int main(void) {
  pthread_t b, s;
  pthread_create(&b, 0, blocked, 0);
  pthread_create(&s, 0, setter, 0);
  __VERIFIER_assume(flag == 1);
  assert(0);
  return 0;
}
`
	p, err := frontend.Lower("blocked.c", []byte(src), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := Backend{Inner: builtin.New(builtin.Options{}), Rounds: 2}.Check(ctx, p, backend.Bounds{Unwind: 2, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != backend.Unsafe {
		t.Fatalf("%v (%s), want UNSAFE", res.Verdict, res.Reason)
	}
	if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
		t.Fatalf("replay: %v %v", out, err)
	}
}
