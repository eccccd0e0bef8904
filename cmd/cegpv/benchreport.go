package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"cegpv.dev/cegpv/report"
)

func init() {
	commands = append(commands, command{"bench-report", "bench-report [--out FILE] RESULTS...: one HTML report of earlier bench runs (results.json or results.csv each)", runBenchReport})
}

// runBenchReport builds the bench report of earlier runs side by side,
// as BenchExec's table-generator does: the modes of every run, named
// run:mode when two runs have the same mode.
func runBenchReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench-report", stderr)
	out := fs.String("out", "report.html", "the HTML file to write")
	pos, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil || len(pos) == 0 {
		if err == nil {
			fmt.Fprintln(stderr, "cegpv bench-report: want at least one results.json or results.csv")
		}
		return exitUsage
	}
	var runs []*report.Results
	for _, f := range pos {
		r, err := report.Read(f)
		if err != nil {
			fmt.Fprintf(stderr, "cegpv bench-report: %v\n", err)
			return exitUsage
		}
		runs = append(runs, r)
	}
	var buf bytes.Buffer
	if err := report.WriteBench(&buf, runs, filepath.Dir(*out)); err != nil {
		fmt.Fprintf(stderr, "cegpv bench-report: %v\n", err)
		return exitUsage
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "cegpv bench-report: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "report: %s\n", *out)
	return 0
}
