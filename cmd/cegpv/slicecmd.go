package main

import (
	"context"
	"fmt"
	"io"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/slice"
)

func init() {
	commands = append(commands,
		command{"depgraph", "depgraph [--dot] [--heuristic H] FILE.c: the variable dependency graph and the variables a heuristic keeps", runDepgraph},
		command{"slice", "slice --keep x,y | --heuristic H FILE.c: the abstract program keeping those variables, as C", runSlice},
	)
}

func runDepgraph(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("depgraph", stderr)
	var cf commonFlags
	cf.register(fs)
	dot := fs.Bool("dot", false, "print Graphviz dot (the chosen variables filled)")
	heur := fs.String("heuristic", "paper", "heuristic choosing V0: paper, stepsK, cone, keep:x,y")
	prop := fs.String("property", "", "property id (default: all)")
	file, code := oneFile(fs, args, stderr)
	if code >= 0 {
		return code
	}
	p, err := load(ctx, file, &cf, cf.logger(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitCodeFor(err)
	}
	h, err := depgraph.Lookup(*heur)
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitUsage
	}
	g := depgraph.Build(p)
	v0 := depgraph.Choose(g, h, *prop)
	if *dot {
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

func runSlice(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("slice", stderr)
	var cf commonFlags
	cf.register(fs)
	keep := fs.String("keep", "", "variables to keep, comma-separated (locals as func::name)")
	heur := fs.String("heuristic", "paper", "heuristic choosing V0 when --keep is not given")
	prop := fs.String("property", "", "property id (default: all)")
	show := fs.Bool("show", false, "print the labelled listing instead of C")
	file, code := oneFile(fs, args, stderr)
	if code >= 0 {
		return code
	}
	p, err := load(ctx, file, &cf, cf.logger(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitCodeFor(err)
	}
	g := depgraph.Build(p)
	name := *heur
	if *keep != "" {
		name = "keep:" + *keep
	}
	h, err := depgraph.Lookup(name)
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitUsage
	}
	for _, v := range h.Choose(g, nil) {
		if _, ok := g.Group[v]; !ok && *keep != "" {
			fmt.Fprintf(stderr, "cegpv: no variable %q in %s\n", v, file)
			return exitUsage
		}
	}
	a, kept, err := slice.Abstract(p, g, depgraph.Choose(g, h, *prop))
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitCodeFor(err)
	}
	fmt.Fprintf(stderr, "kept: %s\n", depgraph.JoinVars(kept))
	if *show {
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
