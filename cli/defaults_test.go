package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/pflag"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/lazyseq"
)

// The flags' defaults are the library's (cegpv.DefaultCheckOptions), and
// --probe 0, --beyond 0 and --relax 0 reach the library as 0: off there
// too.
func TestVerifyDefaultsAreTheLibrarys(t *testing.T) {
	parse := func(args ...string) cegpv.CheckOptions { return parseVerify(t, args...) }
	got, want := parse(), cegpv.DefaultCheckOptions()
	type knobs struct {
		Mode, Heuristic, Refinement string
		Unwind, MaxThreads          int
		MaxIterations, Relax        int
		MaxKeptShare                float64
		Probe, Beyond               time.Duration
		NoExplicit                  bool
	}
	of := func(o cegpv.CheckOptions) knobs {
		return knobs{o.Mode, o.Heuristic.Name(), o.Refinement, o.Bounds.Unwind, o.Bounds.MaxThreads, o.MaxIterations, o.Relax, o.MaxKeptShare, o.Probe, o.BeyondMax, o.NoExplicit}
	}
	if of(got) != of(want) {
		t.Errorf("flag defaults %+v, the library's %+v", of(got), of(want))
	}
	if o := parse("--probe", "0", "--beyond", "0", "--relax", "0"); o.Probe != 0 || o.BeyondMax != 0 || o.Relax != 0 {
		t.Errorf("--probe 0 --beyond 0 --relax 0: Probe %v, BeyondMax %v, Relax %d, want 0 (off)", o.Probe, o.BeyondMax, o.Relax)
	}
}

// --rounds-beside gives the library ESBMC on the R-round sequentialisation
// when ESBMC is installed, and nothing with 0 or under --rounds.
func TestRoundsBesideFlag(t *testing.T) {
	parse := func(args ...string) cegpv.CheckOptions { return parseVerify(t, args...) }
	for _, args := range [][]string{{"--rounds-beside", "0"}, {"--rounds", "2"}, {"--esbmc", "/nonexistent/esbmc"}} {
		if o := parse(args...); o.RoundsBeside != nil {
			t.Errorf("%v: RoundsBeside %s, want none", args, o.RoundsBeside.Name())
		}
	}
	bin := testenv.Tool(t, "esbmc", "CEGPV_ESBMC")
	o := parse("--esbmc", bin)
	lz, ok := o.RoundsBeside.(lazyseq.Backend)
	if !ok || lz.Rounds != cegpv.DefaultRoundsBeside || lz.Inner.Name() != "esbmc" {
		t.Errorf("default RoundsBeside %#v, want ESBMC at %d rounds", o.RoundsBeside, cegpv.DefaultRoundsBeside)
	}
	if o := parse("--esbmc", bin, "--rounds-beside", "3"); o.RoundsBeside.(lazyseq.Backend).Rounds != 3 {
		t.Errorf("--rounds-beside 3: %#v", o.RoundsBeside)
	}
}

// With --dump, the sequentialisation beside the mode dumps its checks
// (the sequentialised C handed to ESBMC and its log) into rounds-beside/,
// apart from the mode's.
func TestRoundsBesideDump(t *testing.T) {
	bin := testenv.Tool(t, "esbmc", "CEGPV_ESBMC")
	dir := t.TempDir()
	src := filepath.Join(dir, "t.c")
	if err := os.WriteFile(src, []byte(`#include <pthread.h>
#include <assert.h>
int c;
void *w(void *a) { c = c + 1; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0); assert(c <= 1); return 0; }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "dump")
	o := parseVerify(t, "--esbmc", bin, "--dump", dump)
	var vf verifyFlags
	vf.register(pflag.NewFlagSet("verify", pflag.ContinueOnError))
	p, err := vf.load(context.Background(), src, hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	res, err := o.RoundsBeside.Check(context.Background(), p, backend.Bounds{Unwind: 2})
	if err != nil || res.Verdict != backend.Safe {
		t.Fatalf("%v (%s), %v: want TRUE", res.Verdict, res.Reason, err)
	}
	c, err := os.ReadFile(filepath.Join(dump, "rounds-beside", "check-1.c"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(c), "__ls_pc_") {
		t.Errorf("the dumped program is not the sequentialisation:\n%s", c)
	}
	if _, err := os.Stat(filepath.Join(dump, "rounds-beside", "check-1.log")); err != nil {
		t.Error(err)
	}
}

// parseVerify is the library's options of `verify` with args.
func parseVerify(t *testing.T, args ...string) cegpv.CheckOptions {
	t.Helper()
	var vf verifyFlags
	fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
	vf.register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	opts, err := vf.checkOptions(hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	return opts
}
