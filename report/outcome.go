package report

import (
	"fmt"
	"time"

	"cegpv.dev/cegpv"
	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/loop"
	"cegpv.dev/cegpv/program"
)

// Outcome is the result of one check as `cegpv verify` reports it, in
// every format (the Writers): the library's verdict (cegpv.Report, by
// Fill) in SV-COMP words, with the counterexample as trace steps and the
// statistics. Its JSON encoding is the output of `verify --json`; the
// fields without a JSON name are for the other writers (the witnesses
// need the replayed run and the program) and for the exit code.
type Outcome struct {
	File     string `json:"file"`
	Verdict  string `json:"verdict"` // TRUE, FALSE, UNKNOWN
	Property string `json:"property,omitempty"`
	// Description says what the violated property checks (FALSE): the
	// assertion, or the loop or function of an unwinding property with its
	// line (program.Unwinding.Describe).
	Description string `json:"description,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Proof       bool   `json:"proof"`
	ProofBy     string `json:"proof_by,omitempty"` // what showed the proof (cegpv.Report.ProofBy)
	Bounds      string `json:"bounds"`
	// Reached is the bound a run of a FALSE of an unwinding property
	// reaches when the loop has a bound of its own (--unwindset,
	// --incremental-bmc): "unwind 12"; "" otherwise (Bounds says it).
	Reached string `json:"reached,omitempty"`
	// FoundWithin states the smaller bounds within which the backend
	// found the violation (iterative deepening), when they differ.
	FoundWithin string `json:"found_within,omitempty"`
	// FoundBeyond says how a violation beyond the bounds was found (see
	// cegpv.Beyond); SearchedBeyond, for a TRUE, how long the search
	// beyond the bounds ran without finding one.
	FoundBeyond    string `json:"found_beyond,omitempty"`
	SearchedBeyond string `json:"beyond,omitempty"`
	Mode           string `json:"mode"`
	Backend        string `json:"backend"`
	DataModel      string `json:"data_model"` // ILP32 or LP64
	// DecidedBy names the engine the verdict comes from (cegpv.ByLoop and
	// the others), for a TRUE or FALSE.
	DecidedBy string `json:"decided_by,omitempty"`
	// Initial are the initial values of the globals the trace reads or
	// writes; TraceError says why the trace shows no reads (Steps).
	Initial    []Store    `json:"initial_values,omitempty"`
	TraceError string     `json:"trace_error,omitempty"`
	Trace      []Step     `json:"trace,omitempty"`
	Stats      Stats      `json:"stats"`
	CEGPV      *LoopStats `json:"cegpv,omitempty"`
	// ChildrenRSSKB is the peak resident set of the largest child process
	// (the SMT solver), for cegpv bench's memory column.
	ChildrenRSSKB int64 `json:"children_peak_rss_kb"`

	Result  backend.Result   `json:"-"`
	Run     *program.Run     `json:"-"` // the replayed run (FALSE), for witnesses
	Program *program.Program `json:"-"`
	Err     error            `json:"-"` // why the verdict is UNKNOWN, when it is an error
	Elapsed time.Duration    `json:"-"`
}

// LoopStats is what the CEGPV loop did (mode cegpv).
type LoopStats struct {
	Levels     int              `json:"levels"`
	Checks     int              `json:"backend_checks"`
	Kept       []string         `json:"kept"`
	Iterations []loop.Iteration `json:"iterations"`
	// KeptSets are the kept sets of every level entered, the
	// deepening's shallow runs first.
	KeptSets []loop.KeptSet `json:"kept_sets"`
}

// Spurious counts the iterations whose counterexample was spurious.
func (c *LoopStats) Spurious() int {
	n := 0
	for _, it := range c.Iterations {
		if it.Reconstruct == "SAFE" {
			n++
		}
	}
	return n
}

// Stats are the backend's statistics and the time of the whole check.
type Stats struct {
	Events       int     `json:"events"`
	States       int     `json:"explicit_states,omitempty"`
	SMTVars      int     `json:"smt_vars"`
	SMTAsserts   int     `json:"smt_assertions"`
	FormulaBytes int     `json:"formula_bytes"`
	EncodeSec    float64 `json:"encode_seconds"`
	SolverSec    float64 `json:"solver_seconds"`
	TotalSec     float64 `json:"total_seconds"`
	// Checker is an external checker's own account of its work
	// (backend.Stats.Checker).
	Checker string `json:"checker_stats,omitempty"`
}

// Fill copies the library's report into o.
func (o *Outcome) Fill(r *cegpv.Report) {
	res := r.Result
	o.Result = res
	o.Stats = Stats{Events: res.Stats.Events, States: res.Stats.States, SMTVars: res.Stats.Vars, SMTAsserts: res.Stats.Clauses,
		FormulaBytes: res.Stats.FormulaB, EncodeSec: res.Stats.EncodeTime.Seconds(), SolverSec: res.Stats.SolverTime.Seconds(), Checker: res.Stats.Checker}
	o.Verdict = r.Verdict.SVCOMP()
	if o.DataModel == "" && r.Program != nil {
		o.DataModel = string(r.Program.Model) // the model the program was lowered in
	}
	o.Property, o.Reason, o.Err, o.Proof, o.ProofBy = r.Property, r.Reason, r.Err, r.Proof, r.ProofBy
	o.Bounds = r.Bounds.String()
	if r.FoundWithin != nil {
		o.FoundWithin = r.FoundWithin.String()
	}
	o.FoundBeyond, o.SearchedBeyond = r.FoundBeyond, r.SearchedBeyond
	o.DecidedBy = r.DecidedBy
	o.Run = r.Run
	if r.Verdict == backend.Unsafe {
		o.Description = Describe(r.Program, r.Property)
		if u, ok := program.UnwindingByID(r.Program, r.Property); ok && r.Run != nil && len(r.Run.UnwindSet) > 0 {
			o.Reached = fmt.Sprintf("unwind %d", r.Run.BoundOf(u.Key()))
		}
	}
	if r.Run != nil {
		o.SetTrace(r.Program, r.Run)
		for _, ov := range r.Overflows {
			if ov.Step < len(o.Trace) {
				o.Trace[ov.Step].Overflow = ov.Msg
			}
		}
	}
	if cr := r.Loop; cr != nil {
		cs := &LoopStats{Levels: cr.Levels, Checks: cr.Checks, Iterations: cr.Iterations, KeptSets: cr.KeptSets}
		for _, k := range cr.Kept {
			cs.Kept = append(cs.Kept, string(k))
		}
		o.CEGPV = cs
	}
}

// SetTrace sets the trace of o to run, a replayed run of p (Steps): its
// steps, initial values, and why it shows no reads.
func (o *Outcome) SetTrace(p *program.Program, run *program.Run) {
	var err error
	if o.Trace, o.Initial, err = Steps(p, run); err != nil {
		o.TraceError = err.Error()
	}
}

// Describe says what property prop of p checks: the text of an assertion
// with its line, or the loop or function of an unwinding property; "" for
// an unknown id.
func Describe(p *program.Program, prop string) string {
	if p == nil {
		return ""
	}
	if u, ok := program.UnwindingByID(p, prop); ok {
		return u.Describe()
	}
	for _, d := range program.PropertyDetails(p) {
		if d.ID == prop {
			return fmt.Sprintf("%s (line %d)", d.Text, d.Pos.Line)
		}
	}
	return ""
}

// VerdictWords is the verdict in SV-COMP's words, the last line of the
// text output: TRUE, UNKNOWN, FALSE(unreach-call) for a violated
// assertion, and FALSE(unwinding-assertion) for an unwinding property
// (which SV-COMP's unreach-call does not speak of: BenchExec's tool-info
// module reads it as unknown).
func VerdictWords(verdict, prop string) string {
	switch {
	case verdict == "FALSE" && program.IsUnwinding(prop):
		return "FALSE(unwinding-assertion)"
	case verdict == "FALSE":
		return "FALSE(" + Falsified(prop) + ")"
	case verdict == "TRUE":
		return "TRUE"
	}
	return "UNKNOWN"
}

// Properties is the result of `verify --each-property`: one Outcome per
// property, checked separately.
type Properties struct {
	File       string     `json:"file"`
	Verdict    string     `json:"verdict"` // FALSE if any property fails, TRUE if all hold, else UNKNOWN
	Properties []*Outcome `json:"properties"`
}
