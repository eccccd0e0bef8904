package loop

import (
	"math/rand"
	"slices"
	"testing"
)

// superset is a monotone ddmin test: ok(c) iff c contains every item of
// need; it counts its calls and records the sets ok held of.
type superset struct {
	need  []int
	calls int
	held  [][]int
}

func (s *superset) ok(c []int) bool {
	s.calls++
	for _, x := range s.need {
		if !slices.Contains(c, x) {
			return false
		}
	}
	s.held = append(s.held, slices.Clone(c))
	return true
}

func always() bool { return true }

func TestDdminFindsTheNeededItems(t *testing.T) {
	s := &superset{need: []int{3, 7}}
	c, minimal := ddmin(10, s.ok, always)
	if !slices.Equal(c, []int{3, 7}) || !minimal {
		t.Fatalf("ddmin = %v (minimal %v), want [3 7]", c, minimal)
	}
	t.Logf("%d tests", s.calls)
}

func TestDdminNothingRemovable(t *testing.T) {
	s := &superset{need: []int{0, 1, 2, 3, 4}}
	c, minimal := ddmin(5, s.ok, always)
	if !slices.Equal(c, []int{0, 1, 2, 3, 4}) || !minimal {
		t.Fatalf("ddmin = %v (minimal %v), want the whole set", c, minimal)
	}
}

func TestDdminEverythingRemovable(t *testing.T) {
	s := &superset{}
	c, minimal := ddmin(6, s.ok, always)
	if len(c) != 0 || !minimal {
		t.Fatalf("ddmin = %v (minimal %v), want the empty set", c, minimal)
	}
	if c, _ := ddmin(0, s.ok, always); len(c) != 0 {
		t.Fatalf("ddmin of nothing = %v", c)
	}
}

// On monotone tests the answer is exactly the needed set, and every set
// ddmin returns is one the test held of.
func TestDdminMonotone(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200; i++ {
		n := 1 + r.Intn(40)
		var need []int
		for x := 0; x < n; x++ {
			if r.Intn(5) == 0 {
				need = append(need, x)
			}
		}
		s := &superset{need: need}
		c, minimal := ddmin(n, s.ok, always)
		if !minimal || !slices.Equal(c, need) && !(len(c) == 0 && len(need) == 0) {
			t.Fatalf("n %d need %v: ddmin = %v (minimal %v)", n, need, c, minimal)
		}
		if len(need) < n && !slices.ContainsFunc(s.held, func(h []int) bool { return slices.Equal(h, c) }) {
			t.Fatalf("n %d need %v: ddmin returned %v, which the test never held of", n, need, c)
		}
	}
}

// A budget that runs out ends the search with the smallest set found so
// far, never with a set the test did not hold of.
func TestDdminBudget(t *testing.T) {
	for budget := 0; budget <= 12; budget++ {
		s := &superset{need: []int{5, 17, 18}}
		asked := 0
		more := func() bool { asked++; return s.calls < budget }
		c, minimal := ddmin(24, s.ok, more)
		if s.calls > budget {
			t.Fatalf("budget %d: %d tests", budget, s.calls)
		}
		if len(c) < 24 && !slices.ContainsFunc(s.held, func(h []int) bool { return slices.Equal(h, c) }) {
			t.Fatalf("budget %d: ddmin returned %v, which the test never held of", budget, c)
		}
		if len(c) == 24 && len(s.held) > 0 {
			t.Fatalf("budget %d: ddmin returned the whole set after the test held of %v", budget, s.held[0])
		}
		if minimal != slices.Equal(c, []int{5, 17, 18}) {
			t.Fatalf("budget %d: ddmin = %v, minimal %v", budget, c, minimal)
		}
	}
}

func TestSplitWithout(t *testing.T) {
	c := []int{1, 3, 4, 8, 9}
	got := split(c, 3)
	if len(got) != 3 || !slices.Equal(got[0], []int{1}) || !slices.Equal(got[1], []int{3, 4}) || !slices.Equal(got[2], []int{8, 9}) {
		t.Fatalf("split = %v", got)
	}
	if w := without(c, []int{3, 9}); !slices.Equal(w, []int{1, 4, 8}) {
		t.Fatalf("without = %v", w)
	}
	if got := split(c, 5); len(got) != 5 {
		t.Fatalf("split into 5 = %v", got)
	}
}
