package dashboard

import (
	"strings"
	"unicode"
)

// maxDiffCells bounds the word-diff table (words of one text × words of the
// other, after the common start and end are set aside): beyond it the two
// middles are shown as one removal and one addition.
const maxDiffCells = 1_000_000

// diffPart is a run of words that both texts share (Op "="), that only the
// new text has ("+") or that only the old text has ("-").
type diffPart struct {
	Op   string
	Text string
}

// wordDiff is a word-level diff from old to new: the texts are cut into
// words and the whitespace or punctuation between them, and the longest
// common subsequence of those pieces is kept. The result is plain text
// parts; the page escapes them inside <ins> and <del>.
type wordDiff struct {
	Parts []diffPart
	// Same is true when the texts are equal.
	Same bool
	// Coarse is true when the texts were too long to compare word by word.
	Coarse bool
}

// diffWords compares old and new word by word.
func diffWords(old, new string) wordDiff {
	d, _ := diffWordsWithin(old, new, maxDiffCells)
	return d
}

// diffWordsWithin is diffWords with at most cells table cells (a page
// comparing many answers shares one budget); it returns the cells used.
func diffWordsWithin(old, new string, cells int) (wordDiff, int) {
	if old == new {
		return wordDiff{Same: true, Parts: []diffPart{{"=", new}}}, 0
	}
	a, b := splitWords(old), splitWords(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var d wordDiff
	d.add("=", a[:pre])
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	used := 0
	if len(am)*len(bm) > min(cells, maxDiffCells) {
		d.Coarse = true
		d.add("-", am)
		d.add("+", bm)
	} else {
		used = len(am) * len(bm)
		d.lcs(am, bm)
	}
	d.add("=", a[len(a)-suf:])
	d.Parts = joinChanges(d.Parts)
	return d, used
}

// joinChanges reads better than word-by-word alternation: whitespace kept
// between two changes joins them, so "[-You can-]{+Returns+} [-return-]{+are+}"
// becomes "[-You can return-]{+Returns are+}".
func joinChanges(parts []diffPart) []diffPart {
	var out []diffPart
	for i := 0; i < len(parts); {
		if parts[i].Op == "=" {
			out = append(out, parts[i])
			i++
			continue
		}
		var del, ins strings.Builder
		j := i
		for j < len(parts) {
			p := parts[j]
			if p.Op == "=" {
				// Only whitespace followed by another change is absorbed.
				if strings.TrimSpace(p.Text) != "" || j+1 >= len(parts) || parts[j+1].Op == "=" {
					break
				}
				del.WriteString(p.Text)
				ins.WriteString(p.Text)
			} else if p.Op == "-" {
				del.WriteString(p.Text)
			} else {
				ins.WriteString(p.Text)
			}
			j++
		}
		if del.Len() > 0 && del.String() != ins.String() {
			out = append(out, diffPart{"-", del.String()})
		}
		if ins.Len() > 0 && del.String() != ins.String() {
			out = append(out, diffPart{"+", ins.String()})
		}
		i = j
	}
	return out
}

// lcs appends the diff of a and b from a longest-common-subsequence table.
func (d *wordDiff) lcs(a, b []string) {
	n, m := len(a), len(b)
	// l[i][j] is the LCS length of a[i:] and b[j:], in one flat slice.
	l := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return l[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i*(m+1)+j] = at(i+1, j+1) + 1
			} else {
				l[i*(m+1)+j] = max(at(i+1, j), at(i, j+1))
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			d.add("=", a[i:i+1])
			i, j = i+1, j+1
		case at(i+1, j) >= at(i, j+1):
			d.add("-", a[i:i+1])
			i++
		default:
			d.add("+", b[j:j+1])
			j++
		}
	}
	d.add("-", a[i:])
	d.add("+", b[j:])
}

// add appends words under op, merging with the previous part of that op.
func (d *wordDiff) add(op string, words []string) {
	if len(words) == 0 {
		return
	}
	text := strings.Join(words, "")
	if n := len(d.Parts); n > 0 && d.Parts[n-1].Op == op {
		d.Parts[n-1].Text += text
		return
	}
	d.Parts = append(d.Parts, diffPart{Op: op, Text: text})
}

// splitWords cuts s into words (letters and digits) and the single other
// characters or whitespace runs between them, so that joining the pieces
// gives s back.
func splitWords(s string) []string {
	var out []string
	start := -1
	kind := 0 // 1 word, 2 space
	flush := func(i int) {
		if start >= 0 {
			out = append(out, s[start:i])
		}
		start, kind = -1, 0
	}
	for i, r := range s {
		k := 3
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			k = 1
		case unicode.IsSpace(r):
			k = 2
		}
		if k != kind || k == 3 {
			flush(i)
			start, kind = i, k
		}
	}
	flush(len(s))
	return out
}
