package cli

// The command line is built on cobra and pflag (github.com/spf13): GNU
// flags (--unwind 3, --unwind=3, -j 2, -v -v), help on standard output
// with a synopsis per command and the flags in groups, `cegpv help CMD`,
// and "did you mean" for unknown commands (cobra's) and unknown flags
// (flagError). A usage error is one short message and a pointer to the
// help, never the whole help; exit 1.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cegpv.dev/cegpv/svcomp"
)

// cli is one invocation: where its output goes and its exit code.
type cli struct {
	args           []string // as given
	ctx            context.Context
	stdout, stderr io.Writer
	code           int
}

// usageError is a usage error of a command: printed as one line with a
// pointer to the command's help, exit 1.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// groupAnnotation names a flag's group in the help of its command.
const groupAnnotation = "cegpv_group"

// Flag groups, in the order the help lists them.
const (
	groupInput   = "Input"
	groupEngine  = "Engine"
	groupBounds  = "Bounds"
	groupLoop    = "CEGPV loop"
	groupOutput  = "Output"
	groupBench   = "Bench"
	groupLogging = "Logging"
)

var groupOrder = []string{groupInput, groupEngine, groupBounds, groupLoop, groupBench, groupOutput, groupLogging}

// grouped sets the help group of the named flags of fs.
func grouped(fs *pflag.FlagSet, group string, names ...string) {
	for _, n := range names {
		if err := fs.SetAnnotation(n, groupAnnotation, []string{group}); err != nil {
			panic(err) // a flag name misspelt here
		}
	}
}

// newRoot is the cegpv command with its subcommands.
func newRoot(c *cli) *cobra.Command {
	root := &cobra.Command{
		Use:   "cegpv COMMAND [flags] ARGS",
		Short: "verify concurrent C/pthreads programs by counter-example guided program verification",
		Long: `cegpv checks the assertions of concurrent C/pthreads programs: it proves that
none can fail within the bounds it states, or prints a counterexample replayed
on the program; anything it cannot decide is UNKNOWN with the reason.
'cegpv FILE.c' is 'cegpv verify FILE.c'.

Exit codes (as CBMC): 0 TRUE, 10 FALSE, 5 UNKNOWN, 6 input rejected (a C
parse error too, as CBMC's PARSING ERROR), 7 unsupported property, 1 usage.`,
		Version:       svcomp.Version(),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q", args[0])
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", s[0])
			}
			return usagef("%s", msg)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			// no command: the help, and the exit code of a usage error
			cmd.HelpFunc()(cmd, nil)
			c.code = exitUsage
			return nil
		},
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SuggestionsMinimumDistance = 2
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	root.AddGroup(&cobra.Group{ID: "check", Title: "Checking programs:"},
		&cobra.Group{ID: "bench", Title: "Benchmarking:"},
		&cobra.Group{ID: "inspect", Title: "Inspecting the program model:"})
	for _, sub := range []*cobra.Command{
		newVerifyCmd(c), newValidateCmd(c),
		newBenchCmd(c), newBenchReportCmd(c),
		newShowCmd(c), newPrintCmd(c), newDepgraphCmd(c), newSliceCmd(c), newSeqCmd(c),
		{Use: "version", Short: "print the version (VCS revision)", Args: cobra.NoArgs, Run: func(*cobra.Command, []string) {
			fmt.Fprintln(c.stdout, svcomp.Version())
		}},
	} {
		root.AddCommand(sub)
	}
	root.SetHelpCommand(&cobra.Command{
		Use:     "help [COMMAND]",
		Short:   "the help of cegpv, or of a command: its synopsis and flags",
		GroupID: "inspect",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || target == nil || len(rest) > 0 {
				msg := fmt.Sprintf("no command %q", strings.Join(args, " "))
				if s := root.SuggestionsFor(args[0]); len(s) > 0 {
					msg += fmt.Sprintf(" (did you mean %s?)", s[0])
				}
				return usagef("%s", msg)
			}
			return target.Help()
		},
	})
	root.SetHelpFunc(writeHelp)
	root.SetFlagErrorFunc(flagError)
	return root
}

// command is a subcommand of cegpv; its RunE sets the exit code in the
// cli, and returns a usageError for a usage error (run prints it).
func command(use, group, short, long string) *cobra.Command {
	return &cobra.Command{Use: use, GroupID: group, Short: short, Long: long}
}

// writeHelp is the help of a command on standard output: its synopsis,
// its description, its subcommands (cegpv) and its flags by group.
func writeHelp(cmd *cobra.Command, _ []string) {
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "Usage: %s\n", cmd.UseLine())
	if cmd.Long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(cmd.Long))
	} else if cmd.Short != "" {
		fmt.Fprintf(w, "\n%s\n", cmd.Short)
	}
	if cmd.HasAvailableSubCommands() {
		for _, g := range cmd.Groups() {
			fmt.Fprintf(w, "\n%s\n", g.Title)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			for _, sub := range cmd.Commands() {
				if sub.GroupID == g.ID && sub.IsAvailableCommand() || sub.GroupID == g.ID && sub.Name() == "help" {
					fmt.Fprintf(tw, "  %s\t%s\n", sub.Name(), sub.Short)
				}
			}
			tw.Flush()
		}
		fmt.Fprintf(w, "\nRun 'cegpv help COMMAND' (or 'cegpv COMMAND --help') for a command's flags; 'cegpv --version' prints the version.\n")
		return
	}
	groups := map[string]*pflag.FlagSet{}
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		g := groupOutput
		if a := f.Annotations[groupAnnotation]; len(a) > 0 {
			g = a[0]
		}
		if groups[g] == nil {
			groups[g] = pflag.NewFlagSet(g, pflag.ContinueOnError)
			groups[g].SortFlags = false
		}
		groups[g].AddFlag(f)
	})
	for _, g := range groupOrder {
		if fs := groups[g]; fs != nil {
			fmt.Fprintf(w, "\n%s flags:\n%s", g, fs.FlagUsagesWrapped(100))
		}
	}
}

// flagError is a flag parse error as a usage error, with the flag the
// user probably meant when one is close.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	var name string
	if rest, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		name = rest
	} else if m := regexp.MustCompile(`^unknown shorthand flag: '.' in -(\S+)`).FindStringSubmatch(msg); m != nil {
		name = m[1]
	}
	if name != "" {
		if s := suggestFlag(cmd.Flags(), name); s != "" {
			msg += fmt.Sprintf(" (did you mean --%s?)", s)
		}
	}
	if m := invalidArg.FindStringSubmatch(msg); m != nil {
		msg = fmt.Sprintf("%s %s: %s", m[2], m[1], m[3]) // --timeout -5s: want ...
	}
	return usageError{errors.New(msg)}
}

// invalidArg is pflag's error for a flag value its type rejects.
var invalidArg = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-., )?(--[^"]*)" flag: (.*)$`)

// suggestFlag is the flag of fs closest to name: one that name is a
// prefix of, or within edit distance 2.
func suggestFlag(fs *pflag.FlagSet, name string) string {
	name, _, _ = strings.Cut(name, "=")
	best, bestD := "", 3
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := levenshtein(name, f.Name)
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// levenshtein is the edit distance of a and b.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// normalizeArgs makes the arguments of earlier versions and of Go's flag
// package mean what they meant: a single-dash long flag (-unwind 3,
// -out DIR, as the commands recorded in docs/bench/ have them) is the
// double-dash one; `--trace STYLE` keeps its value unless STYLE is an
// input file or a flag (--trace alone is --trace=steps); and a first argument that is a file or a flag, not a
// command, is verify's (`cegpv x.c`).
func normalizeArgs(root *cobra.Command, args []string) []string {
	if len(args) > 0 {
		first := args[0]
		isCmd := false
		for _, sub := range root.Commands() {
			if sub.Name() == first || slices.Contains(sub.Aliases, first) {
				isCmd = true
			}
		}
		isFlag := strings.HasPrefix(first, "-") && !slices.Contains([]string{"-h", "--help", "--version", "-version"}, first)
		if !isCmd && (isFlag || isInput(first)) {
			args = append([]string{"verify"}, args...)
		}
	}
	long := map[string]bool{}
	var collect func(*cobra.Command)
	collect = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if len(f.Name) > 1 {
				long[f.Name] = true
			}
		})
		for _, sub := range c.Commands() {
			collect(sub)
		}
	}
	collect(root)
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") {
			name, _, _ := strings.Cut(a[1:], "=")
			if long[name] {
				a = "-" + a
			}
		}
		if a == "--trace" && i+1 < len(args) && !isInput(args[i+1]) {
			a = "--trace=" + args[i+1]
			i++
		}
		out = append(out, a)
	}
	return out
}

// isInput says whether a command-line word names an input file: one
// that exists, or a C file or task definition by its name.
func isInput(arg string) bool {
	if strings.HasPrefix(arg, "-") {
		return false
	}
	if _, err := os.Stat(arg); err == nil {
		return true
	}
	return strings.HasSuffix(arg, ".c") || strings.HasSuffix(arg, ".i") || svcomp.IsTaskFile(arg)
}

// secondsValue is a time limit flag: a number is seconds, as CBMC's and
// ESBMC's --timeout (30, 1.5), and a Go duration is accepted too (60s,
// 2m); negative values are rejected.
type secondsValue struct{ d *time.Duration }

func (s secondsValue) Set(v string) error {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if f < 0 {
			return fmt.Errorf("want 0 or more seconds")
		}
		*s.d = time.Duration(f * float64(time.Second))
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("want seconds (30) or a duration (30s, 2m)")
	}
	if d < 0 {
		return fmt.Errorf("want 0 or more seconds")
	}
	*s.d = d
	return nil
}

func (s secondsValue) String() string {
	if s.d == nil || *s.d == 0 {
		return "0"
	}
	return s.d.String()
}

func (s secondsValue) Type() string { return "seconds" }

// secondsVar defines a time limit flag (secondsValue) with default def.
func secondsVar(fs *pflag.FlagSet, d *time.Duration, name string, def time.Duration, usage string) {
	*d = def
	fs.Var(secondsValue{d}, name, usage)
}
