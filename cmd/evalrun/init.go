package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentevals-go/agentevals/scaffold"
	"github.com/agentevals-go/agentevals/suite"
)

// InitCmd scaffolds a runnable suite.
type InitCmd struct {
	Dir        string `arg:"" optional:"" default:"." name:"dir" help:"Directory for the suite (created if missing; default: the current directory)."`
	Agent      string `name:"agent" default:"command" enum:"command,worker" help:"command: one agent process per question; worker: long-lived processes answering one JSON line per question."`
	Lang       string `name:"lang" default:"python" enum:"python,node,ruby,sh,go" help:"Language of the agent stub: python, node, ruby, sh or go."`
	NoWorkflow bool   `name:"no-workflow" help:"Write no CI workflow (e.g. when the repository's CI already runs evalrun)."`
}

// Help is the detail under "evalrun init --help".
func (c *InitCmd) Help() string {
	return "Writes suite.json (deterministic checks: it runs offline, no judge or credential needed), golden.jsonl, " +
		"an agent stub, suite.schema.json for editors and a workflow that gates pull requests (unless --no-workflow): " +
		".github/workflows/evals.yml for a suite in evals/, evals-NAME.yml after the suite's folder otherwise (evals-evals2.yml for evals2/), " +
		"at the root of the git work tree holding DIR, else in DIR, where GitHub does not read it (init says so). " +
		"Then it prints the command that runs the suite. " +
		"An existing file is never overwritten: nothing is written and the files are named (exit 2)."
}

// Run writes the scaffold and prints the next command.
func (c *InitCmd) Run(ctx context.Context, g *Globals) error {
	res, err := scaffold.Write(scaffold.Options{Dir: c.Dir, Lang: c.Lang, Worker: c.Agent == "worker", Schema: suite.JSONSchema(), NoWorkflow: c.NoWorkflow})
	if errors.Is(err, scaffold.ErrExists) {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("init: %w", err)}
	}
	if err != nil {
		return &exitError{Code: exitFailed, Err: fmt.Errorf("init: %w", err)}
	}
	for _, f := range res.Files {
		fmt.Fprintf(g.Stdout, "wrote %s\n", displayPath(f))
	}
	if res.Compiled {
		dir := filepath.Dir(res.Suite)
		if err := scaffold.Build(ctx, dir); err != nil {
			fmt.Fprintf(g.Stderr, "note: the agent was not built now (run-agent.sh builds it on the first question): %v\n", err)
		} else {
			fmt.Fprintf(g.Stdout, "built %s\n", displayPath(filepath.Join(dir, "agent")))
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(g.Stderr, "note: %s\n", n)
	}
	fmt.Fprintf(g.Stdout, "\nNext: evalrun run %s\n", shellQuote(displayPath(res.Suite)))
	return nil
}

// displayPath is path relative to the working directory when it lies
// below it, else absolute.
func displayPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return rel
}
