package score

import (
	"fmt"
	"sort"
	"strings"
)

// maxAlignCells bounds the alignment table (expected+1 × observed+1
// cells), so a runaway trace is an error rather than a memory spike.
const maxAlignCells = 4 << 20

// callPair links an expected call and an observed call by index.
type callPair struct{ exp, obs int }

// callGap holds the unmatched expected and observed indexes between two
// matched calls.
type callGap struct{ exp, obs []int }

// callDiff is the alignment of an expected and an observed trace.
type callDiff struct {
	matched int
	wrong   []callPair // same place, different call
	missing []int      // expected indexes
	extra   []int      // observed indexes
	moved   []callPair // a missing call observed elsewhere
}

// diffCalls aligns the traces along a longest common subsequence. An
// unmatched expected call equal to an unmatched observed call elsewhere is
// out of order; the other unmatched calls between two matched ones pair up
// in order as wrong calls, and what is left over is missing (expected) or
// extra (observed).
func diffCalls(exp, obs []call) callDiff {
	n, m := len(exp), len(obs)
	lcs := lcsTable(exp, obs, same)
	// Walk the table, collecting the unmatched calls between two matched
	// ones as gaps.
	var d callDiff
	gaps := []callGap{{}}
	i, j := 0, 0
	for i < n || j < m {
		last := &gaps[len(gaps)-1]
		switch {
		case i < n && j < m && same(exp[i], obs[j]):
			d.matched++
			gaps = append(gaps, callGap{})
			i, j = i+1, j+1
		case j == m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
			last.exp = append(last.exp, i)
			i++
		default:
			last.obs = append(last.obs, j)
			j++
		}
	}
	// A call expected in one place and observed in another is out of order.
	for g := range gaps {
		for x := 0; x < len(gaps[g].exp); x++ {
			e := gaps[g].exp[x]
			if h, y, ok := findObserved(exp[e], obs, gaps); ok {
				d.moved = append(d.moved, callPair{e, gaps[h].obs[y]})
				gaps[h].obs = append(gaps[h].obs[:y:y], gaps[h].obs[y+1:]...)
				gaps[g].exp = append(gaps[g].exp[:x:x], gaps[g].exp[x+1:]...)
				x--
			}
		}
	}
	// What is left in a gap pairs up in order as wrong calls; the rest is
	// missing or extra.
	for _, g := range gaps {
		k := min(len(g.exp), len(g.obs))
		for x := range k {
			d.wrong = append(d.wrong, callPair{g.exp[x], g.obs[x]})
		}
		d.missing = append(d.missing, g.exp[k:]...)
		d.extra = append(d.extra, g.obs[k:]...)
	}
	sort.Ints(d.extra)
	return d
}

// findObserved finds an unmatched observed call equal to c.
func findObserved(c call, obs []call, gaps []callGap) (int, int, bool) {
	for h, g := range gaps {
		for y, o := range g.obs {
			if same(c, obs[o]) {
				return h, y, true
			}
		}
	}
	return 0, 0, false
}

// reason explains the alignment in one line.
func (d callDiff) reason(exp, obs []call) string {
	n, m := len(exp), len(obs)
	if d.matched == n && n == m {
		switch n {
		case 0:
			return "no calls expected and none observed"
		case 1:
			return "observed the expected call " + exp[0].describe()
		}
		return fmt.Sprintf("observed the %d expected calls in order", n)
	}
	parts := []string{fmt.Sprintf("%d of %d expected calls matched in order among %d observed (score %d/%d)",
		d.matched, n, m, d.matched, max(n, m))}
	if len(d.wrong) > 0 {
		parts = append(parts, "wrong: "+listCalls(d.wrong, func(p callPair) string {
			return fmt.Sprintf("expected #%d %s, observed #%d %s (%s)", p.exp+1, exp[p.exp].describe(), p.obs+1, obs[p.obs].describe(), differences(exp[p.exp], obs[p.obs]))
		}))
	}
	if len(d.missing) > 0 {
		parts = append(parts, "missing: "+listCalls(d.missing, func(e int) string {
			return fmt.Sprintf("#%d %s", e+1, exp[e].describe())
		}))
	}
	if len(d.extra) > 0 {
		parts = append(parts, "extra: "+listCalls(d.extra, func(o int) string {
			return fmt.Sprintf("#%d %s", o+1, obs[o].describe())
		}))
	}
	if len(d.moved) > 0 {
		parts = append(parts, "out of order: "+listCalls(d.moved, func(p callPair) string {
			return fmt.Sprintf("%s expected as #%d, observed as #%d", exp[p.exp].describe(), p.exp+1, p.obs+1)
		}))
	}
	return strings.Join(parts, "; ")
}

// details is the evidence kept with the metric.
func (d callDiff) details(expected, observed int) map[string]any {
	return map[string]any{
		"expected":     expected,
		"observed":     observed,
		"matched":      d.matched,
		"wrong":        len(d.wrong),
		"missing":      len(d.missing),
		"extra":        len(d.extra),
		"out_of_order": len(d.moved),
	}
}

// listCalls formats up to five items and counts the rest.
func listCalls[T any](items []T, format func(T) string) string {
	const shown = 5
	parts := make([]string, 0, shown+1)
	for _, it := range items[:min(len(items), shown)] {
		parts = append(parts, format(it))
	}
	if len(items) > shown {
		parts = append(parts, fmt.Sprintf("and %d more", len(items)-shown))
	}
	return strings.Join(parts, ", ")
}
