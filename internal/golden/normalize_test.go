package golden

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// normalizer replaces the values that differ from one run to the next
// with stable tokens. One normalizer serves one scenario, so an id gets
// the same token in every table, JSON column, report and output.
type normalizer struct {
	ids   map[string]string
	subst [][2]string // literal replacements, longest first
}

func newNormalizer() *normalizer { return &normalizer{ids: map[string]string{}} }

// literal replaces every occurrence of from (a temp dir, the module root,
// the judge's URL) with to.
func (n *normalizer) literal(from, to string) {
	n.subst = append(n.subst, [2]string{from, to})
	slices.SortStableFunc(n.subst, func(a, b [2]string) int { return len(b[0]) - len(a[0]) })
}

// id returns the token of an id, numbered in order of first appearance.
// key carries a namespace for integer ids ("case:3"), so that ids of
// different tables never share a token.
func (n *normalizer) id(key string) string {
	if tok, ok := n.ids[key]; ok {
		return tok
	}
	tok := fmt.Sprintf("<id-%d>", len(n.ids)+1)
	n.ids[key] = tok
	return tok
}

var (
	uuidRe = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	// timeRe keeps the separator and what follows the seconds (zone,
	// " UTC"), so a change of layout still shows; the fraction is part
	// of the token because its trailing zeros are trimmed.
	timeRe = regexp.MustCompile(`\b\d{4}-\d\d-\d\d([T ])\d\d:\d\d:\d\d(?:\.\d+)?`)
	// msKeyRe is a wall-clock duration in JSON (a run's, a case's, a
	// repeat's).
	msKeyRe = regexp.MustCompile(`("duration_ms"\s*:\s*)-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`)
	// runTimeRe is the run's wall-clock time on the run table, a Go
	// duration ("Time: 10ms", "Time: 1.386s").
	runTimeRe = regexp.MustCompile(`\bTime: (?:\d+(?:\.\d+)?(?:h|ms|m|s|µs|us|ns))+\b`)
	// progressMsRe is a case's wall-clock time on its progress line.
	progressMsRe = regexp.MustCompile(` \(\d+ ms\)`)
	// progressPaceRe is the failure count, elapsed time and ETA after it,
	// which vary with the completion order and the clock.
	progressPaceRe = regexp.MustCompile(` · (?:\d+ failed(?:, \d+ errors?)? · )?elapsed [0-9.a-zµ]+(?:, ETA [0-9.a-zµ]+)?`)
	// junitTimeRe is a JUnit duration in seconds.
	junitTimeRe = regexp.MustCompile(`\btime="\d+(?:\.\d+)?"`)
	// rateNoteRe is the request-rate note ending a progress line once a
	// provider made a request ("· judge 7.0 req/s (avg 462.6)").
	rateNoteRe = regexp.MustCompile(` · (?:(?:agent|judge) \d+\.\d req/s \(avg \d+\.\d(?:; \d+ rate-limited, (?:paced at \d+\.\d/s|paced at one request per \d+ s|not paced yet))?\)(?:, |$))+$`)
	// pythonUARe is the agent's HTTP client version, the machine's Python.
	pythonUARe = regexp.MustCompile(`Python-urllib/\d+\.\d+`)
	// provenanceRe is the provenance object of a run summary (in a JSON
	// report, or escaped inside the summary column of the rows): where the
	// checkout is, its commit, branch, remote and dirty flag, the host and
	// the CI all depend on the machine and the checkout the test runs in,
	// even which keys are present (no remote, a detached HEAD).
	provenanceRe = regexp.MustCompile(`(\\?"provenance\\?"\s*:\s*)\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}`)
	// sourceLineRe is the same provenance as a report shows it.
	sourceLineRe = regexp.MustCompile(`(?m)^(Source    |- Source: )[^\n]*|(<dd id="source">).*?</dd>`)
	// baselineGitRe is the branch and commit a recorded decision names for
	// its baseline (in the summary, escaped inside a column or not; left
	// out, since which of them git gives depends on the checkout), and
	// baselineMadeRe the same in a report's "made on BRANCH at COMMIT":
	// both are the checkout's, like the provenance they come from.
	baselineGitRe  = regexp.MustCompile(`\\?"(?:branch|commit)\\?"\s*:\s*\\?"[^"\\]*\\?",?\s*`)
	baselineMadeRe = regexp.MustCompile(`made on \S+ at (?:<commit12>|[0-9a-f]+)(?:-dirty)?|made on \S+ \(commit not recorded\)|made at commit \S+ \(branch not recorded\)`)
	// revisionRe is the revision filled from git (the commit, with
	// "-dirty" when the checkout had changes) once the commit literal is
	// replaced.
	revisionRe = regexp.MustCompile(`<commit12>(?:-dirty)?`)
)

// text normalizes free text: report files, outputs and JSON columns,
// whose bytes are otherwise kept exactly.
func (n *normalizer) text(s string) string {
	for _, r := range n.subst {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	s = uuidRe.ReplaceAllStringFunc(s, func(m string) string { return n.id(strings.ToLower(m)) })
	s = timeRe.ReplaceAllStringFunc(s, func(m string) string {
		return "<date>" + timeRe.FindStringSubmatch(m)[1] + "<time>"
	})
	s = msKeyRe.ReplaceAllString(s, "${1}<ms>")
	s = runTimeRe.ReplaceAllString(s, "Time: <duration>")
	s = junitTimeRe.ReplaceAllString(s, `time="<s>"`)
	s = provenanceRe.ReplaceAllString(s, "${1}<provenance>")
	s = baselineGitRe.ReplaceAllString(s, "")
	s = baselineMadeRe.ReplaceAllString(s, "made at <checkout>")
	s = sourceLineRe.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "<dd") {
			return `<dd id="source"><source></dd>`
		}
		return sourceLineRe.ReplaceAllString(m, "${1}<source>")
	})
	s = revisionRe.ReplaceAllString(s, "<revision>")
	return pythonUARe.ReplaceAllString(s, "Python-urllib/<version>")
}

var progressRe = regexp.MustCompile(`^\[\d+/(\d+)\] (.*)$`)

// stderr normalizes standard error: the progress lines ("[2/3] passed
// returns (9 ms)") come in completion order, which concurrency makes
// random, so each block of them loses its counter and is sorted, and
// their rate note, on the lines that finished after the first provider
// request, is dropped when it has the expected form.
func (n *normalizer) stderr(s string) string {
	lines := strings.Split(n.text(s), "\n")
	for i := 0; i < len(lines); {
		if !progressRe.MatchString(lines[i]) {
			i++
			continue
		}
		j := i
		for j < len(lines) && progressRe.MatchString(lines[j]) {
			m := progressRe.FindStringSubmatch(lines[j])
			lines[j] = "[<n>/" + m[1] + "] " + progressMsRe.ReplaceAllString(progressPaceRe.ReplaceAllString(rateNoteRe.ReplaceAllString(m[2], ""), ""), " (<ms> ms)")
			j++
		}
		slices.Sort(lines[i:j])
		i = j
	}
	return strings.Join(lines, "\n")
}
