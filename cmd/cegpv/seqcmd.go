package main

import (
	"context"
	"fmt"
	"io"

	"cegpv.dev/cegpv/lazyseq"
	"cegpv.dev/cegpv/program"
)

func init() {
	commands = append(commands,
		command{"seq", "seq --rounds R [--threads N] FILE.c: the round-bounded lazy sequentialisation of the program, as C", runSeq})
}

func runSeq(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("seq", stderr)
	var cf commonFlags
	cf.register(fs)
	rounds := fs.Int("rounds", 2, "round-robin rounds over the thread instances")
	threads := fs.Int("threads", 2, "thread instances per pthread_create in a loop or outside main")
	unwind := fs.Int("unwind", 5, "recursion bound: activations of one function at a time in a thread (calls are inlined)")
	file, code := oneFile(fs, args, stderr)
	if code >= 0 {
		return code
	}
	p, err := load(ctx, file, &cf, cf.logger(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitCodeFor(err)
	}
	q, _, err := lazyseq.Sequentialize(p, lazyseq.Options{Rounds: *rounds, Threads: *threads, Unwind: *unwind})
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitCodeFor(err)
	}
	if _, err := program.Print(stdout, q); err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitUsage
	}
	return 0
}
