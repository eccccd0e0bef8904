package loop

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"cegpv.dev/cegpv/depgraph"
	"cegpv.dev/cegpv/program"
)

// Sources maps every instruction label of p to where it comes from:
// "file:line: source text" (the text of that line of p.File, trimmed;
// "file:line" alone when the file cannot be read, "" for an instruction
// without a position). The dumps put it beside the labels they name.
func Sources(p *program.Program) map[program.Label]string {
	var lines []string
	if b, err := os.ReadFile(p.File); err == nil {
		lines = strings.Split(string(b), "\n")
	}
	out := map[program.Label]string{}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Pos.Line <= 0 {
				continue
			}
			s := fmt.Sprintf("%s:%d", in.Pos.File, in.Pos.Line)
			if in.Pos.Line <= len(lines) {
				s += ": " + strings.TrimSpace(lines[in.Pos.Line-1])
			}
			out[in.Label] = s
		}
	}
	return out
}

// labelRE matches an instruction label in a dump's text (<func>.<n>,
// with the .a, .b suffixes of the checks overflow.Add inserts).
var labelRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*\.[0-9]+(?:\.[a-z]+)*`)

// annotate puts beside every line of text that names instruction labels
// the source lines of those labels, after a "  # ".
func annotate(text string, src map[program.Label]string) string {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		var notes []string
		for _, l := range labelRE.FindAllString(line, -1) {
			if s := src[program.Label(l)]; s != "" {
				if n := l + " " + s; !slices.Contains(notes, n) {
					notes = append(notes, n)
				}
			}
		}
		if len(notes) > 0 {
			b.WriteString("  # " + strings.Join(notes, " | "))
		}
	}
	if text != "" {
		b.WriteByte('\n')
	}
	return b.String()
}

// sourcesText lists every label of p with its source line, in body
// order per function: the key to the labels of every dump.
func sourcesText(p *program.Program, src map[program.Label]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# every instruction label of %s with its source line (the dumps name labels; <func>:<label> in a step is the label executed by a thread of <func>)\n", p.File)
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			fmt.Fprintf(&b, "%s\t%s\t%s\n", in.Label, in.Op, src[in.Label])
		}
	}
	return b.String()
}

// keptText is the dump of a level's kept set.
func keptText(k KeptSet, g *depgraph.Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# unwind %d, level %d, heuristic %s: %d of %d variables kept\n", k.Unwind, k.Level, k.Heuristic, len(k.Kept), k.Of)
	for _, v := range k.Kept {
		b.WriteString(string(v) + "\n")
	}
	var dropped []string
	for _, v := range g.Vars {
		if !slices.Contains(k.Kept, v) {
			dropped = append(dropped, string(v))
		}
	}
	fmt.Fprintf(&b, "# sliced away (%d)\n", len(dropped))
	for _, v := range dropped {
		b.WriteString(v + "\n")
	}
	return b.String()
}
