package external

import (
	"context"
	"errors"
	"strings"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// mainOnly is a trace as CBMC 5.4 prints one for a concurrent program: no
// step of any thread but main, then the violation.
func mainOnly(p *program.Program, pr *Printed) *Trace {
	for line, l := range pr.Lines {
		for _, f := range p.Funcs {
			for _, in := range f.Body {
				if in.Label == l && in.Op == program.OpAssert && f.Name == "main" {
					return &Trace{Violation: &State{Thread: 0, File: pr.File, Line: line}, Comment: "assertion"}
				}
			}
		}
	}
	return nil
}

// A trace that does not lead to the violation (the threads' steps are
// missing) is replaced by the explicit-state search: it finds the
// violation of the racy program (a replayed run), and on the safe one it
// finds none, so the answer stays an error (UNKNOWN), never a FALSE or a
// TRUE.
func TestUnfollowableTraceSearch(t *testing.T) {
	for _, c := range []struct {
		name, src string
		unsafe    bool
	}{
		{"race", `#include <pthread.h>
#include <assert.h>
int c;
void *w(void *a) { int t = c; c = t + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`, true},
		{"locked", `#include <pthread.h>
#include <assert.h>
int c; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { pthread_mutex_lock(&m); int t = c; c = t + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := frontend.Lower(c.name+".c", []byte(c.src), frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			j := Job{Tool: "true", Path: "/bin/true", Interpret: func(pr *Printed, _ *Output, res backend.Result) (backend.Result, error) {
				return Violation("fake", p, pr, mainOnly(p, pr), backend.Bounds{Unwind: 2}, res)
			}}
			res, err := j.Check(context.Background(), p, backend.Bounds{Unwind: 2})
			if !c.unsafe {
				if err == nil || !errors.Is(err, ErrUnfollowable) || !strings.Contains(err.Error(), "finds no violation") || res.Verdict != backend.Unknown {
					t.Fatalf("%v %v, want the unfollowable error and no verdict", res.Verdict, err)
				}
				return
			}
			if err != nil || res.Verdict != backend.Unsafe {
				t.Fatalf("%v %v, want Unsafe from the search", res.Verdict, err)
			}
			if out, err := interp.Replay(p, res.Run); err != nil || out.Status != interp.Violated {
				t.Fatalf("the run does not replay: %v", err)
			}
		})
	}
}
