package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxReasonRunes bounds a metric's reason in the text and Markdown
// reports. Reasons are shown whole up to it: a reason names what was
// expected and what was observed, and cutting its middle (or its end at a
// hundred characters) hides the very value a reader needs. A longer
// reason, in practice a judge's essay, is cut at its end, saying where the
// whole text is.
const MaxReasonRunes = 4000

// wholeReason is a reason for a report line: its runs of white space
// (newlines included) collapsed to one space, kept whole up to
// MaxReasonRunes, else cut at its end with a pointer to the JSON report.
func wholeReason(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= MaxReasonRunes {
		return s
	}
	r := []rune(s)
	return string(r[:MaxReasonRunes]) + fmt.Sprintf("… (%d more characters: the whole reason is in the JSON report and the dashboard)", len(r)-MaxReasonRunes)
}
