// Package cli is cegpv's command line as a library: cmd/cegpv is
// cli.Main(os.Args[1:], nil), and a program outside the module that
// registers its own heuristics (and their widening ladders) runs the
// same commands with them (Main, Registry; examples/heuristic).
//
// Usage (cegpv help lists every command; cegpv help COMMAND its flags):
//
//	cegpv verify [flags] FILE.c|TASK.yml   (cegpv FILE.c is the same)
//	cegpv validate --witness W [flags] FILE.c
//	cegpv bench [flags] MANIFEST|TASK.yml|DIR...
//	cegpv show FILE.c          the labelled goto-program
//	cegpv print FILE.c         the goto-program printed back to C
//
// Exit codes follow CBMC: 0 property holds (TRUE), 10 violated (FALSE),
// 5 UNKNOWN, 6 the input was rejected (a C parse error too: CBMC's PARSING
// ERROR exits 6), 7 the property file names a property cegpv does not
// check, 1 usage or internal error.
//
// Nothing but cmd/cegpv and the examples imports this package: it is the
// one besides them that may import the backends' constructors and the
// writers (deps_test.go).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/proc"
	"cegpv.dev/cegpv/program"
)

// Exit codes.
const (
	exitSafe        = 0
	exitUsage       = 1
	exitUnknown     = 5
	exitUnsupported = 6
	exitUnsafe      = 10
	// exitUnsupportedProperty: the property file names a property cegpv
	// does not check (only unreach-call).
	exitUnsupportedProperty = 7
)

// Main runs the command line args (without the program's name) with the
// heuristics of reg (nil: none but the built-in ones) and returns the
// exit code; it ends on SIGINT and SIGTERM. bench runs its checks as
// child processes of the same binary (os.Executable, `self verify ...`),
// so a program that calls Main must register the same heuristics on
// every start (in main, before Main), as examples/heuristic does.
func Main(args []string, reg *Registry) int {
	if err := reg.install(); err != nil {
		fmt.Fprintf(os.Stderr, "cegpv: registry: %v\n", err)
		return exitUsage
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// a task's budget is 2 GiB with its solver; the
		// encoding and the explicit search give up at 1 GiB and 768 MiB
		// of heap objects, and the collector keeps the rest near them
		debug.SetMemoryLimit(1536 << 20)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, args, os.Stdout, os.Stderr)
	stop()
	// (an abandoned check may not have removed its checker's directory)
	proc.CleanupTemp()
	return code
}

// run runs the command line args and returns the exit code. A usage
// error is one line on stderr naming the command, and where its help is.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &cli{args: args, ctx: ctx, stdout: stdout, stderr: stderr}
	root := newRoot(c)
	root.SetArgs(normalizeArgs(root, args))
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return c.code
	}
	name := "cegpv"
	if cmd != nil && cmd != root {
		name = cmd.CommandPath()
	}
	fmt.Fprintf(stderr, "%s: %s\n", name, strings.TrimRight(err.Error(), "\n"))
	if cmd != nil && cmd != root {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", name)
	} else {
		fmt.Fprintln(stderr, "Run 'cegpv --help' for usage.")
	}
	return exitUsage
}

// commonFlags are the flags every command that reads C has.
type commonFlags struct {
	verbose       int
	logJSON       bool
	model         string
	m32, m64      bool
	mallocMayFail bool
	fs            *pflag.FlagSet
}

func (c *commonFlags) register(fs *pflag.FlagSet) {
	c.fs = fs
	fs.CountVarP(&c.verbose, "verbose", "v", "more log output on stderr (-v info, -v -v debug, -v -v -v trace)")
	fs.BoolVar(&c.logJSON, "log-json", false, "log as JSON lines on stderr")
	fs.StringVar(&c.model, "data-model", "", "C data model: ILP32 (--32) or LP64 (--64); default the host's ("+string(program.HostModel())+" here), as CBMC and ESBMC; a task definition (.yml) gives its own")
	fs.BoolVar(&c.m32, "32", false, "the ILP32 data model (as --data-model ILP32)")
	fs.BoolVar(&c.m64, "64", false, "the LP64 data model (as --data-model LP64)")
	fs.BoolVar(&c.mallocMayFail, "malloc-may-fail", false, "malloc, calloc and realloc may return a null pointer (as CBMC's and ESBMC's option); by default they never fail")
	grouped(fs, groupInput, "data-model", "32", "64", "malloc-may-fail")
	grouped(fs, groupLogging, "verbose", "log-json")
}

// modelSet says whether a flag names the data model.
func (c *commonFlags) modelSet() bool {
	return c.model != "" || c.m32 || c.m64
}

func (c *commonFlags) logger(stderr io.Writer) hclog.Logger {
	level := hclog.Warn
	switch {
	case c.verbose >= 3:
		level = hclog.Trace
	case c.verbose == 2:
		level = hclog.Debug
	case c.verbose == 1:
		level = hclog.Info
	}
	return hclog.New(&hclog.LoggerOptions{Name: "cegpv", Level: level, Output: stderr, JSONFormat: c.logJSON})
}

// dataModel is the data model the flags name (the host's when none
// does); two flags naming different models are a usage error.
func (c *commonFlags) dataModel() (program.DataModel, error) {
	var named []program.DataModel
	var flags []string
	switch strings.ToUpper(c.model) {
	case "":
	case "ILP32", "32":
		named, flags = append(named, program.ILP32), append(flags, "--data-model "+c.model)
	case "LP64", "64":
		named, flags = append(named, program.LP64), append(flags, "--data-model "+c.model)
	default:
		return "", fmt.Errorf("unknown data model %q (want ILP32 or LP64)", c.model)
	}
	if c.m32 {
		named, flags = append(named, program.ILP32), append(flags, "--32")
	}
	if c.m64 {
		named, flags = append(named, program.LP64), append(flags, "--64")
	}
	if len(named) == 0 {
		return program.HostModel(), nil
	}
	for _, m := range named[1:] {
		if m != named[0] {
			return "", fmt.Errorf("%s: two data models", strings.Join(flags, " with "))
		}
	}
	return named[0], nil
}

// oneFile is the one input file of a command's positional arguments.
func oneFile(args []string, what string) (string, error) {
	if len(args) != 1 {
		return "", usagef("want exactly one input file (%s), got %d arguments", what, len(args))
	}
	return args[0], nil
}

// load reads and lowers a C file; the front end stops when ctx ends.
func load(ctx context.Context, file string, cf *commonFlags, log hclog.Logger) (*program.Program, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		// a missing file or a directory is rejected input (exit 6)
		return nil, &program.Error{Kind: program.Unsupported, Err: err}
	}
	model, err := cf.dataModel()
	if err != nil {
		return nil, err
	}
	return frontend.LowerContext(ctx, file, src, frontend.Options{Model: model, Logger: log.Named("frontend"), MallocMayFail: cf.mallocMayFail})
}

func newShowCmd(c *cli) *cobra.Command {
	return showOrPrint(c, "show", "the labelled goto-program (the program model, one labelled instruction per line)", func(w io.Writer, p *program.Program) error {
		return program.Show(w, p)
	})
}

func newPrintCmd(c *cli) *cobra.Command {
	return showOrPrint(c, "print", "the goto-program printed back to C", func(w io.Writer, p *program.Program) error {
		_, err := program.Print(w, p)
		return err
	})
}

func showOrPrint(c *cli, name, short string, out func(io.Writer, *program.Program) error) *cobra.Command {
	var cf commonFlags
	cmd := command(name+" [flags] FILE.c", "inspect", short, "")
	cf.register(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		file, err := oneFile(args, "FILE.c")
		if err != nil {
			return err
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
		if err := out(c.stdout, p); err != nil {
			fmt.Fprintf(c.stderr, "cegpv: %v\n", err)
			c.code = exitUsage
		}
		return nil
	}
	return cmd
}

func exitCodeFor(err error) int {
	if program.KindOf(err) == program.Unsupported {
		return exitUnsupported
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return exitUsage
	}
	return exitUnknown
}
