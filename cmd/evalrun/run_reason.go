package main

import (
	"fmt"
	"strings"
)

// Reasons in the run table are shown whole: a reason says what was
// expected and what was observed ("wrong: expected #1
// policies/lookup_policy {"topic":"returns"}, observed …"), and cutting
// any part of it hides the value the reader needs. On a terminal a reason
// is wrapped at word boundaries to the terminal's width, its continuation
// lines indented by reasonIndent; off a terminal (a CI log, a pipe) it
// stays on one line, which log viewers wrap themselves. Only a reason
// longer than maxReasonRunes (a judge's essay) is cut, at its end, with a
// pointer to where the whole text is.
const (
	maxReasonRunes = 4000
	reasonIndent   = "       "
)

// reasonLines is a reason laid out after a head of headW columns on a
// terminal of cols columns (0 off a terminal): one line off a terminal,
// else wrapped lines, the first to follow the head.
func reasonLines(reason string, headW, cols int) []string {
	text := strings.Join(strings.Fields(reason), " ")
	if r := []rune(text); len(r) > maxReasonRunes {
		text = string(r[:maxReasonRunes]) + fmt.Sprintf("… (%d more characters: the whole reason is in the reports and the dashboard)", len(r)-maxReasonRunes)
	}
	if cols <= 0 {
		return []string{text}
	}
	first := max(16, cols-1-headW)
	rest := max(16, cols-1-len(reasonIndent))
	return wrapWords(text, first, rest)
}

// wrapWords breaks text into lines of at most first columns (the first
// line) and rest columns (the others), at spaces; a word wider than its
// line is split.
func wrapWords(text string, first, rest int) []string {
	var lines []string
	var cur strings.Builder
	curW, room := 0, first
	flush := func() {
		lines = append(lines, cur.String())
		cur.Reset()
		curW, room = 0, rest
	}
	for _, word := range strings.Split(text, " ") {
		ww := displayWidth(word)
		if curW > 0 && curW+1+ww > room {
			flush()
		}
		for ww > room { // a word longer than a whole line
			if curW > 0 {
				flush()
			}
			head, tail := splitWidth(word, room)
			cur.WriteString(head)
			curW = displayWidth(head)
			flush()
			word, ww = tail, displayWidth(tail)
		}
		if curW > 0 {
			cur.WriteByte(' ')
			curW++
		}
		cur.WriteString(word)
		curW += ww
	}
	if curW > 0 || len(lines) == 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// splitWidth splits s after at most n columns (at least one rune).
func splitWidth(s string, n int) (string, string) {
	used := 0
	for i, r := range s {
		w := runeWidth(r)
		if used+w > n && i > 0 {
			return s[:i], s[i:]
		}
		used += w
	}
	return s, ""
}
