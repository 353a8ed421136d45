package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/term"
	"golang.org/x/text/width"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/show"
)

// progress shows a bar on a terminal and plain lines otherwise.
type progress struct {
	w     io.Writer
	total int
	// cols returns the terminal's width; nil when w is not a terminal.
	cols  func() int
	shown bool // a bar is on the terminal's current line
	// rates, when set, describes the provider request rates ("" if none).
	rates func() string
	// now is the clock of the elapsed time and the ETA; began is when the
	// first question started, and failed and errored count the questions
	// so far.
	now             func() time.Time
	began           time.Time
	failed, errored int
}

// defaultCols is the width assumed when a terminal does not report one.
const defaultCols = 80

// newProgress draws a bar when w is a terminal and the run is not in CI
// (see inCI): CI logs keep every line, so they get one line per case.
func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total, now: time.Now}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) && !inCI(os.Getenv) {
		fd := int(f.Fd())
		p.cols = func() int {
			if c, _, err := term.GetSize(fd); err == nil && c > 0 {
				return c
			}
			return defaultCols
		}
	}
	return p
}

// start draws an empty bar on a terminal, so a slow first case does not
// leave the screen blank.
func (p *progress) start() {
	if p.now == nil {
		p.now = time.Now
	}
	p.began = p.now()
	if p.cols != nil {
		p.draw(0, "")
	}
}

// update is called once per finished case, never concurrently.
func (p *progress) update(ev runner.Progress) {
	c := ev.Case
	switch c.Status {
	case models.StatusFailed:
		p.failed++
	case models.StatusError:
		p.errored++
	}
	status := p.timing(ev.Done, ev.Total)
	switch {
	case p.errored > 0:
		status = fmt.Sprintf("%d failed, %s · %s", p.failed, show.Count(p.errored, "error", "errors"), status)
	case p.failed > 0:
		status = fmt.Sprintf("%d failed · %s", p.failed, status)
	}
	rates := ""
	if p.rates != nil {
		if r := p.rates(); r != "" {
			rates = " · " + r
		}
	}
	if p.cols == nil {
		fmt.Fprintf(p.w, "[%d/%d] %-13s %s (%.0f ms) · %s%s\n", ev.Done, ev.Total, c.Status, clip(sanitize.EscapeText(c.CaseID), 60), c.DurationMS, status, rates)
		return
	}
	// On the bar the counts come first: the last question's id is cut
	// first on a narrow terminal.
	p.draw(ev.Done, status+" · "+c.Status+" "+sanitize.EscapeText(c.CaseID)+rates)
}

// timing is "elapsed 1m05s, ETA 40s": the time since the first question
// started and the remaining questions at the mean pace so far.
func (p *progress) timing(done, total int) string {
	if p.now == nil {
		p.now = time.Now
	}
	if p.began.IsZero() {
		p.began = p.now()
	}
	elapsed := p.now().Sub(p.began)
	s := "elapsed " + shortDuration(elapsed)
	if done > 0 && done < total {
		s += ", ETA " + shortDuration(elapsed*time.Duration(total-done)/time.Duration(done))
	}
	return s
}

// shortDuration rounds d for a progress line: tenths of a second under a
// minute, whole seconds above.
func shortDuration(d time.Duration) string {
	if d < time.Minute {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// finish clears the bar, so what follows (the run's table, or an error
// such as an interruption) starts on a clean line.
func (p *progress) finish() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// draw rewrites the bar line: "[####......] done/total last", cut to the
// terminal's width minus one column. A line that wrapped would leave its
// first row behind, as "\r\x1b[K" clears only the row the cursor is on.
func (p *progress) draw(done int, last string) {
	cols := p.cols() - 1
	width := min(30, max(5, cols/3))
	filled := width * done / max(1, p.total)
	line := fmt.Sprintf("[%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, p.total)
	if room := cols - displayWidth(line) - 1; last != "" && room >= 4 {
		line += " " + clipWidth(last, room)
	}
	fmt.Fprint(p.w, "\r\x1b[K"+clipWidth(line, cols))
	p.shown = true
}

// runeWidth is the number of terminal columns r takes: 2 for East Asian
// wide and fullwidth runes, 0 for combining marks, else 1.
func runeWidth(r rune) int {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	case width.LookupRune(r).Kind() == width.EastAsianWide || width.LookupRune(r).Kind() == width.EastAsianFullwidth:
		return 2
	}
	return 1
}

func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

// clipWidth shortens s to at most n terminal columns, ending in "…" when cut.
func clipWidth(s string, n int) string {
	if displayWidth(s) <= n {
		return s
	}
	var b strings.Builder
	used := 0
	for _, r := range s {
		w := runeWidth(r)
		if used+w > n-1 {
			break
		}
		b.WriteRune(r)
		used += w
	}
	if n > 0 {
		b.WriteString("…")
	}
	return b.String()
}

// clip shortens s to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func fmtScore(f *float64) string {
	if f == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", *f)
}

func floatOf(v any) float64 {
	f, _ := v.(float64)
	return f
}

// metadataWidth bounds history's metadata column, in runes.
const metadataWidth = 48

// metadataCell is a compact excerpt of a run's metadata for history, so
// runs of one definition can be told apart: "revision=abc123, branch=main",
// revision first, then the other keys sorted; strings bare, other values as
// compact JSON; control characters stripped and the whole clipped. "-" when
// the metadata is empty or unreadable.
func metadataCell(meta models.JSON) string {
	var m map[string]any
	if err := meta.Decode(&m); err != nil || len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == "revision":
			return -1
		case b == "revision":
			return 1
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		v, ok := m[k].(string)
		if !ok {
			b, _ := json.Marshal(m[k])
			v = string(b)
		}
		parts[i] = k + "=" + v
	}
	return clip(strings.Join(strings.Fields(sanitize.EscapeText(strings.Join(parts, ", "))), " "), metadataWidth)
}

// writeCoverageWarnings tells, on stderr after the run's table, what the
// run did not check (runner.Coverage): questions not evaluated and metrics
// left uncalculated, e.g. LLM metrics without a judge. The exit code stays
// as specified (docs/architecture.md, Semantics), so this is where a CI log shows that a green
// run checked less than its suite asks for.
func writeCoverageWarnings(w io.Writer, run *models.Run) {
	writeSpendCap(w, run)
	cov := runner.CoverageOf(run)
	quality := ""
	if !runFailed(run) {
		quality = "; exit 0 does not claim quality"
	}
	if cov.Questions > 0 && cov.NotEvaluated == cov.Questions {
		fmt.Fprintf(w, "warning: NOTHING WAS EVALUATED: no metric was calculated on any question (%s), so this run checked nothing%s\n",
			questions(cov.Questions), quality)
	} else if cov.NotEvaluated > 0 {
		fmt.Fprintf(w, "warning: %d of %s not evaluated (no metric calculated): they count neither as passed nor as failed\n",
			cov.NotEvaluated, questions(cov.Questions))
	}
	for _, u := range cov.Uncalculated {
		names := make([]string, len(u.Metrics))
		for i, n := range u.Metrics {
			names[i] = clip(sanitize.EscapeText(n), 30)
		}
		also := ""
		switch {
		case u.Passed == 1 && u.Questions == 1:
			also = " (it shows passed on its other checks alone)"
		case u.Passed > 0 && u.Passed == u.Questions:
			also = " (all of them show passed on their other checks alone)"
		case u.Passed > 0:
			also = fmt.Sprintf(" (%d of them show passed on their other checks alone)", u.Passed)
		}
		reason, hint := sanitize.EscapeText(u.Reason), ""
		switch {
		case u.NoJudge():
			hint = "; give --judge-model (or a judge section in the suite) to calculate them"
		case u.JudgeDisabled():
			reason = "judge disabled by --no-judge"
			hint = "; run without --no-judge (and EVAL_NO_JUDGE unset) to calculate them with the suite's judge"
		}
		fmt.Fprintf(w, "warning: %s: %s not calculated on %s%s%s%s\n", reason, strings.Join(names, ", "),
			questions(u.Questions), also, quality, hint)
	}
}

// writeSpendCap says when the judge spend cap stopped the judging: what
// was spent and how many judged metrics were left out.
func writeSpendCap(w io.Writer, run *models.Run) {
	sum, err := models.DecodeRunSummary(run.Summary)
	if err != nil || sum.JudgeSpend == nil || !sum.JudgeSpend.Reached {
		return
	}
	js := sum.JudgeSpend
	fmt.Fprintf(w, "warning: judge spend cap reached: the judge's calls cost $%s of the $%s cap; %s not calculated\n",
		js.Spent, js.Limit, show.Count(js.NotCalculated, "judged metric", "judged metrics"))
}

// questions is "1 question", "3 questions".
func questions(n int) string { return show.Count(n, "question", "questions") }

// showProgress shows the execution's progress on stderr: a bar on a
// terminal, a line per question otherwise; rates, when not nil, adds the
// request rates to it.
//
// Plain lines are written in batches (see lineBatch), and Finished, which
// eval.Run calls before anything else is printed, writes the last of them.
func showProgress(g *Globals, e *eval.Exec, total int, rates func() string) {
	prog := newProgress(g.Stderr, total)
	prog.rates = rates
	finish := prog.finish
	if prog.cols == nil {
		batch := &lineBatch{w: g.Stderr, every: progressDelay}
		prog.w = batch
		finish = func() {
			batch.flush()
			prog.finish()
		}
	}
	e.Started, e.Progress, e.Finished = prog.start, prog.update, finish
}

// progressDelay is how late a plain progress line may be written.
const progressDelay = 50 * time.Millisecond

// lineBatch keeps the progress lines written to it and writes them to w
// together, at most every long after the first of them (and on flush):
// off a terminal a line per case was a write(2) per case, 5,000 writes at
// 5,000 cases, each waking the CI log's reader.
type lineBatch struct {
	w     io.Writer
	every time.Duration
	mu    sync.Mutex
	buf   []byte
	timer *time.Timer // armed while buf holds lines
}

// Write keeps p and arms the flush.
func (b *lineBatch) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if b.timer == nil {
		b.timer = time.AfterFunc(b.every, b.flush)
	}
	return len(p), nil
}

// flush writes what is kept.
func (b *lineBatch) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if len(b.buf) > 0 {
		_, _ = b.w.Write(b.buf)
		b.buf = b.buf[:0]
	}
}

// inStage wraps the message of an error of eval.Run from stage with wrap,
// keeping its exit code; other errors are returned as they are.
func inStage(err error, stage eval.Stage, wrap func(error) error) error {
	var e *eval.Error
	if !errors.As(err, &e) || e.Stage != stage {
		return err
	}
	return &exitError{Code: e.Code, Stage: e.Stage, Err: wrap(e.Err)}
}
