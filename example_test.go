package cegpv_test

import (
	"context"
	"fmt"
	"os"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/frontend"
)

// A Go program gets the verdict `cegpv verify` prints, with the same
// defaults: cegpv.Check decides it (replay, opaque values, the search
// beyond the bounds), the command line only prints it.
func ExampleCheck() {
	const file = "testdata/progs/lazy_counter_unsafe.c"
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := frontend.Lower(file, src, frontend.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := cegpv.Check(context.Background(), p, cegpv.CheckOptions{
		Options: cegpv.Options{Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 5}},
	})
	fmt.Println(rep.Verdict.SVCOMP(), rep.Property)
	if rep.FoundWithin != nil {
		fmt.Println("found within", rep.FoundWithin)
	}
	last := rep.Run.Steps[len(rep.Run.Steps)-1]
	fmt.Println("the run ends at", last.Label)
	// Output:
	// FALSE main.assertion.1
	// found within unwind 1
	// the run ends at main.6
}
