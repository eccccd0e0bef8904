package external

import (
	"context"
	"errors"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/program"
)

// mainOnly is a trace as CBMC 5.4 prints one for a concurrent program: no
// step of any thread but main, then the violation of main's first
// assertion (nil when main has none).
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
// missing) is an Unknown result with an error wrapping ErrUnfollowable
// (backend.ErrUnfollowable, kind BadOutput): the backend does not look
// for the violation itself, cegpv.Check decides (TestExternalUnfollowable
// in the module root).
func TestUnfollowableTraceIsUnknown(t *testing.T) {
	src := `#include <pthread.h>
#include <assert.h>
int c;
void *w(void *a) { int t = c; c = t + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`
	p, err := frontend.Lower("race.c", []byte(src), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j := Job{Tool: "true", Path: "/bin/true", Interpret: func(pr *Printed, _ *Output, res backend.Result) (backend.Result, error) {
		return Violation("fake", p, pr, mainOnly(p, pr), backend.Bounds{Unwind: 2}, res)
	}}
	res, err := j.Check(context.Background(), p, backend.Bounds{Unwind: 2})
	if !errors.Is(err, ErrUnfollowable) || !errors.Is(err, backend.ErrUnfollowable) || program.KindOf(err) != program.BadOutput {
		t.Fatalf("error %v, want one wrapping ErrUnfollowable, of kind BadOutput", err)
	}
	if res.Verdict != backend.Unknown || res.Run != nil {
		t.Fatalf("%v, want Unknown without a run", res.Verdict)
	}
}
