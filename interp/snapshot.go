package interp

import (
	"fmt"
	"strings"

	"cegpv.dev/cegpv/internal/machine"
	"cegpv.dev/cegpv/program"
)

// Config is a configuration of a program during a replay: the contents of
// every global, every thread's call stack with the contents of its frames,
// and how many heap blocks were allocated. It is the paper's c_i of a run
// c0·l1·c1·…, in the form package observer restores.
//
// Values are in the form of program.Step (pointers name objects: a global
// by its name, "heap#<n>", "fn:<name>") except that pointers to locals are
// qualified with their activation, "<func>::<name>@<thread>.<frame>" (frame
// 0 is the bottom of the thread's stack), since the run form "<func>::<name>"
// does not say which thread's local is meant. A pointer to a local whose
// activation has ended is "<func>::<name>@dead".
type Config struct {
	Globals map[string][]program.Value // by name: one value per cell (Type.Cells order)
	Threads []ThreadConfig             // by thread id
	Heap    int                        // heap blocks allocated so far (freed ones included)
	// MainVars holds, once main has returned, the contents of its
	// parameters and locals, which stay valid (see the package
	// documentation); nil while main runs.
	MainVars map[string][]program.Value
}

// ThreadConfig is one thread of a Config.
type ThreadConfig struct {
	Ended  bool
	Result program.Value // what the thread's start function returned or it passed to pthread_exit (null until then)
	Atomic int           // nesting depth of the atomic sections the thread is in
	Frames []FrameConfig // bottom (the thread's start function) first; empty once ended
}

// FrameConfig is one activation.
type FrameConfig struct {
	Func string
	PC   int                        // index in Func's body of the next instruction
	Vars map[string][]program.Value // parameters and locals by name: one value per cell
}

// Top returns the innermost frame of t, or nil.
func (t *ThreadConfig) Top() *FrameConfig {
	if len(t.Frames) == 0 {
		return nil
	}
	return &t.Frames[len(t.Frames)-1]
}

// Configs replays run on p as Replay does and returns, besides Replay's
// Outcome, the configuration before every step and after the last one:
// configs[i] is the configuration in which step i executes, and
// configs[len(run.Steps)] the one after the run. When the replay fails the
// error is Replay's and configs is nil.
func Configs(p *program.Program, run *program.Run) ([]*Config, *Outcome, error) {
	var cs []*Config
	out, err := replay(p, run, func(m *machine.Machine) { cs = append(cs, snapshot(m)) }, nil)
	if err != nil {
		return nil, nil, err
	}
	return cs, out, nil
}

// snapshot returns the current configuration of m.
func snapshot(m *machine.Machine) *Config {
	names := map[string]string{} // object id → qualified name of live locals
	for _, t := range m.Threads {
		for k, fr := range t.Frames {
			for _, o := range fr.Vars {
				names[o.ID] = fmt.Sprintf("%s@%d.%d", o.Name, t.ID, k)
			}
		}
	}
	val := func(v program.Value) program.Value {
		if v.Obj == "" || strings.HasPrefix(v.Obj, "fn:") {
			return v
		}
		if n, ok := names[v.Obj]; ok {
			return program.Value{Bits: v.Bits, Obj: n, Off: v.Off}
		}
		o := m.Objs[v.Obj]
		if o == nil {
			return v
		}
		if !o.Heap && m.Globals[o.Name] != o && o.Alive && strings.HasPrefix(o.Name, "main::") {
			return program.Value{Bits: v.Bits, Obj: o.Name + "@0.0", Off: v.Off}
		}
		if !o.Heap && m.Globals[o.Name] != o {
			return program.Value{Bits: v.Bits, Obj: o.Name + "@dead", Off: v.Off}
		}
		return program.Value{Bits: v.Bits, Obj: o.Name, Off: v.Off}
	}
	cells := func(o *machine.Object) []program.Value {
		out := make([]program.Value, len(o.Cells))
		for i, v := range o.Cells {
			out[i] = val(v)
		}
		return out
	}
	c := &Config{Globals: map[string][]program.Value{}, Heap: len(m.Heaps)}
	for name, o := range m.Globals {
		c.Globals[name] = cells(o)
	}
	for _, t := range m.Threads {
		tc := ThreadConfig{Ended: t.Ended, Result: val(t.Result), Atomic: t.Atomic}
		if !t.Ended {
			for _, fr := range t.Frames {
				fc := FrameConfig{Func: fr.Fn.Name, PC: fr.PC, Vars: map[string][]program.Value{}}
				for n, o := range fr.Vars {
					fc.Vars[n] = cells(o)
				}
				tc.Frames = append(tc.Frames, fc)
			}
		}
		c.Threads = append(c.Threads, tc)
	}
	if len(m.Threads) > 0 && m.Threads[0].Ended {
		c.MainVars = map[string][]program.Value{}
		for _, o := range m.Objs {
			if !o.Heap && o.Alive && m.Globals[o.Name] != o && strings.HasPrefix(o.Name, "main::") {
				c.MainVars[strings.TrimPrefix(o.Name, "main::")] = cells(o)
			}
		}
	}
	return c
}
