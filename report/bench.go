package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"cegpv.dev/cegpv"
)

// Row is one (task, mode) run of `cegpv bench`.
type Row struct {
	File     string `json:"file"`
	Category string `json:"category"`
	Expected string `json:"expected"`
	Mode     string `json:"mode"`
	Verdict  string `json:"verdict"`
	// Property is the property a FALSE violates: an assertion answers the
	// task's unreach-call property, an unwinding or overflow property
	// (--unwinding-assertions, --signed-overflow-check) does not.
	Property string `json:"property,omitempty"`
	Proof    bool   `json:"proof"`
	// Status is the run's category in BenchExec's words (Classify):
	// correct, incorrect true, incorrect false, unknown, error.
	Status string `json:"status"`
	// Result is the run's status in BenchExec's words: true,
	// false(unreach-call), unknown, TIMEOUT, OUT OF MEMORY, ERROR (...).
	Result string `json:"result"`
	// Missed: a bounded TRUE on an unsafe task (design.md §5 rule 2: the
	// bug lies beyond the bounds), an "incorrect true" for BenchExec,
	// which has no such class; the summaries count it apart as well.
	Missed  bool    `json:"missed,omitempty"`
	WallSec float64 `json:"wall_seconds"`
	// CPUSec is the user and system time of the task's process and its
	// children (the solver): the time every summary, table and plot shows.
	CPUSec float64 `json:"cpu_seconds"`
	RSSMB  float64 `json:"peak_rss_mb"` // max of cegpv's and its solver's peak resident set
	Reason string  `json:"reason,omitempty"`
	// Output is the file holding the task's output, relative to the
	// directory of the results.
	Output string `json:"output,omitempty"`
	// Page is the counterexample page of a FALSE (verify --html), relative
	// to the directory of the results.
	Page string `json:"page,omitempty"`
	// DecidedBy names the engine of a TRUE or FALSE (cegpv.ByLoop, ...),
	// empty for UNKNOWN and for earlier runs.
	DecidedBy string `json:"decided_by,omitempty"`
	// LoopMetrics are the CEGPV loop's figures of a cegpv mode's run
	// (FillLoop), zero for plain mode.
	LoopMetrics
	// plotSec is the time the plots show: CPUSec, or WallSec for runs
	// that have no CPU times.
	plotSec float64
}

// LoopMetrics are the figures of one run of the CEGPV loop that compare
// heuristics, from its statistics (LoopStats: every level and
// iteration, the deepening's shallow runs included).
type LoopMetrics struct {
	Levels     int `json:"levels,omitempty"`     // abstraction levels of the run at the bounds
	Iterations int `json:"iterations,omitempty"` // every iteration
	Spurious   int `json:"spurious,omitempty"`   // iterations whose counterexample was spurious
	// KeptVars of ProgramVars: the kept set of the last level entered
	// (the program's variables, temporaries included, as depgraph
	// counts them).
	KeptVars    int `json:"kept_vars,omitempty"`
	ProgramVars int `json:"program_vars,omitempty"`
	// AbstractSec and ReconstructSec: the time of the checks of the
	// abstractions and of the reconstructions of their counterexamples
	// on the program (loop.Iteration's), summed.
	AbstractSec    float64 `json:"abstract_seconds,omitempty"`
	ReconstructSec float64 `json:"reconstruct_seconds,omitempty"`
	// Patterns counts the spurious counterexamples excluded as a
	// generalised pattern, PatternLabels the labels of those patterns.
	Patterns      int `json:"patterns,omitempty"`
	PatternLabels int `json:"pattern_labels,omitempty"`
}

// KeptShare is the share of the program's variables the last level kept
// (0 without a level).
func (m LoopMetrics) KeptShare() float64 {
	if m.ProgramVars == 0 {
		return 0
	}
	return float64(m.KeptVars) / float64(m.ProgramVars)
}

// FillLoop sets r's LoopMetrics from the loop's statistics as `verify
// --json` reports them (its "cegpv" object); empty or null leaves them
// zero.
func (r *Row) FillLoop(stats json.RawMessage) error {
	r.LoopMetrics = LoopMetrics{}
	if len(stats) == 0 || string(stats) == "null" {
		return nil
	}
	var c LoopStats
	if err := json.Unmarshal(stats, &c); err != nil {
		return err
	}
	m := LoopMetrics{Levels: c.Levels, Iterations: len(c.Iterations), Spurious: c.Spurious()}
	if n := len(c.KeptSets); n > 0 {
		m.KeptVars, m.ProgramVars = len(c.KeptSets[n-1].Kept), c.KeptSets[n-1].Of
	}
	for _, it := range c.Iterations {
		m.AbstractSec += it.AbstractTime.Seconds()
		m.ReconstructSec += it.ReconstructTime.Seconds()
		if g := it.Generalisation; g != nil {
			m.Patterns++
			m.PatternLabels += g.Pattern
		}
	}
	r.LoopMetrics = m
	return nil
}

// Sec is the time a summary counts for the row: its CPU time, or its
// wall time for an earlier run that recorded none.
func (r Row) Sec() float64 {
	if r.CPUSec > 0 {
		return r.CPUSec
	}
	return r.WallSec
}

// Classify fills in the row's Status, Result and Missed from its verdict,
// proof flag and reason, in BenchExec's words (BenchExecStatus): a FALSE on
// a safe task is "incorrect false", a TRUE on an unsafe task "incorrect
// true" (marked Missed too when the TRUE is bounded), an UNKNOWN whose
// reason is a timeout, the memory limit or rejected input is "error"
// (TIMEOUT, OUT OF MEMORY, ERROR (...)). cegpv confirms every FALSE by
// replaying it, so BenchExec's "correct-unconfirmed" (a result a witness
// validator did not confirm) never applies.
func Classify(r *Row) {
	r.Result, r.Status = BenchExecStatus(*r)
	r.Missed = false
	if r.Status == "wrong" {
		r.Status = "incorrect false"
		if r.Verdict == "TRUE" {
			r.Status = "incorrect true"
			r.Missed = !r.Proof
		}
	}
}

// ScoreScheme states the SV-COMP scoring used by Score.
const ScoreScheme = "SV-COMP scoring: +2 correct true, +1 correct false, -32 incorrect true, -16 incorrect false, 0 unknown and error. A bounded TRUE counts as TRUE (so a bounded TRUE on an unsafe task is an incorrect true, -32), and is also counted apart as missed."

// Score is the SV-COMP score of a row (ScoreScheme), from its
// classification (Classify).
func Score(r Row) int {
	r.Result, r.Status = BenchExecStatus(r)
	switch {
	case r.Status == "correct" && r.Verdict == "TRUE":
		return 2
	case r.Status == "correct":
		return 1
	case r.Status == "wrong" && r.Verdict == "TRUE":
		return -32
	case r.Status == "wrong":
		return -16
	}
	return 0
}

// Counts are the results of a set of rows, in BenchExec's categories.
type Counts struct {
	Tasks          int `json:"tasks"`
	Correct        int `json:"correct"`
	IncorrectTrue  int `json:"incorrect_true"`
	IncorrectFalse int `json:"incorrect_false"`
	Missed         int `json:"missed"` // of the incorrect true: bounded TRUEs (Row.Missed)
	Unknown        int `json:"unknown"`
	Error          int `json:"error"` // TIMEOUT, OUT OF MEMORY, ERROR (...)
	Score          int `json:"score"`
	// CPUSec is the time summaries show (Row.Sec); TotalSec the wall time.
	CPUSec   float64 `json:"cpu_seconds"`
	TotalSec float64 `json:"total_seconds"`
	MaxRSSMB float64 `json:"max_peak_rss_mb"`
}

// Wrong counts the incorrect results, true and false.
func (c *Counts) Wrong() int { return c.IncorrectTrue + c.IncorrectFalse }

func (c *Counts) add(r Row) {
	c.Tasks++
	c.TotalSec += r.WallSec
	c.CPUSec += r.Sec()
	c.Score += Score(r)
	c.MaxRSSMB = max(c.MaxRSSMB, r.RSSMB)
	if r.Missed {
		c.Missed++
	}
	switch r.Status {
	case "correct":
		c.Correct++
	case "incorrect true":
		c.IncorrectTrue++
	case "incorrect false":
		c.IncorrectFalse++
	case "error":
		c.Error++
	default:
		c.Unknown++
	}
}

// Summary sums the rows of one mode.
type Summary struct {
	Mode string `json:"mode"`
	Counts
	// BaseSolved and BaseSec compare against the first mode (the baseline):
	// the tasks the baseline answered correctly, and this mode's CPU time
	// on exactly those tasks (Row.Sec).
	BaseSolved int                `json:"baseline_solved_tasks"`
	BaseSec    float64            `json:"seconds_on_baseline_solved"`
	ByCategory map[string]*Counts `json:"by_category"`
	// Loop sums the loop's figures of the mode's runs (nil when none ran
	// the loop: plain mode).
	Loop *LoopSums `json:"loop,omitempty"`
}

// LoopSums sums the LoopMetrics of a mode's runs.
type LoopSums struct {
	Runs int `json:"runs"` // runs that entered the loop
	// ByLoop counts the TRUEs and FALSEs the loop decided, ByOther those
	// another engine decided (the probe, the explicit search, ...).
	ByLoop  int `json:"decided_by_loop"`
	ByOther int `json:"decided_by_other"`
	LoopMetrics
	// MeanKeptShare is the mean over Runs of the last level's kept share.
	MeanKeptShare float64 `json:"mean_kept_share"`
}

func (l *LoopSums) add(r Row) {
	switch r.DecidedBy {
	case "":
	case cegpv.ByLoop:
		l.ByLoop++
	default:
		l.ByOther++
	}
	if r.Levels == 0 && r.ProgramVars == 0 {
		return
	}
	l.MeanKeptShare = (l.MeanKeptShare*float64(l.Runs) + r.KeptShare()) / float64(l.Runs+1)
	l.Runs++
	l.Levels += r.Levels
	l.Iterations += r.Iterations
	l.Spurious += r.Spurious
	l.KeptVars += r.KeptVars
	l.ProgramVars += r.ProgramVars
	l.AbstractSec += r.AbstractSec
	l.ReconstructSec += r.ReconstructSec
	l.Patterns += r.Patterns
	l.PatternLabels += r.PatternLabels
}

// Summarize sums rows per mode, in the order of modes (the first is the
// baseline).
func Summarize(rows []Row, modes []string) []*Summary {
	var out []*Summary
	baseSolved := map[string]bool{}
	for _, r := range rows {
		if r.Mode == modes[0] && r.Status == "correct" {
			baseSolved[r.File] = true
		}
	}
	for _, m := range modes {
		s := &Summary{Mode: m, ByCategory: map[string]*Counts{}}
		var loop LoopSums
		for _, r := range rows {
			if r.Mode != m {
				continue
			}
			loop.add(r)
			c := s.ByCategory[r.Category]
			if c == nil {
				c = &Counts{}
				s.ByCategory[r.Category] = c
			}
			s.add(r)
			c.add(r)
			if baseSolved[r.File] {
				s.BaseSolved++
				s.BaseSec += r.Sec()
			}
		}
		if loop.Runs > 0 || loop.ByLoop > 0 {
			s.Loop = &loop
		}
		out = append(out, s)
	}
	return out
}

// Results are the results of one `cegpv bench` run (results.json).
type Results struct {
	Command  string     `json:"command"`
	Meta     *Meta      `json:"meta,omitempty"` // the tool, machine, date and limits (earlier runs have none)
	Manifest string     `json:"manifest"`
	Summary  []*Summary `json:"summary"`
	Tasks    []Row      `json:"tasks"`
	// Loop holds, per task (file) and cegpv mode, the loop's statistics
	// as `verify --json` reports them (its "cegpv" object: levels,
	// backend checks, every iteration, the kept set of every level).
	Loop map[string]map[string]json.RawMessage `json:"loop,omitempty"`
	// Dir is the directory the results were read from (Row.Output is
	// relative to it); not stored.
	Dir string `json:"-"`
}

// Modes returns the modes of r's rows in the order of their first row.
func (r *Results) Modes() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range r.Tasks {
		if !seen[t.Mode] {
			seen[t.Mode] = true
			out = append(out, t.Mode)
		}
	}
	return out
}

// CSVHeader is the header line of results.csv.
var CSVHeader = []string{"file", "category", "expected", "mode", "verdict", "proof", "status", "result", "missed", "cpu_seconds", "wall_seconds", "peak_rss_mb", "reason", "output", "page", "property",
	"decided_by", "levels", "iterations", "spurious", "kept_vars", "program_vars", "kept_share", "abstract_seconds", "reconstruct_seconds", "patterns", "pattern_labels"}

// CSV returns r as a line of results.csv.
func (r Row) CSV() []string {
	return []string{r.File, r.Category, r.Expected, r.Mode, r.Verdict, strconv.FormatBool(r.Proof), r.Status, r.Result, strconv.FormatBool(r.Missed),
		strconv.FormatFloat(r.CPUSec, 'f', 3, 64), strconv.FormatFloat(r.WallSec, 'f', 3, 64),
		strconv.FormatFloat(r.RSSMB, 'f', 1, 64), r.Reason, r.Output, r.Page, r.Property,
		r.DecidedBy, strconv.Itoa(r.Levels), strconv.Itoa(r.Iterations), strconv.Itoa(r.Spurious), strconv.Itoa(r.KeptVars), strconv.Itoa(r.ProgramVars),
		strconv.FormatFloat(r.KeptShare(), 'f', 3, 64), strconv.FormatFloat(r.AbstractSec, 'f', 3, 64), strconv.FormatFloat(r.ReconstructSec, 'f', 3, 64),
		strconv.Itoa(r.Patterns), strconv.Itoa(r.PatternLabels)}
}

// Read reads the results of a bench run: results.json, or a results.csv
// (earlier runs wrote fewer columns: missing ones are zero). The status
// is classified anew from the verdict and reason (the policy is
// Classify's).
func Read(path string) (*Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	res := &Results{Dir: filepath.Dir(path)}
	if strings.HasSuffix(path, ".json") {
		if err := json.Unmarshal(b, res); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		for i := range res.Tasks {
			// earlier runs kept the loop's statistics only in Loop
			r := &res.Tasks[i]
			if l := res.Loop[r.File][r.Mode]; l != nil && r.Levels == 0 {
				r.FillLoop(l)
			}
		}
	} else {
		recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if len(recs) == 0 {
			return nil, fmt.Errorf("%s: empty", path)
		}
		col := map[string]int{}
		for i, h := range recs[0] {
			col[h] = i
		}
		for _, need := range []string{"file", "expected", "mode", "verdict"} {
			if _, ok := col[need]; !ok {
				return nil, fmt.Errorf("%s: no column %q", path, need)
			}
		}
		get := func(rec []string, name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return rec[i]
			}
			return ""
		}
		num := func(rec []string, name string) float64 {
			f, _ := strconv.ParseFloat(get(rec, name), 64)
			return f
		}
		for _, rec := range recs[1:] {
			res.Tasks = append(res.Tasks, Row{File: get(rec, "file"), Category: get(rec, "category"), Expected: get(rec, "expected"),
				Mode: get(rec, "mode"), Verdict: get(rec, "verdict"), Proof: get(rec, "proof") == "true",
				WallSec: num(rec, "wall_seconds"), CPUSec: num(rec, "cpu_seconds"), RSSMB: num(rec, "peak_rss_mb"),
				Reason: get(rec, "reason"), Output: get(rec, "output"), Page: get(rec, "page"), Property: get(rec, "property"),
				DecidedBy: get(rec, "decided_by"), LoopMetrics: LoopMetrics{Levels: int(num(rec, "levels")), Iterations: int(num(rec, "iterations")),
					Spurious: int(num(rec, "spurious")), KeptVars: int(num(rec, "kept_vars")), ProgramVars: int(num(rec, "program_vars")),
					AbstractSec: num(rec, "abstract_seconds"), ReconstructSec: num(rec, "reconstruct_seconds"),
					Patterns: int(num(rec, "patterns")), PatternLabels: int(num(rec, "pattern_labels"))}})
		}
	}
	for i := range res.Tasks {
		Classify(&res.Tasks[i])
	}
	return res, nil
}

// WriteSummaryText prints the per-category table of sums (the text output
// of `cegpv bench`) in BenchExec's categories, aligned by text/tabwriter;
// cpu(s) is the time (user+system of the run and its children), wall(s)
// the elapsed time beside it.
func WriteSummaryText(w io.Writer, sums []*Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tcategory\ttasks\tcorrect\tincorrect true\t(missed)\tincorrect false\tunknown\terror\tscore\tcpu(s)\twall(s)\tmaxRSS(MB)\t")
	line := func(mode, cat string, x *Counts, rss string) {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%s\t\n", mode, cat, x.Tasks, x.Correct, x.IncorrectTrue, x.Missed, x.IncorrectFalse, x.Unknown, x.Error, x.Score, x.CPUSec, x.TotalSec, rss)
	}
	for _, s := range sums {
		for _, c := range sortedKeys(s.ByCategory) {
			line(s.Mode, c, s.ByCategory[c], "")
		}
		line(s.Mode, "ALL", &s.Counts, fmt.Sprintf("%.0f", s.MaxRSSMB))
	}
	tw.Flush()
	writeLoopText(w, sums)
	fmt.Fprintln(w, "(missed: of the incorrect true, the bounded TRUEs, whose bug lies beyond the bounds; "+ScoreScheme+")")
	if len(sums) > 1 {
		base := sums[0]
		fmt.Fprintf(w, "cpu time on the %d tasks %s solved:", base.BaseSolved, base.Mode)
		for _, s := range sums {
			fmt.Fprintf(w, " %s %.1fs", s.Mode, s.BaseSec)
			if s != base && s.BaseSec > 0 {
				fmt.Fprintf(w, " (%.2fx of %s)", s.BaseSec/base.BaseSec, base.Mode)
			}
		}
		fmt.Fprintln(w)
	}
}

// writeLoopText prints the loop's figures per mode (the modes that ran
// it): how many verdicts the loop decided and how many another engine,
// iterations and spurious counterexamples, the mean share of the
// variables the last level kept, the time in abstract checks against
// reconstructions, and the generalised patterns excluded.
func writeLoopText(w io.Writer, sums []*Summary) {
	ran := false
	for _, s := range sums {
		ran = ran || s.Loop != nil
	}
	if !ran {
		return
	}
	fmt.Fprintln(w, "CEGPV loop:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode	loop runs	by loop	by other	levels	iterations	spurious	mean kept share	abstract(s)	reconstruct(s)	patterns	")
	for _, s := range sums {
		if l := s.Loop; l != nil {
			fmt.Fprintf(tw, "%s	%d	%d	%d	%d	%d	%d	%.3f	%.1f	%.1f	%d	\n", s.Mode, l.Runs, l.ByLoop, l.ByOther, l.Levels, l.Iterations, l.Spurious,
				l.MeanKeptShare, l.AbstractSec, l.ReconstructSec, l.Patterns)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "(by loop/by other: the TRUEs and FALSEs the CEGPV loop decided, and another engine; levels, iterations, spurious and patterns are sums over the runs, the deepening's shallow runs included; kept share: of the program's variables, at the last level)")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
