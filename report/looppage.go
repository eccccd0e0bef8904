package report

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// loopSection is the bench page's section on the CEGPV loop:
// its figures per mode (LoopSums) and three plots: each run's kept-set
// share against its time, a cactus plot of the iterations per mode
// (heuristic), and the kept-set share of the first loop mode against
// each other's, task by task. nil when no run entered the loop.
type loopSection struct {
	Sums     []*Summary
	KeptTime *plot
	Cactus   *plot
	Scatters []*plot
}

func newLoopSection(rows []Row, modes []string, sums []*Summary, unit string) *loopSection {
	var loopModes []string
	var ran []*Summary
	for _, s := range sums {
		if s.Loop != nil && s.Loop.Runs > 0 {
			loopModes = append(loopModes, s.Mode)
			ran = append(ran, s)
		}
	}
	if len(loopModes) == 0 {
		return nil
	}
	v := &loopSection{Sums: ran, KeptTime: keptTimePlot(rows, loopModes, unit), Cactus: iterationsPlot(rows, loopModes)}
	for _, m := range loopModes[1:] {
		v.Scatters = append(v.Scatters, keptScatter(rows, loopModes[0], m))
	}
	return v
}

// linAxis maps [0, hi] to [0, size].
type linAxis struct{ hi, size float64 }

func (a linAxis) pos(v float64) float64 { return a.size * v / a.hi }

// legend puts the modes' colours beside a plot whose frame ends at x.
func legend(pl *plot, modes []string, x, top float64, n func(string) int) {
	for i, m := range modes {
		pl.Lines = append(pl.Lines, series{Color: modeColors[i%len(modeColors)], Name: m, N: n(m),
			LX1: x + 10, LX2: x + 30, LY: top + 16 + 18*float64(i), TX: x + 34})
	}
}

func legendWidth(modes []string) float64 {
	w := 0
	for _, m := range modes {
		w = max(w, len(m)+6)
	}
	return 40 + 6.5*float64(w)
}

func shareTicks(pl *plot, ox, oy float64, horizontal bool) {
	for _, s := range []float64{0, 0.25, 0.5, 0.75, 1} {
		d := plotSize * s
		l := fmt.Sprintf("%.2g", s)
		if horizontal {
			pl.Grid = append(pl.Grid, tick{ox + d, oy, ox + d, oy - plotSize, ox + d, oy + 14, "middle", l})
		} else {
			pl.Grid = append(pl.Grid, tick{ox, oy - d, ox + plotSize, oy - d, ox - 4, oy - d + 4, "end", l})
		}
	}
}

// keptTimePlot: every run of the loop modes, its time (log scale)
// against the share of the program's variables its last level kept.
func keptTimePlot(rows []Row, modes []string, unit string) *plot {
	idx := map[string]int{}
	for i, m := range modes {
		idx[m] = i
	}
	var vals []float64
	count := map[string]int{}
	for _, r := range rows {
		if _, ok := idx[r.Mode]; ok && r.ProgramVars > 0 {
			vals = append(vals, r.plotSec)
			count[r.Mode]++
		}
	}
	ax := newLogAxis(vals, plotSize)
	ox, oy := margin, plotSize+10
	pl := &plot{W: plotSize + margin + legendWidth(modes), H: plotSize + margin + 20,
		Title:  "kept-set share of the last level against time, per run",
		Frame:  [4]float64{ox, oy - plotSize, plotSize, plotSize},
		XLabel: label{ox + plotSize/2, oy + 34, unit},
		YLabel: label{oy - plotSize/2, oy - plotSize/2, "kept share of the variables"},
	}
	for _, t := range ax.ticks() {
		d := ax.pos(t)
		pl.Grid = append(pl.Grid, tick{ox + d, oy, ox + d, oy - plotSize, ox + d, oy + 14, "middle", tickLabel(t)})
	}
	shareTicks(pl, ox, oy, false)
	for _, r := range rows {
		i, ok := idx[r.Mode]
		if !ok || r.ProgramVars == 0 {
			continue
		}
		pl.Points = append(pl.Points, point{Class: statusClass(r), Color: modeColors[i%len(modeColors)], CX: ox + ax.pos(r.plotSec), CY: oy - plotSize*r.KeptShare(),
			Tip: fmt.Sprintf("%s %s: %.2f s, kept %d of %d variables, %s", r.File, r.Mode, r.plotSec, r.KeptVars, r.ProgramVars, r.Status)})
	}
	legend(pl, modes, ox+plotSize, oy-plotSize, func(m string) int { return count[m] })
	return pl
}

// iterationsPlot is a cactus plot of the loop's iterations: for each
// mode its runs sorted by iterations, the n-th point the iterations
// within which n runs ended.
func iterationsPlot(rows []Row, modes []string) *plot {
	its := map[string][]float64{}
	most, hi := 1, 1.0
	for _, r := range rows {
		if r.ProgramVars > 0 && strings.Contains(","+strings.Join(modes, ",")+",", ","+r.Mode+",") {
			its[r.Mode] = append(its[r.Mode], float64(r.Iterations))
			most = max(most, len(its[r.Mode]))
			hi = max(hi, float64(r.Iterations))
		}
	}
	step := niceStep(int(hi))
	hi = math.Ceil(hi/float64(step)) * float64(step)
	ay := linAxis{hi, plotSize}
	width := plotSize * 1.3
	ox, oy := margin, plotSize+10
	pl := &plot{W: width + margin + legendWidth(modes), H: plotSize + margin + 20,
		Title:  "cactus plot: iterations of the loop per run, sorted",
		Frame:  [4]float64{ox, oy - plotSize, width, plotSize},
		XLabel: label{ox + width/2, oy + 34, "runs of the loop"},
		YLabel: label{oy - plotSize/2, oy - plotSize/2, "iterations"},
	}
	for n := 0.0; n <= hi; n += float64(step) {
		d := ay.pos(n)
		pl.Grid = append(pl.Grid, tick{ox, oy - d, ox + width, oy - d, ox - 4, oy - d + 4, "end", fmt.Sprint(n)})
	}
	xs := niceStep(most)
	for n := 0; n <= most; n += xs {
		pl.Ticks = append(pl.Ticks, tick{TX: ox + width*float64(n)/float64(most), TY: oy + 14, Anchor: "middle", Label: fmt.Sprint(n)})
	}
	pl.Lines = cactusLines(modes, its, ox, oy, width, most, ay.pos)
	return pl
}

// keptScatter: for each task both modes ran the loop on, the share of
// the variables the last level of a kept against b's.
func keptScatter(rows []Row, a, b string) *plot {
	type pair struct{ ra, rb *Row }
	by := map[string]*pair{}
	var files []string
	for i := range rows {
		r := &rows[i]
		if (r.Mode != a && r.Mode != b) || r.ProgramVars == 0 {
			continue
		}
		p := by[r.File]
		if p == nil {
			p = &pair{}
			by[r.File] = p
			files = append(files, r.File)
		}
		if r.Mode == a {
			p.ra = r
		} else {
			p.rb = r
		}
	}
	sort.Strings(files)
	size := plotSize + margin + 20
	ox, oy := margin, plotSize+10
	pl := &plot{W: size, H: size, Title: b + " against " + a + ": kept share of the last level per task",
		Frame:  [4]float64{ox, oy - plotSize, plotSize, plotSize},
		Diag:   &[4]float64{ox, oy, ox + plotSize, oy - plotSize},
		XLabel: label{ox + plotSize/2, oy + 34, a + ", kept share"},
		YLabel: label{oy - plotSize/2, oy - plotSize/2, b + ", kept share"},
	}
	shareTicks(pl, ox, oy, true)
	shareTicks(pl, ox, oy, false)
	for _, f := range files {
		p := by[f]
		if p.ra == nil || p.rb == nil {
			continue
		}
		ca, cb := p.ra.Status == "correct", p.rb.Status == "correct"
		cls := "none"
		switch {
		case ca && cb:
			cls = "both"
		case ca || cb:
			cls = "one"
		}
		x, y := p.ra.KeptShare(), p.rb.KeptShare()
		pl.Points = append(pl.Points, point{Class: cls, CX: ox + plotSize*x, CY: oy - plotSize*y,
			Tip: fmt.Sprintf("%s: %s kept %d of %d (%d iterations), %s kept %d of %d (%d iterations)", f, a, p.ra.KeptVars, p.ra.ProgramVars, p.ra.Iterations,
				b, p.rb.KeptVars, p.rb.ProgramVars, p.rb.Iterations)})
	}
	return pl
}
