package cegpv

import (
	"context"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/program"
)

// Check's wrapper of the backend keeps its declared capabilities, so that
// an incremental backend stays incremental (the loop takes the
// incremental path) and an external one external.
func TestWrapperKeepsCapabilities(t *testing.T) {
	c := &checker{opts: CheckOptions{Grace: time.Second}}
	for _, be := range []backend.Backend{builtin.New(builtin.Options{}), onlyCheck{}, onlyCheck{backend.Capabilities{External: true, Unfollowable: true}}} {
		w := c.wrap(be, true)
		if got, want := w.Capabilities(), be.Capabilities(); got != want {
			t.Errorf("%T: capabilities %+v after wrapping, want %+v", be, got, want)
		}
		_, inc := backend.OpenOf(w)
		if inc != be.Capabilities().Incremental {
			t.Errorf("%T: OpenOf %v after wrapping, want %v", be, inc, be.Capabilities().Incremental)
		}
		if w.Name() != be.Name() {
			t.Errorf("name %q after wrapping, want %q", w.Name(), be.Name())
		}
	}
}

type onlyCheck struct{ caps backend.Capabilities }

func (o onlyCheck) Capabilities() backend.Capabilities { return o.caps }

func (onlyCheck) Name() string { return "only-check" }
func (onlyCheck) Check(context.Context, *program.Program, backend.Bounds) (backend.Result, error) {
	return backend.Result{}, nil
}
