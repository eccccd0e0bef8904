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
	// plotSec is the time the plots show: CPUSec, or WallSec for runs
	// that have no CPU times.
	plotSec float64
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
		for _, r := range rows {
			if r.Mode != m {
				continue
			}
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
var CSVHeader = []string{"file", "category", "expected", "mode", "verdict", "proof", "status", "result", "missed", "cpu_seconds", "wall_seconds", "peak_rss_mb", "reason", "output", "page", "property"}

// CSV returns r as a line of results.csv.
func (r Row) CSV() []string {
	return []string{r.File, r.Category, r.Expected, r.Mode, r.Verdict, strconv.FormatBool(r.Proof), r.Status, r.Result, strconv.FormatBool(r.Missed),
		strconv.FormatFloat(r.CPUSec, 'f', 3, 64), strconv.FormatFloat(r.WallSec, 'f', 3, 64),
		strconv.FormatFloat(r.RSSMB, 'f', 1, 64), r.Reason, r.Output, r.Page, r.Property}
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
				Reason: get(rec, "reason"), Output: get(rec, "output"), Page: get(rec, "page"), Property: get(rec, "property")})
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

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
