package cegpv

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
)

var updateBudgets = flag.Bool("update-budgets", false, "rewrite the table of engines in docs/verifying.md")

// TestBudgets checks the table of engines (engines.go): its shares and
// limits make sense together, it holds what the code uses, and
// docs/verifying.md shows exactly it (-update-budgets rewrites it there).
// go test -run TestBudgets -v prints it.
func TestBudgets(t *testing.T) {
	names := map[string]bool{}
	for _, b := range Budgets {
		if b.Engine == "" || b.Starts == "" || names[b.Engine] {
			t.Errorf("%+v: an engine needs a name of its own and a start", b)
		}
		names[b.Engine] = true
		if b.Share < 0 || b.Share > 1 {
			t.Errorf("%s: share %v, want one in [0, 1]", b.Engine, b.Share)
		}
		if b.Min > 0 && b.Max > 0 && b.Min > b.Max {
			t.Errorf("%s: at least %v, more than at most %v", b.Engine, b.Min, b.Max)
		}
		if b.Share == 0 && b.Max == 0 {
			t.Errorf("%s: neither a share nor a maximum: unbounded", b.Engine)
		}
	}
	// engines that run at once share the time left
	for _, set := range [][]Budget{
		{deepening, generalisation, limitCase}, // the loop's own, one after another within one run
		{race, unfollowable},                   // the search behind a counterexample beside the race's, when it is below the unfollowable share
		{withoutOpaque},
		{beyond},
	} {
		sum := 0.0
		for _, b := range set {
			sum += b.Share
		}
		if sum > 1 {
			t.Errorf("shares of %v sum to %v > 1", set, sum)
		}
	}
	// beside an external checker the race's search has at least the
	// unfollowable share, so that the search behind its counterexamples
	// on the same program is left to it (searchUnfollowable)
	if raceExternal.Share < unfollowable.Share {
		t.Errorf("raceExternal share %v below the unfollowable share %v", raceExternal.Share, unfollowable.Share)
	}
	// what the code uses is the table's
	if probe.Max != DefaultProbe || beyond.Max != DefaultBeyondMax {
		t.Errorf("probe %v, beyond %v: the defaults are %v, %v", probe.Max, beyond.Max, DefaultProbe, DefaultBeyondMax)
	}

	var tab bytes.Buffer
	if err := WriteBudgets(&tab); err != nil {
		t.Fatal(err)
	}
	t.Logf("the table of engines:\n%s", tab.String())
	const page = "docs/verifying.md"
	doc, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- budgets: go test -run TestBudgets -update-budgets -->\n", "<!-- end of budgets -->\n"
	i, j := bytes.Index(doc, []byte(begin)), bytes.Index(doc, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("%s has no table of engines between %q and %q", page, strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	got := doc[i+len(begin) : j]
	if *updateBudgets {
		out := append(append(append([]byte{}, doc[:i+len(begin)]...), tab.Bytes()...), doc[j:]...)
		if err := os.WriteFile(page, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, tab.Bytes()) {
		t.Errorf("%s's table of engines differs from engines.go's (go test -run TestBudgets -update-budgets):\n%s\nwant\n%s", page, got, tab.Bytes())
	}
}
