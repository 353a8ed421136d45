package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// SuiteCmd groups the commands that work on suite files.
type SuiteCmd struct {
	Export SuiteExportCmd `cmd:"" help:"Write a Go suite file from a saved run's definition (e.g. a run written by the Ruby gem)."`
}

// SuiteExportCmd writes a suite file whose Go runs are equivalent to a
// saved run, so that run baselines them (docs/architecture.md, the fingerprint).
type SuiteExportCmd struct {
	RunID        string            `arg:"" name:"RUN_ID" help:"The run to export (a UUID from evalrun history)."`
	Output       string            `short:"o" name:"output" placeholder:"FILE" help:"Write the suite here instead of standard output (refuses to overwrite an existing file)."`
	AgentCommand string            `name:"agent-command" placeholder:"CMD" help:"The agent's command line, split on spaces (e.g. \"ruby agent.rb\"); without it the file holds a placeholder to edit."`
	Evaluator    map[string]string `name:"evaluator" placeholder:"NAME=TYPE" help:"Declare a metric name of the run as a suite evaluator of this built-in type (repeatable), for names a Ruby suite bound with evaluate(name, using:)."`
}

// Help explains the export.
func (c *SuiteExportCmd) Help() string {
	return `The file keeps the run's suite and agent names, version, and for every question its id, name, question, expected answer, expected actions, minimum scores and metadata exactly as saved, so the first Go run of it is equivalent to the exported run and is baselined by it (and by its later runs of the same definition).

Metrics whose names are no evaluator type (custom Ruby evaluator blocks) are left out and listed on standard error with what to do; map them with --evaluator NAME=TYPE when a built-in type does the same check. Metrics that need an LLM judge are calculated only when the Go run has one.

Exit 0 when written (read the warnings), 2 when the run is missing or cannot be exported.`
}

// agentDir is agent.dir for a suite written with -o: the working
// directory (where the agent command was typed, e.g. a Rails root for
// bin/rails) relative to the file's folder, so the command runs where it
// was written for. Standard output leaves it out.
func (c *SuiteExportCmd) agentDir() (string, error) {
	if c.Output == "" {
		return "", nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	out, err := filepath.Abs(c.Output)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(filepath.Dir(out), wd)
	if err != nil || rel == "." {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// Run exports the suite.
func (c *SuiteExportCmd) Run(ctx context.Context, g *Globals) error {
	db, err := g.open(ctx, true)
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	run, err := eval.LoadRun(ctx, db, c.RunID, "RUN_ID")
	if err != nil {
		return err
	}
	dir, err := c.agentDir()
	if err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("export suite: %w", err)}
	}
	exp, err := suite.ExportSuite(run, suite.ExportOptions{
		AgentCommand: strings.Fields(c.AgentCommand), AgentDir: dir, Evaluators: c.Evaluator, Registry: score.Builtins()})
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if c.Output == "" {
		if _, err := g.Stdout.Write(exp.File); err != nil {
			return fmt.Errorf("export suite: %w", err)
		}
	} else if err := os.MkdirAll(filepath.Dir(c.Output), 0o755); err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("export suite: %w", err)}
	} else if err := atomicfile.CreateNew(c.Output, exp.File, 0o644); err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("export suite: %w", err)}
	}
	for _, u := range exp.Unported {
		fmt.Fprintf(g.Stderr, "warning: metric %q not exported: %s\n", sanitize.EscapeText(u.Metric), sanitize.EscapeText(u.Advice))
	}
	for _, n := range exp.Notes {
		fmt.Fprintf(g.Stderr, "note: %s\n", sanitize.EscapeText(n))
	}
	if c.Output != "" {
		fmt.Fprintf(g.Stderr, "Wrote %s: %s of run %s; check it with evalrun validate %s\n",
			c.Output, questions(len(run.Cases)), run.ID, c.Output)
	}
	return nil
}
