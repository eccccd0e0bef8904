package cegpv

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/internal/lowertest"
	"cegpv.dev/cegpv/loop"
)

// TestUnfollowableNotSearchedTwice: the search behind an unfollowable
// counterexample finds the violation, except on the program the search
// already races on beside the mode, where it leaves the answer to that
// search instead of repeating it.
func TestUnfollowableNotSearchedTwice(t *testing.T) {
	p := lowertest.C(t, "race.c", `#include <pthread.h>
#include <assert.h>
int c;
void *w(void *a) { int t = c; c = t + 1; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0); assert(c == 2); return 0; }`)
	be := onlyCheck{backend.Capabilities{External: true, Unfollowable: true}}
	c := &checker{opts: CheckOptions{Options: loop.Options{Backend: be}}, log: hclog.NewNullLogger()}
	bd := backend.Bounds{Unwind: 2}
	cause := fmt.Errorf("checker: %w", backend.ErrUnfollowable)
	res, err := c.searchUnfollowable(context.Background(), "checker", p, bd, backend.Result{}, cause)
	if err != nil || res.Verdict != backend.Unsafe {
		t.Fatalf("not raced: %v, %v; want the search's violation", res.Verdict, err)
	}
	c.raced.Store(p)
	res, err = c.searchUnfollowable(context.Background(), "checker", p, bd, backend.Result{}, cause)
	if err == nil || res.Verdict != backend.Unknown || !strings.Contains(err.Error(), "racing beside") {
		t.Fatalf("raced: %v, %v; want the checker's error, left to the racing search", res.Verdict, err)
	}
}
