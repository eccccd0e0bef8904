package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/slice"
)

func newDepgraphCmd(c *cli) *cobra.Command {
	var cf commonFlags
	cmd := command("depgraph [--dot] [--heuristic H] FILE.c", "inspect", "the variable dependency graph and the variables a heuristic keeps", "")
	fs := cmd.Flags()
	cf.register(fs)
	dot := fs.Bool("dot", false, "print Graphviz dot (the chosen variables filled)")
	heur := fs.String("heuristic", "paper", "heuristic choosing V0: paper, stepsK, cone, keep:x,y")
	prop := fs.String("property", "", "property id (default: all)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		file, err := oneFile(args, "FILE.c")
		if err != nil {
			return err
		}
		if _, err := depgraph.Lookup(*heur); err != nil {
			return usagef("--heuristic: %v", err)
		}
		if _, err := cf.dataModel(); err != nil {
			return usageError{err}
		}
		c.code = runDepgraph(c.ctx, file, &cf, *dot, *heur, *prop, c.stdout, c.stderr)
		return nil
	}
	return cmd
}

func runDepgraph(ctx context.Context, file string, cf *commonFlags, dot bool, heur, prop string, stdout, stderr io.Writer) int {
	p, err := load(ctx, file, cf, cf.logger(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitCodeFor(err)
	}
	h, err := depgraph.Lookup(heur)
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitUsage
	}
	g := depgraph.Build(p)
	v0 := depgraph.Choose(g, h, prop)
	if dot {
		if err := g.WriteDot(stdout, v0); err != nil {
			fmt.Fprintf(stderr, "cegpv: %v\n", err)
			return exitUsage
		}
		return 0
	}
	if err := g.WriteText(stdout); err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "\nV0 (%s): %s\n", h.Name(), depgraph.JoinVars(v0))
	return 0
}

func newSliceCmd(c *cli) *cobra.Command {
	var cf commonFlags
	cmd := command("slice --keep x,y | --heuristic H FILE.c", "inspect", "the abstract program keeping those variables, as C", "")
	fs := cmd.Flags()
	cf.register(fs)
	keep := fs.String("keep", "", "variables to keep, comma-separated (locals as func::name)")
	heur := fs.String("heuristic", "paper", "heuristic choosing V0 when --keep is not given")
	prop := fs.String("property", "", "property id (default: all)")
	show := fs.Bool("show", false, "print the labelled listing instead of C")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		file, err := oneFile(args, "FILE.c")
		if err != nil {
			return err
		}
		name, flag := *heur, "--heuristic"
		if *keep != "" {
			name, flag = "keep:"+*keep, "--keep"
		}
		if _, err := depgraph.Lookup(name); err != nil {
			return usagef("%s: %v", flag, err)
		}
		if _, err := cf.dataModel(); err != nil {
			return usageError{err}
		}
		p, err := load(c.ctx, file, &cf, cf.logger(c.stderr))
		if err != nil {
			fmt.Fprintf(c.stderr, "cegpv: %v\n", err)
			c.code = exitCodeFor(err)
			return nil
		}
		if err := checkKeep(p, name, flag); err != nil {
			return usageError{err}
		}
		c.code = runSlice(p, name, *prop, *show, c.stdout, c.stderr)
		return nil
	}
	return cmd
}

// runSlice prints the abstraction of p that the heuristic keeps.
func runSlice(p *program.Program, heur, prop string, show bool, stdout, stderr io.Writer) int {
	g := depgraph.Build(p)
	h, _ := depgraph.Lookup(heur) // checked by the command
	a, kept, err := slice.Abstract(p, g, depgraph.Choose(g, h, prop))
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitCodeFor(err)
	}
	fmt.Fprintf(stderr, "kept: %s\n", depgraph.JoinVars(kept))
	if show {
		err = program.Show(stdout, a)
	} else {
		_, err = program.Print(stdout, a)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitUsage
	}
	return 0
}
