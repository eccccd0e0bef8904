package cli

import (
	"fmt"

	"cegpv.dev/cegpv/depgraph"
)

// Registry holds what a program adds to the command line before it runs
// it (Main): heuristics, each with the widening ladder of its choice.
// Every command that takes a heuristic by name (verify --heuristic,
// bench --heuristics and --modes MODE/H, depgraph, slice) finds them;
// bench finds them in its child processes too, since it runs the same
// binary (os.Executable) and the program registers them on every start.
//
// The zero Registry is empty and ready to use; a nil *Registry is an
// empty one.
type Registry struct {
	hs  []depgraph.Heuristic
	err error
}

// Heuristic registers h under h.Name(). With wider, the abstraction
// levels after h's are those heuristics (then cone and the whole
// program, as always: depgraph.Levels); without, h keeps its own ladder
// when it is a depgraph.Ladder and widens to cone directly otherwise.
// A name that is a built-in one or registered twice makes Main fail
// with a usage error.
func (r *Registry) Heuristic(h depgraph.Heuristic, wider ...depgraph.Heuristic) {
	if len(wider) > 0 {
		h = depgraph.WithLadder(h, wider...)
	}
	for _, old := range r.hs {
		if old.Name() == h.Name() && r.err == nil {
			r.err = fmt.Errorf("heuristic %q registered twice", h.Name())
		}
	}
	r.hs = append(r.hs, h)
}

// install registers r's heuristics with depgraph (depgraph.Register).
func (r *Registry) install() error {
	if r == nil {
		return nil
	}
	if r.err != nil {
		return r.err
	}
	for _, h := range r.hs {
		if err := depgraph.Register(h); err != nil {
			return err
		}
	}
	return nil
}
