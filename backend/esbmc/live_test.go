package esbmc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
)

// TestLiveProgs runs ESBMC on every testdata/progs program (printed by
// cegpv) and checks the verdict against the header; every Unsafe run must
// replay. Programs ESBMC cannot decide within the time limit are logged.
func TestLiveProgs(t *testing.T) {
	if os.Getenv("CEGPV_PROGS") == "" {
		t.Skip("set CEGPV_PROGS=all (or a name part) to run ESBMC on every testdata/progs program")
	}
	bin := testenv.Tool(t, "esbmc", "CEGPV_ESBMC")
	progs, err := testenv.Progs(testenv.ModuleRoot())
	if err != nil {
		t.Fatal(err)
	}
	only := os.Getenv("CEGPV_PROGS")
	be := New(Options{Path: bin})
	for _, pg := range progs {
		if only != "all" && !strings.Contains(pg.Name, only) {
			continue
		}
		t.Run(strings.TrimSuffix(pg.Name, ".c"), func(t *testing.T) {
			p, err := frontend.Lower(filepath.Base(pg.Path), pg.Src, frontend.Options{Model: pg.Model})
			if err != nil {
				t.Skipf("front end: %v", err)
			}
			res, err := be.Check(context.Background(), p, backend.Bounds{Unwind: pg.Unwind, Timeout: 60 * time.Second})
			if err != nil {
				t.Logf("UNKNOWN: %v", err)
				return
			}
			t.Logf("%s %s", res.Verdict, res.Reason)
			switch res.Verdict {
			case backend.Unsafe:
				if pg.Expect == "safe" {
					t.Errorf("Unsafe on a safe program")
				}
				out, err := interp.Replay(p, res.Run)
				if err != nil || out.Status != interp.Violated {
					t.Errorf("run does not replay: %v", err)
				}
			case backend.Safe:
				if pg.Expect == "unsafe" {
					t.Logf("MISSED: Safe (bounded) on an unsafe program")
				}
			}
		})
	}
}
