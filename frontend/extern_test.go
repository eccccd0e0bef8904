package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// TestBigshot: strcpy(v, "Bigshot") must store the eight characters (the
// lost stores made cegpv answer FALSE on the safe bigshot_s and bigshot_s2).
func TestBigshot(t *testing.T) {
	for _, name := range []string{"bigshot_s_true-unreach-call.c", "bigshot_s2_true-unreach-call.c", "bigshot_p_false-unreach-call.c"} {
		t.Run(name, func(t *testing.T) {
			task := testenv.SVCOMP15Task(t, name)
			src, err := os.ReadFile(task.Path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Lower(task.File, src, Options{Model: task.DataModel, IncludeDirs: []string{filepath.Dir(task.Path)}})
			if err != nil {
				t.Fatal(err)
			}
			// The stores of "Bigshot\0", in order, in thread2.
			var got []byte
			for _, in := range p.Func("thread2").Body {
				if c, ok := in.Rhs.(*program.Const); ok && in.Op == program.OpAssign && in.Lhs.Type().Size == 1 {
					got = append(got, byte(c.V))
				}
			}
			if string(got) != "Bigshot\x00" {
				t.Errorf("thread2 stores %q, want %q", got, "Bigshot\x00")
			}
			safe := strings.Contains(name, "_true")
			violations := 0
			for seed := int64(0); seed < 300; seed++ {
				out, err := interp.Simulate(p, interp.SimOptions{Seed: seed, ContextSwitchProb: 0.3})
				if err != nil {
					t.Fatal(err)
				}
				if out.Status == interp.Violated || out.Status == interp.Errored {
					violations++
					if safe {
						t.Fatalf("seed %d: %v %s %v", seed, out.Status, out.Prop, out.Err)
					}
				}
				if len(out.Opaque) > 0 {
					t.Errorf("seed %d: opaque draws %v", seed, out.Opaque)
				}
			}
			t.Logf("%d of 300 simulations violate", violations)
		})
	}
}
