package cegpv

import (
	"context"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/program"
)

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
