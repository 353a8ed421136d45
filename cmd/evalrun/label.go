package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/agentevals-go/agentevals/calibrate"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// LabelCmd lets a person label a run's judge verdicts, the cases worth
// their time first, in the terminal or in a file filled in elsewhere.
type LabelCmd struct {
	RunID  string `arg:"" name:"RUN_ID" help:"The run whose judge verdicts are labelled: its id, or a unique part of it (its last 8 characters, or a prefix) as report and compare take."`
	Suite  string `name:"suite" placeholder:"FILE" help:"The run's suite file: the labels are kept next to it (suite.json → suite.labels.jsonl)."`
	Labels string `name:"labels" placeholder:"FILE" help:"The labels file (default: next to --suite)."`
	Rater  string `name:"rater" placeholder:"NAME" help:"Who labels (default: the login name)."`
	Limit  int    `name:"limit" default:"20" placeholder:"N" help:"Label at most N cases this session."`
	Queue  string `name:"queue" default:"calibrate" enum:"calibrate,review" help:"calibrate (default): a random sample of the run's judge verdicts, in an order fixed by the run, for evalrun calibrate and --min-kappa; review: the verdicts worth a second look (see below), whose kappa understates the judge."`
	Export string `name:"export" placeholder:"FILE" help:"Instead of asking in the terminal, write the cases to FILE (JSONL, a new file): fill in each row's \"label\" with \"pass\" or \"fail\" and append the rows to the labels file, or give the file to calibrate --labels as it is."`
}

// Help is the detail under "evalrun label --help".
func (c *LabelCmd) Help() string {
	return "--queue calibrate (the default) gives the run's judge verdicts in a random order fixed by the run, so the labels are a fair sample and kappa measures the judge over all its verdicts. " +
		"--queue review gives only the verdicts worth a second look, in this order: a judge verdict that contradicts a deterministic check of the same question, a score within 0.1 of its threshold, " +
		"a question whose repeats disagree, a question a pairwise judge tied; hard cases by design, so their kappa is not the judge's. Cases already in the labels file are left out of both. " +
		"For each case the question, the expected answer, the answer and the judge's score and reason are shown; type p (pass), f (fail), s (skip) or q (quit), " +
		"then an optional note. Each label is appended at once with who gave it and when (the file is never rewritten), so quitting loses nothing. " +
		"Then: evalrun calibrate RUN_ID --labels FILE reports kappa, agreement, TPR and TNR per judge metric."
}

// Run picks the cases and asks, or exports them.
func (c *LabelCmd) Run(ctx context.Context, g *Globals) error {
	path := c.Labels
	if path == "" && c.Suite != "" {
		path = calibrate.DefaultLabelsPath(c.Suite)
	}
	if path == "" && c.Export == "" {
		return &exitError{Code: exitInvalid, Err: errors.New("label: give --suite FILE (labels are kept next to it) or --labels FILE")}
	}
	if c.Limit < 1 {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--limit: want a whole number >= 1, got %d", c.Limit)}
	}
	var done []calibrate.Label
	var err error
	if path != "" {
		if done, err = calibrate.ReadLabelsFile(path); err != nil {
			return &exitError{Code: exitInvalid, Err: err}
		}
	}
	db, err := g.open(ctx, true)
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	run, err := eval.LoadRun(ctx, db, c.RunID, "label: RUN_ID")
	if err != nil {
		return err
	}
	queue := calibrate.QueueOf(run, done, c.Queue)
	more := len(queue) - c.Limit
	if more > 0 {
		queue = queue[:c.Limit]
	}
	if len(queue) == 0 {
		fmt.Fprintf(g.Stdout, "Nothing to label in the %s queue: every such judge verdict of this run is labelled (or none was calculated).\n", c.Queue)
		return nil
	}
	if c.Export != "" {
		if err := c.export(g, run, queue); err != nil {
			return err
		}
		c.sayMore(g, more)
		return nil
	}
	if !term.IsTerminal(int(os.Stdin.Fd())) {
		return &exitError{Code: exitInvalid, Err: errors.New("label: standard input is not a terminal; use --export FILE to label in a file")}
	}
	if err := c.ask(ctx, g, run, queue, path, bufio.NewReader(os.Stdin)); err != nil {
		return err
	}
	c.sayMore(g, more)
	return nil
}

// sayMore tells how many cases of the queue were left for another
// session.
func (c *LabelCmd) sayMore(g *Globals, more int) {
	if more > 0 {
		word := "cases"
		if more == 1 {
			word = "case"
		}
		fmt.Fprintf(g.Stdout, "%d more %s in the %s queue (a larger --limit, or another session, takes them)\n", more, word, c.Queue)
	}
}

// ask shows one case at a time and appends each answer to path.
func (c *LabelCmd) ask(ctx context.Context, g *Globals, run *models.Run, queue []calibrate.QueueItem, path string, in *bufio.Reader) error {
	rater := c.rater()
	labelled := 0
	for i, it := range queue {
		if ctx.Err() != nil {
			break
		}
		showCase(g.Stdout, i+1, len(queue), it)
		key, ok := prompt(g.Stdout, in, "[p]ass, [f]ail, [s]kip or [q]uit: ", "p", "f", "s", "q")
		if !ok || key == "q" {
			break
		}
		if key == "s" {
			continue
		}
		note, _ := readLine(g.Stdout, in, "note (Enter for none): ")
		rec := calibrate.NewLabelRecord(it.Case.CaseID, it.Metric.Name, key == "p", sanitize.String(note), rater, run.ID.String(), time.Now())
		if err := calibrate.AppendLabel(path, rec); err != nil {
			return err
		}
		labelled++
	}
	fmt.Fprintf(g.Stdout, "\n%d labelled, appended to %s\n", labelled, sanitize.EscapeText(path))
	return nil
}

// showCase prints what a person needs to decide, every untrusted string
// escaped for the terminal.
func showCase(w io.Writer, n, total int, it calibrate.QueueItem) {
	m := it.Metric
	reason := ""
	if m.Reason != nil {
		reason = *m.Reason
	}
	fmt.Fprintf(w, "\n[%d/%d] %s · %s (%s)\n", n, total, sanitize.EscapeText(it.Case.CaseID), sanitize.EscapeText(m.Name), it.Why)
	fmt.Fprintf(w, "  question: %s\n", sanitize.EscapeText(textOf(it.Case.Question)))
	fmt.Fprintf(w, "  expected: %s\n", sanitize.EscapeText(textOf(it.Case.ExpectedAnswer)))
	fmt.Fprintf(w, "  answer:   %s\n", sanitize.EscapeText(textOf(it.Case.Output)))
	fmt.Fprintf(w, "  judge:    %.3f (minimum %.3f, %s): %s\n", *m.Score, m.Threshold, passWord(m.Passed), sanitize.EscapeText(reason))
}

// prompt asks until one of keys is typed; ok is false at end of input.
func prompt(w io.Writer, in *bufio.Reader, ask string, keys ...string) (string, bool) {
	for {
		line, ok := readLine(w, in, ask)
		if !ok {
			return "", false
		}
		k := strings.ToLower(strings.TrimSpace(line))
		for _, want := range keys {
			if k != "" && k[:1] == want {
				return want, true
			}
		}
		fmt.Fprintf(w, "  type one of %s\n", strings.Join(keys, ", "))
	}
}

// readLine prints ask and reads one line (at most 4 KiB kept).
func readLine(w io.Writer, in *bufio.Reader, ask string) (string, bool) {
	fmt.Fprint(w, ask)
	line, err := in.ReadString('\n')
	if err != nil && line == "" {
		return "", false
	}
	line = strings.TrimRight(line, "\r\n")
	if len(line) > 4096 {
		line = line[:4096]
	}
	return line, true
}

func (c *LabelCmd) rater() string {
	if c.Rater != "" {
		return sanitize.String(c.Rater)
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}

func passWord(p bool) string {
	if p {
		return "pass"
	}
	return "fail"
}

// textOf is a stored JSON value as text: a string's value, else its JSON.
func textOf(j models.JSON) string {
	var s string
	if json.Unmarshal(j, &s) == nil {
		return s
	}
	return string(j)
}

// export writes the queue as rows to fill in.
func (c *LabelCmd) export(g *Globals, run *models.Run, queue []calibrate.QueueItem) error {
	var b strings.Builder
	for _, it := range queue {
		reason := ""
		if it.Metric.Reason != nil {
			reason = *it.Metric.Reason
		}
		row := map[string]any{"case_id": it.Case.CaseID, "metric": it.Metric.Name, "label": nil, "note": "",
			"rater": c.rater(), "run_id": run.ID.String(), "why": it.Why,
			"question": textOf(it.Case.Question), "expected_answer": textOf(it.Case.ExpectedAnswer),
			"answer": textOf(it.Case.Output), "judge_score": *it.Metric.Score, "judge_reason": reason}
		line, err := json.Marshal(row)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := atomicfile.CreateNew(c.Export, []byte(b.String()), 0o644); err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--export: %w", err)}
	}
	fmt.Fprintf(g.Stdout, "wrote %d cases to %s: set each \"label\" to \"pass\" or \"fail\"\n", len(queue), sanitize.EscapeText(c.Export))
	return nil
}
