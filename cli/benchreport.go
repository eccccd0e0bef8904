package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"cegpv.dev/cegpv/report"
)

func newBenchReportCmd(c *cli) *cobra.Command {
	cmd := command("bench-report [--out FILE] RESULTS...", "bench",
		"one HTML report of earlier bench runs (results.json or results.csv each)", "")
	out := cmd.Flags().String("out", "report.html", "the HTML file to write")
	cmd.RunE = func(cmd *cobra.Command, pos []string) error {
		c.code = runBenchReport(pos, *out, c.stdout, c.stderr)
		if len(pos) == 0 {
			return usagef("want at least one results.json or results.csv")
		}
		return nil
	}
	return cmd
}

// runBenchReport builds the bench report of earlier runs side by side,
// as BenchExec's table-generator does: the modes of every run, named
// run:mode when two runs have the same mode.
func runBenchReport(pos []string, out string, stdout, stderr io.Writer) int {
	if len(pos) == 0 {
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
	if err := report.WriteBench(&buf, runs, filepath.Dir(out)); err != nil {
		fmt.Fprintf(stderr, "cegpv bench-report: %v\n", err)
		return exitUsage
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "cegpv bench-report: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "report: %s\n", out)
	return 0
}
