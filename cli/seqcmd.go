package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"cegpv.dev/cegpv/lazyseq"
	"cegpv.dev/cegpv/program"
)

func newSeqCmd(c *cli) *cobra.Command {
	var cf commonFlags
	cmd := command("seq --rounds R [--threads N] [--unwind U] FILE.c", "inspect", "the round-bounded lazy sequentialisation of the program, as C", "")
	cf.register(cmd.Flags())
	rounds := cmd.Flags().Int("rounds", 2, "round-robin rounds over the thread instances")
	threads := cmd.Flags().Int("threads", 2, "thread instances per pthread_create in a loop or outside main")
	unwind := cmd.Flags().Int("unwind", 5, "recursion bound: activations of one function at a time in a thread (calls are inlined)")
	grouped(cmd.Flags(), groupBounds, "rounds", "threads", "unwind")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		file, err := oneFile(args, "FILE.c")
		if err != nil {
			return err
		}
		if _, err := cf.dataModel(); err != nil {
			return usageError{err}
		}
		c.code = runSeq(c.ctx, file, &cf, lazyseq.Options{Rounds: *rounds, Threads: *threads, Unwind: *unwind}, c.stdout, c.stderr)
		return nil
	}
	return cmd
}

func runSeq(ctx context.Context, file string, cf *commonFlags, opts lazyseq.Options, stdout, stderr io.Writer) int {
	p, err := load(ctx, file, cf, cf.logger(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitCodeFor(err)
	}
	q, _, err := lazyseq.Sequentialize(p, opts)
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
