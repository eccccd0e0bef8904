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
	p := &page{w: w}
	p.start("cegpv: "+c.Verdict+" "+filepath.Base(c.File), cexCSS)
	p.printf("<h1>%s <span class=\"v-%s\">%s</span></h1>\n", esc(c.File), strings.ToLower(c.Verdict), esc(VerdictWords(c.Verdict, c.Property)))
	p.printf("<p class=\"small\">mode %s, backend %s, %s, %s</p>\n", esc(c.Mode), esc(c.Backend), esc(c.DataModel), esc(c.Bounds))
	rows := SourceLines(c.Program, c.Steps)
	if len(rows) > 0 {
		writeCexTable(p, c, rows)
	}
	switch c.Verdict {
	case "FALSE":
		p.printf("<div class=\"prop\"><b>Property %s violated</b>", esc(c.Property))
		if in := propInstr(c.Program, c.Property); in != nil {
			p.printf(": <code>%s</code> at %s", esc(assertText(in)), esc(shortPos(in.Pos, c.File)))
		} else if d := Describe(c.Program, c.Property); d != "" {
			p.printf(": %s, a run reaches %s", esc(d), esc(c.Bounds))
		}
		p.printf("</div>\n")
	case "UNKNOWN":
		p.printf("<div class=\"prop\"><b>UNKNOWN</b>: %s</div>\n", esc(c.Reason))
	}
	for _, n := range c.Notes {
		p.printf("<p>%s</p>\n", esc(n))
	}
	if l := c.Loop; l != nil {
		temps := Temps(c.Program)
		var named []string
		for _, k := range l.Kept {
			if !temps.Has(k) {
				named = append(named, k)
			}
		}
		p.printf("<h2>CEGPV</h2>\n<table>\n")
		p.printf("<tr><th>abstraction levels</th><td class=\"num\">%d</td></tr>\n", l.Levels)
		p.printf("<tr><th>iterations</th><td class=\"num\">%d</td></tr>\n", l.Iterations)
		p.printf("<tr><th>spurious counterexamples</th><td class=\"num\">%d</td></tr>\n", l.Spurious)
		p.printf("<tr><th>backend checks</th><td class=\"num\">%d</td></tr>\n", l.Checks)
		p.printf("<tr><th>kept variables (last level)</th><td>%d: <code>%s</code>", len(l.Kept), esc(strings.Join(named, ", ")))
		if n := len(l.Kept) - len(named); n > 0 {
			p.printf(" and %d temporar%s", n, map[bool]string{true: "y", false: "ies"}[n == 1])
		}
		p.printf("</td></tr>\n</table>\n")
	}
	return p.end()
}

func writeCexTable(p *page, c *Cex, rows []Line) {
	names := ThreadNames(c.Program, c.Steps)
	var threads []int
	for t := range names {
		threads = append(threads, t)
	}
	sort.Ints(threads)
	col := map[int]int{}
	for i, t := range threads {
		col[t] = i
	}
	p.printf("<p class=\"small\">%d source lines executed (%d steps of the program model); one column per thread, rows in execution order; the values are those stored in program variables, below them the shared values read and where they were stored.</p>\n", len(rows), len(c.Steps))
	if len(c.Initial) > 0 {
		var vs []string
		for _, s := range c.Initial {
			vs = append(vs, s.Loc+" = "+s.Val)
		}
		p.printf("<p>Initial values: <code class=\"vals\">%s</code></p>\n", esc(strings.Join(vs, ", ")))
	}
	p.printf("<table class=\"cex\">\n<thead><tr><th>step</th>")
	for _, t := range threads {
		p.printf("<th class=\"thread\" id=\"thread-%d\">%s</th>", t, esc(names[t]))
	}
	p.printf("</tr></thead>\n<tbody>\n")
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
		cls := ""
		if i == last && c.Verdict == "FALSE" {
			cls = " class=\"viol\""
		}
		p.printf("<tr%s><td class=\"num step\">%d</td>", cls, r.First)
		for _, t := range threads {
			switch {
			case t == r.Thread:
				p.printf("<td class=\"act\">")
				p.printf("<span class=\"ln\">%s %s</span> <code>%s</code>", esc(shortLine(r, c.File)), esc(r.Function), esc(r.Text))
				var vs []string
				for _, s := range r.Vals {
					vs = append(vs, s.Loc+" = "+s.Val)
				}
				for _, v := range r.Returned {
					vs = append(vs, "returns "+v)
				}
				if len(vs) > 0 {
					p.printf("<div class=\"vals\">%s</div>", esc(strings.Join(vs, ", ")))
				}
				for _, rd := range r.Reads {
					p.printf("<div class=\"reads\">reads %s = %s (%s)</div>", esc(rd.Loc), esc(rd.Val), esc(StoredBy(rd, c.Steps, names)))
				}
				for _, s := range r.Spawned {
					p.printf("<div class=\"spawn\">creates %s &#8594;</div>", esc(names[s]))
				}
				for _, j := range r.Joined {
					p.printf("<div class=\"join\">joins %s &#8592;</div>", esc(names[j]))
				}
				for _, m := range r.Overflows {
					p.printf("<div class=\"ub\">undefined behaviour: %s</div>", esc(m))
				}
				p.printf("</td>")
			case starts[t]:
				p.printf("<td class=\"start\">&#9660; %s starts</td>", esc(names[t]))
				alive[t] = true
			case joined[t]:
				p.printf("<td class=\"end\">&#9650; joined by %s</td>", esc(names[r.Thread]))
				alive[t] = false
			case alive[t]:
				p.printf("<td class=\"alive\"></td>")
			default:
				p.printf("<td></td>")
			}
		}
		p.printf("</tr>\n")
	}
	p.printf("</tbody>\n</table>\n")
}

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
