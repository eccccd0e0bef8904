package cegpv

import (
	"context"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/program"
)

// With Options.Sanity a program that breaks the model's invariants ends
// the run with an internal error naming the pass; without it nothing is
// checked.
func TestSanityNamesThePass(t *testing.T) {
	broken := &program.Program{} // no main function
	v := &verifier{opts: Options{Sanity: true}}
	v.opts.Bounds.Unwind = 3
	err := v.sane("refine", broken)
	if program.KindOf(err) != program.Internal || !strings.Contains(err.Error(), "sanity check after refine (unwind 3, level 0)") || !strings.Contains(err.Error(), "no main function") {
		t.Errorf("sane: %v, want an internal error naming the pass and the violation", err)
	}
	v.opts.Sanity = false
	if err := v.sane("refine", broken); err != nil {
		t.Errorf("sane without Sanity: %v", err)
	}
}

// Check's wrappers of the backend (searching, graceful) keep an
// incremental backend incremental, so that the loop still takes the
// incremental path, and wrapping twice with graceful adds nothing.
func TestWrappersKeepIncremental(t *testing.T) {
	c := &checker{opts: CheckOptions{}}
	for _, be := range []backend.Backend{builtin.New(builtin.Options{}), onlyCheck{}} {
		_, want := be.(backend.Incremental)
		w := graceful(c.searching(be), time.Second)
		if _, got := w.(backend.Incremental); got != want {
			t.Errorf("%T: incremental %v after wrapping, want %v", be, got, want)
		}
		if w2 := graceful(w, time.Second); w2 != w {
			t.Errorf("graceful wrapped a graceful backend again: %T", w2)
		}
	}
}

type onlyCheck struct{}

func (onlyCheck) Name() string { return "only-check" }
func (onlyCheck) Check(context.Context, *program.Program, backend.Bounds) (backend.Result, error) {
	return backend.Result{}, nil
}
