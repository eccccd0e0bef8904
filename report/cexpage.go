package report

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"cegpv.dev/cegpv/program"
)

// Cex is what the counterexample page shows: the verdict of a check and,
// for a FALSE (or an UNKNOWN whose run draws opaque values), the replayed
// run's steps.
type Cex struct {
	File      string
	Verdict   string // TRUE, FALSE or UNKNOWN
	Property  string // the violated property
	Reason    string // why UNKNOWN
	Bounds    string
	Mode      string
	Backend   string
	DataModel string   // ILP32 or LP64
	Notes     []string // e.g. "found within unwind 1"
	Program   *program.Program
	Steps     []Step  // Steps(Program, run)
	Initial   []Store // the initial values of the globals the steps touch
	Loop      *LoopSummary
}

// LoopSummary is the CEGPV loop's statistics, as shown on the pages.
type LoopSummary struct {
	Levels     int
	Iterations int
	Spurious   int
	Checks     int
	Kept       []string // the last level's kept variables
}

// WriteCex writes the counterexample page of c: one column per thread,
// one row per source line executed (SourceLines) in execution order, with
// the full source text, its function, the values stored and returned and
// the shared values read with where they were stored; a row creating a thread
// marks the new thread's column ("starts"), a row joining one marks the
// joined thread's column ("joined"), and a thread's column is drawn as a
// line from its start to its join; the violated property ends the page,
// then the CEGPV summary.
func WriteCex(w io.Writer, c *Cex) error {
	v := cexView{
		Head:    newHead("cegpv: "+c.Verdict+" "+filepath.Base(c.File), cexCSS),
		Cex:     c,
		Class:   strings.ToLower(c.Verdict),
		Words:   VerdictWords(c.Verdict, c.Property),
		Table:   cexTable(c, SourceLines(c.Program, c.Steps)),
		Summary: loopView(c.Program, c.Loop),
	}
	if c.Verdict == "FALSE" {
		if in := propInstr(c.Program, c.Property); in != nil {
			v.Assert = &cexAssert{Text: assertText(in), Pos: shortPos(in.Pos, c.File)}
		} else {
			v.Describe = Describe(c.Program, c.Property)
		}
	}
	return cexPage.Execute(w, v)
}

// cexView is what the counterexample page's template shows.
type cexView struct {
	Head head
	*Cex
	Class    string // the verdict's CSS class
	Words    string // VerdictWords
	Table    *cexTableView
	Assert   *cexAssert // the violated assertion
	Describe string     // the violated property, when not an assertion
	Summary  *loopSummaryView
}

type cexAssert struct{ Text, Pos string }

type loopSummaryView struct {
	*LoopSummary
	Named string // the kept variables other than temporaries
	Temps int    // the number of temporaries kept
}

func loopView(prog *program.Program, l *LoopSummary) *loopSummaryView {
	if l == nil {
		return nil
	}
	temps := Temps(prog)
	var named []string
	for _, k := range l.Kept {
		if !temps.Has(k) {
			named = append(named, k)
		}
	}
	return &loopSummaryView{LoopSummary: l, Named: strings.Join(named, ", "), Temps: len(l.Kept) - len(named)}
}

type cexTableView struct {
	Lines, Steps int
	Initial      string
	Threads      []cexThread
	Rows         []cexRow
}

type cexThread struct {
	ID   int
	Name string
}

type cexRow struct {
	Viol  bool // the last row of a FALSE
	First int
	Cells []cexCell
}

// cexCell is one thread's cell of a row: Kind is "act" (the thread runs
// the row's line), "start", "end", "alive" or "" (not running).
type cexCell struct {
	Kind string
	Name string // the starting thread's, or for "end" the joining thread's
	Line
	Loc    string // shortLine
	Vals   string
	Reads  []cexRead
	Spawns []string
	Joins  []string
}

type cexRead struct{ Loc, Val, By string }

// cexTable lays out the rows of the page's table: one column per
// thread, a thread's column drawn from its start to its join.
func cexTable(c *Cex, rows []Line) *cexTableView {
	if len(rows) == 0 {
		return nil
	}
	names := ThreadNames(c.Program, c.Steps)
	var threads []int
	for t := range names {
		threads = append(threads, t)
	}
	sort.Ints(threads)
	v := &cexTableView{Lines: len(rows), Steps: len(c.Steps)}
	var vs []string
	for _, s := range c.Initial {
		vs = append(vs, s.Loc+" = "+s.Val)
	}
	v.Initial = strings.Join(vs, ", ")
	for _, t := range threads {
		v.Threads = append(v.Threads, cexThread{ID: t, Name: names[t]})
	}
	alive := map[int]bool{0: true}
	last := len(rows) - 1
	for i, r := range rows {
		starts, joined := map[int]bool{}, map[int]bool{}
		for _, t := range r.Spawned {
			starts[t] = true
		}
		for _, t := range r.Joined {
			joined[t] = true
		}
		row := cexRow{Viol: i == last && c.Verdict == "FALSE", First: r.First}
		for _, t := range threads {
			var cell cexCell
			switch {
			case t == r.Thread:
				cell = cexCell{Kind: "act", Line: r, Loc: shortLine(r, c.File)}
				vs := r.Stores(" = ")
				for _, v := range r.Returned {
					vs = append(vs, "returns "+v)
				}
				cell.Vals = strings.Join(vs, ", ")
				for _, rd := range r.Reads {
					cell.Reads = append(cell.Reads, cexRead{rd.Loc, rd.Val, StoredBy(rd, c.Steps, names)})
				}
				for _, s := range r.Spawned {
					cell.Spawns = append(cell.Spawns, names[s])
				}
				for _, j := range r.Joined {
					cell.Joins = append(cell.Joins, names[j])
				}
			case starts[t]:
				cell = cexCell{Kind: "start", Name: names[t]}
				alive[t] = true
			case joined[t]:
				cell = cexCell{Kind: "end", Name: names[r.Thread]}
				alive[t] = false
			case alive[t]:
				cell.Kind = "alive"
			}
			row.Cells = append(row.Cells, cell)
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// cexPage is the counterexample page's template; a line's actions end
// with "-}}" where the line break is only the template's layout.
var cexPage = pageTemplate("cex", `{{template "start" .Head -}}
<h1>{{.File}} <span class="v-{{.Class}}">{{.Words}}</span></h1>
<p class="small">mode {{.Mode}}, backend {{.Backend}}, {{.DataModel}}, {{.Bounds}}</p>
{{with .Table -}}
<p class="small">{{.Lines}} source lines executed ({{.Steps}} steps of the program model); one column per thread, rows in execution order; the values are those stored in program variables, below them the shared values read and where they were stored.</p>
{{if .Initial}}<p>Initial values: <code class="vals">{{.Initial}}</code></p>
{{end -}}
<table class="cex">
<thead><tr><th>step</th>{{range .Threads}}<th class="thread" id="thread-{{.ID}}">{{.Name}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr{{if .Viol}} class="viol"{{end}}><td class="num step">{{.First}}</td>{{range .Cells}}{{template "cell" .}}{{end}}</tr>
{{end -}}
</tbody>
</table>
{{end -}}
{{if eq .Verdict "FALSE" -}}
<div class="prop"><b>Property {{.Property}} violated</b>
{{- with .Assert}}: <code>{{.Text}}</code> at {{.Pos}}{{else with .Describe}}: {{.}}, a run reaches {{$.Bounds}}{{end -}}
</div>
{{else if eq .Verdict "UNKNOWN" -}}
<div class="prop"><b>UNKNOWN</b>: {{.Reason}}</div>
{{end -}}
{{range .Notes}}<p>{{.}}</p>
{{end -}}
{{with .Summary -}}
<h2>CEGPV</h2>
<table>
<tr><th>abstraction levels</th><td class="num">{{.Levels}}</td></tr>
<tr><th>iterations</th><td class="num">{{.Iterations}}</td></tr>
<tr><th>spurious counterexamples</th><td class="num">{{.Spurious}}</td></tr>
<tr><th>backend checks</th><td class="num">{{.Checks}}</td></tr>
<tr><th>kept variables (last level)</th><td>{{len .Kept}}: <code>{{.Named}}</code>
{{- with .Temps}} and {{.}} temporar{{if eq . 1}}y{{else}}ies{{end}}{{end}}</td></tr>
</table>
{{end -}}
{{template "end"}}
{{- define "cell" -}}
{{if eq .Kind "act" -}}
<td class="act"><span class="ln">{{.Loc}} {{.Function}}</span> <code>{{.Text}}</code>
{{- with .Vals}}<div class="vals">{{.}}</div>{{end}}
{{- range .Reads}}<div class="reads">reads {{.Loc}} = {{.Val}} ({{.By}})</div>{{end}}
{{- range .Spawns}}<div class="spawn">creates {{.}} &#8594;</div>{{end}}
{{- range .Joins}}<div class="join">joins {{.}} &#8592;</div>{{end}}
{{- range .Overflows}}<div class="ub">undefined behaviour: {{.}}</div>{{end -}}
</td>
{{- else if eq .Kind "start"}}<td class="start">&#9660; {{.Name}} starts</td>
{{- else if eq .Kind "end"}}<td class="end">&#9650; joined by {{.Name}}</td>
{{- else if eq .Kind "alive"}}<td class="alive"></td>
{{- else}}<td></td>{{end}}
{{- end}}`, nil)

func propInstr(p *program.Program, prop string) *program.Instr {
	if p == nil || prop == "" {
		return nil
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op == program.OpAssert && in.Prop == prop {
				return in
			}
		}
	}
	return nil
}

func assertText(in *program.Instr) string {
	if in.Msg != "" {
		return in.Msg
	}
	return in.String()
}

func shortPos(pos program.Pos, main string) string {
	if pos.File == "" || pos.File == main {
		return fmt.Sprintf("line %d", pos.Line)
	}
	return fmt.Sprintf("%s:%d", filepath.Base(pos.File), pos.Line)
}

func shortLine(r Line, main string) string {
	if r.File != "" && r.File != main {
		return fmt.Sprintf("%s:%d", filepath.Base(r.File), r.Line)
	}
	return fmt.Sprint(r.Line)
}

const cexCSS = `.v-false { color: #b00; } .v-true { color: #070; } .v-unknown { color: #a60; }
table.cex td { min-width: 14em; max-width: 40em; }
table.cex td.step { min-width: 0; color: #777; }
td.act { background: #f4f8ff; border-left: 3px solid #36c; }
td.alive { border-left: 3px solid #9bd; }
td.start { border-left: 3px solid #36c; color: #36c; font-size: 0.9em; }
td.end { border-left: 3px dashed #9bd; color: #36c; font-size: 0.9em; }
.ln { color: #777; font-size: 0.85em; }
.vals { color: #063; font-family: monospace; font-size: 0.9em; }
.reads { color: #555; font-family: monospace; font-size: 0.85em; }
.spawn, .join { color: #36c; font-size: 0.9em; }
.ub { color: #b00; font-size: 0.9em; font-weight: bold; }
tr.viol td.act { background: #fdd; border-left-color: #b00; }
.prop { margin-top: 1em; padding: 0.6em; border: 2px solid #b00; background: #fee; display: inline-block; }
`
