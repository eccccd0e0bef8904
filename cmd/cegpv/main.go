// Command cegpv verifies concurrent C/pthreads programs by
// counter-example guided program verification.
//
// Usage:
//
//	cegpv show FILE.c          the labelled goto-program
//	cegpv print FILE.c         the goto-program printed back to C
//	cegpv verify [flags] FILE.c
//	cegpv bench [flags] MANIFEST
//
// Exit codes follow CBMC: 0 property holds (TRUE), 10 violated (FALSE),
// 5 UNKNOWN, 6 the input was rejected, 7 the property file names a
// property cegpv does not check, 1 usage or internal error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/proc"
	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/svcomp"
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

type command struct {
	name  string
	usage string
	run   func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands []command

func init() {
	// other files register their commands in their own init functions, which
	// may run before this one: append, never assign
	commands = append([]command{
		{"show", "show [flags] FILE.c: print the labelled goto-program", runShow},
		{"print", "print [flags] FILE.c: print the goto-program back to C", runPrint},
		{"verify", "verify [flags] FILE.c: check the program's assertions", runVerify},
	}, commands...)
}

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		// a task's budget is 2 GiB with its solver (issue 3); the
		// encoding and the explicit search give up at 1 GiB and 768 MiB
		// of heap objects, and the collector keeps the rest near them
		debug.SetMemoryLimit(1536 << 20)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	// (an abandoned check may not have removed its checker's directory)
	proc.CleanupTemp()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		fmt.Fprintln(stdout, svcomp.Version())
		return 0
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "cegpv: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cegpv COMMAND [flags] ARGS\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %s\n", c.usage)
	}
	fmt.Fprintln(w, "\nRun 'cegpv COMMAND --help' for the flags of a command.")
}

// commonFlags are the flags every command that reads C has.
type commonFlags struct {
	verbose       int
	logJSON       bool
	model         string
	mallocMayFail bool
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.Var((*countFlag)(&c.verbose), "v", "more log output (-v info, -v -v debug, -v -v -v trace)")
	fs.BoolVar(&c.logJSON, "log-json", false, "log as JSON lines on stderr")
	fs.StringVar(&c.model, "data-model", "", "C data model: ILP32 (--32) or LP64 (--64); default the host's ("+string(program.HostModel())+" here), as CBMC and ESBMC; a task definition (.yml) gives its own")
	fs.Var(modelFlag{&c.model, "ILP32"}, "32", "the ILP32 data model (as --data-model ILP32)")
	fs.Var(modelFlag{&c.model, "LP64"}, "64", "the LP64 data model (as --data-model LP64)")
	fs.BoolVar(&c.mallocMayFail, "malloc-may-fail", false, "malloc and calloc may return a null pointer (as CBMC's and ESBMC's option); by default they never fail")
}

// modelFlag is --32 or --64: a boolean flag that sets the data model.
type modelFlag struct {
	model *string
	value string
}

func (m modelFlag) String() string { return "false" }
func (m modelFlag) Set(s string) error {
	if s == "true" {
		*m.model = m.value
	}
	return nil
}
func (m modelFlag) IsBoolFlag() bool { return true }

// countFlag is a boolean flag that counts its occurrences (-v -v).
type countFlag int

func (n *countFlag) String() string {
	if n == nil {
		return "0"
	}
	return strconv.Itoa(int(*n))
}
func (n *countFlag) Set(string) error { *n++; return nil }
func (n *countFlag) IsBoolFlag() bool { return true }

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

func (c *commonFlags) dataModel() (program.DataModel, error) {
	switch strings.ToUpper(c.model) {
	case "":
		return program.HostModel(), nil
	case "ILP32", "32":
		return program.ILP32, nil
	case "LP64", "64":
		return program.LP64, nil
	}
	return "", fmt.Errorf("unknown data model %q (want ILP32 or LP64)", c.model)
}

// boolFlag lets "-v" be given without a value.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses args, accepting flags after the positional arguments too
// ("cegpv verify x.c --unwind 3").
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
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

func oneFile(fs *flag.FlagSet, args []string, stderr io.Writer) (string, int) {
	pos, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return "", 0
	}
	if err != nil {
		return "", exitUsage
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "cegpv %s: want exactly one input file\n", fs.Name())
		fs.Usage()
		return "", exitUsage
	}
	return pos[0], -1
}

func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return showOrPrint(ctx, "show", args, stdout, stderr, func(w io.Writer, p *program.Program) error {
		return program.Show(w, p)
	})
}

func runPrint(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return showOrPrint(ctx, "print", args, stdout, stderr, func(w io.Writer, p *program.Program) error {
		_, err := program.Print(w, p)
		return err
	})
}

func showOrPrint(ctx context.Context, name string, args []string, stdout, stderr io.Writer, out func(io.Writer, *program.Program) error) int {
	fs := newFlagSet(name, stderr)
	var cf commonFlags
	cf.register(fs)
	file, code := oneFile(fs, args, stderr)
	if code >= 0 {
		return code
	}
	log := cf.logger(stderr)
	p, err := load(ctx, file, &cf, log)
	if err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitCodeFor(err)
	}
	if err := out(stdout, p); err != nil {
		fmt.Fprintf(stderr, "cegpv: %v\n", err)
		return exitUsage
	}
	return 0
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
