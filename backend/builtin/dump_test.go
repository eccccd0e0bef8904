package builtin

import (
	"context"
	"os"
	"testing"

	"cegpv.dev/cegpv/backend"
)

// TestDump writes the formula of $CEGPV_DUMP (a C file) to $CEGPV_DUMP_OUT.
func TestDump(t *testing.T) {
	f := os.Getenv("CEGPV_DUMP")
	if f == "" {
		t.Skip("set CEGPV_DUMP")
	}
	p, err := lowerTimeout(f, "", 20e9)
	if err != nil {
		t.Fatal(err)
	}
	e, _, err := encodeProgram(context.Background(), p, backend.Bounds{Unwind: 5}, os.Getenv("CEGPV_BV") == "", false, redAll)
	if err != nil {
		t.Fatal(err)
	}
	var viols []*term
	for _, a := range e.asserts {
		viols = append(viols, and(a.g, not(a.assert)))
	}
	text := e.out.String() + "(assert " + or(viols...).s + ")\n(check-sat)\n"
	os.WriteFile(os.Getenv("CEGPV_DUMP_OUT"), []byte(text), 0o644)
	t.Logf("%d threads, %d events, %d bytes", len(e.threads), len(e.events), len(text))
}

// TestTranscript writes the solver transcript of checking $CEGPV_TRANS to
// $CEGPV_TRANS_OUT.
func TestTranscript(t *testing.T) {
	f := os.Getenv("CEGPV_TRANS")
	if f == "" {
		t.Skip("set CEGPV_TRANS")
	}
	p, err := lowerTimeout(f, "", 20e9)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5e9)
	defer cancel()
	res, _ := New(Options{KeepFormula: true}).Check(ctx, p, backend.Bounds{Unwind: 5})
	os.WriteFile(os.Getenv("CEGPV_TRANS_OUT"), []byte(res.Log), 0o644)
}
