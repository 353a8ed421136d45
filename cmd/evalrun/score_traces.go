package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/monitor"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
)

// ScoreTracesCmd scores one window of production traces with a monitor's
// checks, without calling the agent, and saves it as one run.
type ScoreTracesCmd struct {
	Monitor     string        `arg:"" name:"monitor" help:"Monitor file (JSON): which traces, the sample rate, max_cases and the reference-free checks."`
	Traces      []string      `name:"traces" sep:"none" placeholder:"FILE" help:"A collector's file export of traces (JSON lines or length-prefixed protobuf/JSON, optionally gzip or zstd); repeatable. Together the files are one window, saved as one run. Give --traces or --listen."`
	Listen      string        `name:"listen" placeholder:"ADDR" help:"Score a live window instead: listen as an OTLP/HTTP endpoint on ADDR (host:port, e.g. 127.0.0.1:4318; POST /v1/traces, protobuf or JSON, gzip or none) for --window, then score and save what arrived as one run. SIGINT or SIGTERM closes the window early: what arrived is scored and saved, and the output and the run's summary (production.closed_early) say so."`
	Window      time.Duration `name:"window" placeholder:"DURATION" help:"How long a live window (--listen) listens, e.g. 10m."`
	Shard       string        `name:"shard" placeholder:"I/N" help:"Score only shard I of N of the window (with --traces): every shard reads the whole window, so all N agree on its cases, and scores the cases at positions p with p mod N = I-1. Needs --save-to; join the N files with 'evalrun db:import --merge', which saves the window as one run, as if scored unsharded."`
	Metadata    string        `name:"metadata" placeholder:"JSON" help:"Run metadata as a JSON object, e.g. '{\"revision\":\"abc123\"}'."`
	Concurrency count         `name:"concurrency" short:"j" placeholder:"N" help:"Cases scored at once (judged metrics): 0 or omitted means min(4, number of cases)."`
	Report      []string      `name:"report" sep:"none" placeholder:"PATH" help:"Write a report of the window to PATH (repeatable); the extension picks the format, as for run."`
	SaveTo      string        `name:"save-to" placeholder:"FILE" help:"Write the window's run to this evidence file instead of the database."`
	NoSave      bool          `name:"no-save" help:"Dry run: save nothing; the table and reports are still written."`
	EvidenceDir string        `name:"evidence-dir" default:"${evidence_dir}" placeholder:"DIR" help:"Where a window that could not be saved to the database is written as DIR/<run-id>.json (exit 3)."`
	Alpha       float64       `name:"alpha" default:"0.01" placeholder:"A" help:"Family-wise false-alarm level of the drop tests, split over every metric's pass-rate and mean tests (0 < A < 1)."`
	Previous    int           `name:"previous" default:"5" placeholder:"N" help:"How many earlier windows of the monitor, pooled, this window is compared with."`
	DropsReport []string      `name:"drops-report" sep:"none" placeholder:"PATH" help:"Write the drop tests to PATH (.json or .md; repeatable)."`
	KeepPII     bool          `name:"keep-pii" help:"Store and show personal data as the traces hold it. By default production input passes the PII pass before anything is stored or shown: e-mail addresses [EMAIL], phone numbers [PHONE], card numbers that pass the Luhn check [CARD], IBANs with valid check digits [IBAN] and IP addresses other than loopback [IP], each case's response_metadata.sanitized.pii listing the columns changed (credentials are redacted either way)."`

	JudgeFlags
	SpendFlags
	HostFlag
}

// Run reads the window, scores it and saves it through the same path as run.
func (c *ScoreTracesCmd) Run(ctx context.Context, g *Globals) error {
	if !(c.Alpha > 0 && c.Alpha < 1) || c.Previous < 1 {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--alpha %g --previous %d: want 0 < alpha < 1 and at least 1 previous window", c.Alpha, c.Previous)}
	}
	for _, p := range c.DropsReport {
		if err := checkDir("--drops-report", p); err != nil {
			return asInvalid(err)
		}
	}
	if c.SaveTo != "" && c.NoSave {
		return &exitError{Code: exitInvalid, Err: errors.New("--save-to and --no-save: choose one")}
	}
	saveFlags := SaveFlags{SaveTo: c.SaveTo, NoSave: c.NoSave, EvidenceDir: c.EvidenceDir, Shard: c.Shard}
	shard, err := c.source(&saveFlags)
	if err != nil {
		return asInvalid(err)
	}
	meta, err := parseMetadata(c.Metadata)
	if err != nil {
		return asInvalid(err)
	}
	m, err := monitor.Load(c.Monitor)
	if err != nil {
		return asInvalid(err)
	}
	w, err := c.read(ctx, g, m)
	if err != nil {
		return asInvalid(fmt.Errorf("score-traces: %w; nothing was saved", err))
	}
	judge, err := c.judgeFor(ctx, w)
	if err != nil {
		return asInvalid(err)
	}
	spend, err := c.meter(c.built, m.MaxJudgeSpend, c.Monitor+": max_judge_spend")
	if err != nil {
		return err
	}
	var db *models.DB
	if saveFlags.usesDatabase() {
		if db, err = g.open(ctx, false); err != nil {
			return asInvalid(err)
		}
		defer db.Close()
	}
	reports, err := (&GateFlags{Report: c.Report}).targets()
	if err != nil {
		return asInvalid(err)
	}
	prov, meta := collectProvenance(ctx, m.Dir, meta, c.NoHost)
	record, scored := w.Record, w.Suite
	if shard != nil {
		scored, record = w.Suite.Shard(*shard), shardRecord(record, *shard)
	}
	task := eval.Task{Suite: scored, Agent: agent.Func(notCalled), Judge: judge, Reports: reports,
		Store: saveFlags.store(g, db, shard), Gate: eval.Gate{FailOn: eval.FailOnRegressions},
		Exec: eval.Exec{Concurrency: runner.Concurrency(int(c.Concurrency), len(scored.Cases)), Metadata: meta,
			JudgeDisabled: bool(c.NoJudge), JudgeSpend: spend, Provenance: prov, Observed: w.Observed,
			Sanitize: sanitize.Policy{PII: !c.KeepPII},
			ExtraSummary: func() map[string]any {
				extra := c.judgeSummary()
				if extra == nil {
					extra = map[string]any{}
				}
				extra[models.ProductionKey] = record
				return extra
			}}}
	if task.Store.File != "" {
		task.Store.Reason = "evalrun score-traces --save-to"
	}
	res, err := eval.Run(ctx, task)
	if res == nil || res.Comparison == nil {
		return asFailed(keptAnyway(g, res, err))
	}
	writeRunTable(g.Stdout, res.Run, where(res.Evidence, "not saved (--no-save: dry run)"), styleFor(g.Stdout, os.Getenv))
	writeCoverageWarnings(g.Stderr, res.Run)
	for _, n := range w.Notes {
		fmt.Fprintf(g.Stderr, "note: %s\n", sanitize.EscapeText(n))
	}
	writeWindowLine(g, m, w.Record)
	if shard != nil {
		fmt.Fprintf(g.Stdout, "Shard %d/%d: %d of the window's %d cases scored here; merge the %d files with evalrun db:import --merge\n",
			shard.Index, shard.Count, len(scored.Cases), len(w.Suite.Cases), shard.Count)
	}
	writeReports(g.Stdout, res.Reports)
	if err != nil {
		return asInvalid(err)
	}
	if res.Evidence.Kept == eval.Spooled {
		return &exitError{Code: exitNotSaved, Err: notSaved(g, res.Evidence)}
	}
	fell, err := c.checkDrops(ctx, g, db, res.Run)
	if err != nil {
		return asInvalid(err)
	}
	if fell {
		fmt.Fprintln(g.Stdout, "exit 1: a metric fell beyond noise against the previous windows")
		return &exitError{Code: exitFailed}
	}
	fmt.Fprintln(g.Stdout, "exit 0: no metric fell beyond noise")
	return nil
}

// notCalled is the agent of a production window: never asked, since every
// answer was observed in the traces.
func notCalled(context.Context, agent.Question) (agent.Response, error) {
	return agent.Response{}, errors.New("production scoring calls no agent")
}

// judgeFor builds the judge only when a check of the monitor needs one.
func (c *ScoreTracesCmd) judgeFor(ctx context.Context, w *monitor.Window) (score.Judge, error) {
	if !w.Suite.NeedsJudge() {
		return nil, nil
	}
	j, err := c.judge(ctx, w.Suite.Judge)
	if err != nil || j == nil {
		return nil, err
	}
	return j, nil
}

// writeWindowLine says what the window read, sampled and skipped.
func writeWindowLine(g *Globals, m *monitor.Monitor, p models.Production) {
	fmt.Fprintf(g.Stdout, "Window: monitor %q, %s to %s: %d cases read, %d sampled (rate %g), %d skipped (%d filtered, %d over max_cases, %d duplicates), %d scored\n",
		sanitize.EscapeText(m.Name), p.WindowStart.Format("2006-01-02T15:04:05Z07:00"), p.WindowEnd.Format("2006-01-02T15:04:05Z07:00"),
		p.Read, p.Sampled, p.Sample, p.Skipped, p.Filtered, p.Capped, p.Duplicates, p.Sampled-p.Skipped)
}
