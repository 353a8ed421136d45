// Package suggest finds the names closest to a misspelled one, for "did you mean" hints.
package suggest

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Closest returns up to limit of names that look like want, closest first
// (ties by name), for "did you mean" hints when a lookup finds nothing:
// names equal to want ignoring case, containing it or contained in it
// (ignoring case, when both have at least three letters), or within an
// edit distance of a third of its length (at least 2). want itself and
// repeated names are left out.
func Closest(want string, names []string, limit int) []string {
	if len(want) > MaxWant {
		return nil // no name is that long: nothing to measure
	}
	w := strings.ToLower(want)
	type scored struct {
		name string
		d    int
	}
	var hits []scored
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] || n == want {
			continue
		}
		seen[n] = true
		l := strings.ToLower(n)
		d := editDistance(w, l)
		switch {
		case l == w:
			d = 0
		case min(len([]rune(w)), len([]rune(l))) >= 3 && (strings.Contains(l, w) || strings.Contains(w, l)):
			// A one- or two-letter name is inside too many words to suggest.
			d = min(d, 1)
		case d > max(2, len([]rune(w))/3):
			continue
		}
		hits = append(hits, scored{n, d})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].name < hits[j].name
	})
	out := make([]string, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// MaxWant is the longest misspelled name Closest looks at: names are
// short, and the edit distance costs the product of both lengths.
const MaxWant = 256

// Quote is want quoted as Go string for a message, its first 64 bytes
// then " … (N bytes)" when it is longer, so that a huge value is never
// echoed whole.
func Quote(want string) string {
	const show = 64
	if len(want) <= show {
		return strconv.Quote(want)
	}
	cut := show
	for cut > 0 && !utf8.RuneStart(want[cut]) {
		cut--
	}
	return strconv.Quote(want[:cut]) + " … (" + strconv.Itoa(len(want)) + " bytes)"
}

// Hint is " (did you mean "a", "b"?)" for the Closest names, quoted as Go
// strings, or "" when none is close.
func Hint(want string, names []string, limit int) string {
	close := Closest(want, names, limit)
	if len(close) == 0 {
		return ""
	}
	quoted := make([]string, len(close))
	for i, n := range close {
		quoted[i] = strconv.Quote(n)
	}
	return " (did you mean " + strings.Join(quoted, ", ") + "?)"
}
