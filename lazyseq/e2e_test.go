package lazyseq

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

var threadsRe = regexp.MustCompile(`(?m)^// bounds:.*threads=(\d+)`)

// TestProgs checks every testdata/progs program that lazyseq supports with
// the built-in backend behind the sequentialisation at 3 rounds: an unsafe
// program must be found FALSE with a run that replays on the original
// program and violates the same property, a safe one TRUE (bounded,
// naming its rounds). Programs that the translation rejects are listed.
func TestProgs(t *testing.T) {
	progs, err := testenv.Progs(filepath.Join("..", ""))
	if err != nil {
		t.Fatal(err)
	}
	be := Backend{Inner: builtin.New(builtin.Options{}), Rounds: 3}
	for _, pr := range progs {
		t.Run(pr.Name, func(t *testing.T) {
			p, err := frontend.Lower(pr.Path, pr.Src, frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			threads := 2
			if m := threadsRe.FindSubmatch(pr.Src); m != nil {
				threads, _ = strconv.Atoi(string(m[1]))
			}
			if _, _, err := Sequentialize(p, Options{Rounds: 3, Threads: threads}); err != nil {
				if program.KindOf(err) != program.Unsupported {
					t.Fatalf("Sequentialize: %v", err)
				}
				t.Skipf("unsupported: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res, err := be.Check(ctx, p, backend.Bounds{Unwind: pr.Unwind, Threads: threads})
			if err != nil || res.Verdict == backend.Unknown {
				t.Skipf("no answer: %v %s", err, res.Reason)
			}
			if res.Bounds.Rounds != 3 || res.Proof || res.Complete {
				t.Errorf("bounds %v proof %v complete %v: want rounds 3 and a bounded answer", res.Bounds, res.Proof, res.Complete)
			}
			switch pr.Expect {
			case "unsafe":
				if res.Verdict != backend.Unsafe {
					t.Fatalf("verdict %v (%s), want UNSAFE", res.Verdict, res.Reason)
				}
				out, err := interp.Replay(p, res.Run)
				if err != nil {
					t.Fatalf("the mapped run does not replay: %v", err)
				}
				if out.Status != interp.Violated || out.Prop != res.Run.Violated {
					t.Fatalf("replay: %v %s, want violation of %s", out.Status, out.Prop, res.Run.Violated)
				}
			case "safe":
				if res.Verdict != backend.Safe {
					t.Fatalf("verdict %v (%s), want SAFE", res.Verdict, res.Reason)
				}
			}
		})
	}
}
