package judges

import (
	"fmt"
	"strings"
)

// maxAlignCells bounds the alignment table (expected+1 × observed+1
// cells), so a runaway trace is an error rather than a memory spike.
const maxAlignCells = 4 << 20

// callPair links an expected call and an observed call by index.
type callPair struct{ exp, obs int }

// callDiff is the alignment of an expected and an observed trace.
type callDiff struct {
	matched int
	wrong   []callPair // same place, different call
	missing []int      // expected indexes
	extra   []int      // observed indexes
	moved   []callPair // a missing call observed elsewhere
}

// diffCalls aligns the traces along a longest common subsequence. The
// unmatched calls between two matched ones are paired in order as wrong
// calls; what is left over is missing (expected) or extra (observed); a
// missing call equal to an extra one is reported as out of order.
func diffCalls(exp, obs []call) callDiff {
	n, m := len(exp), len(obs)
	// lcs[i][j] is the LCS length of exp[i:] and obs[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if same(exp[i], obs[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var d callDiff
	var gapExp, gapObs []int
	flush := func() {
		k := min(len(gapExp), len(gapObs))
		for x := range k {
			d.wrong = append(d.wrong, callPair{gapExp[x], gapObs[x]})
		}
		d.missing = append(d.missing, gapExp[k:]...)
		d.extra = append(d.extra, gapObs[k:]...)
		gapExp, gapObs = gapExp[:0], gapObs[:0]
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case same(exp[i], obs[j]):
			flush()
			d.matched++
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			gapExp = append(gapExp, i)
			i++
		default:
			gapObs = append(gapObs, j)
			j++
		}
	}
	for ; i < n; i++ {
		gapExp = append(gapExp, i)
	}
	for ; j < m; j++ {
		gapObs = append(gapObs, j)
	}
	flush()
	d.findMoved(exp, obs)
	return d
}

// findMoved turns a missing call that was observed elsewhere as an extra
// call into an out-of-order pair.
func (d *callDiff) findMoved(exp, obs []call) {
	var missing []int
	for _, e := range d.missing {
		found := -1
		for x, o := range d.extra {
			if same(exp[e], obs[o]) {
				found = x
				break
			}
		}
		if found < 0 {
			missing = append(missing, e)
			continue
		}
		d.moved = append(d.moved, callPair{e, d.extra[found]})
		d.extra = append(d.extra[:found:found], d.extra[found+1:]...)
	}
	d.missing = missing
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
			return fmt.Sprintf("#%d expected %s, observed %s (%s)", p.exp+1, exp[p.exp].describe(), obs[p.obs].describe(), differences(exp[p.exp], obs[p.obs]))
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
