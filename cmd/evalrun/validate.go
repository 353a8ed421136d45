package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// ValidateCmd checks a suite file without running it.
type ValidateCmd struct {
	Suite string `arg:"" name:"suite" help:"Suite file to check (or a monitor file: JSON with a \"monitor\" key)."`
}

// Run loads the suite and reports every problem (exit 2) or a short
// description (exit 0). It makes every check that run makes before calling
// the agent and that needs neither the database nor a credential: the agent
// section, the judge section and every metric's scorer (suite.Suite.Check).
// Credentials and header values belong to the machine, not the suite: an
// unset one is a note on stderr, not a failure.
func (c *ValidateCmd) Run(g *Globals) error {
	if isMonitorFile(c.Suite) {
		return validateMonitor(g, c.Suite)
	}
	s, err := suite.Load(c.Suite)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if err := s.Validate(); err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if err := checkProgram(g.Stderr, c.Suite, s.Agent); err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	writeSuiteWarnings(g.Stderr, s)
	names := s.Calculated(true)
	repeat := ""
	if s.Repeat > 1 {
		repeat = fmt.Sprintf(", each answered %d times (repeat)", s.Repeat)
	}
	fmt.Fprintf(g.Stdout, "%s: ok: suite %q version %q, agent %q (%s), %s%s, metrics: %s\n",
		c.Suite, sanitize.EscapeText(s.Name), sanitize.EscapeText(s.Version), sanitize.EscapeText(s.Agent.Name), s.Agent.Type,
		questions(len(s.Cases)), repeat, sanitize.EscapeText(strings.Join(names, ", ")))
	for _, v := range s.Env() {
		if os.Getenv(v.Name) == "" {
			fmt.Fprintf(g.Stderr, "note: run reads %s (for %s), which is not set here\n", sanitize.EscapeText(v.Name), sanitize.EscapeText(v.For))
		}
	}
	return nil
}

// writeSuiteWarnings prints the suite's warnings (problems that do not
// stop a run) on w, one "warning: …" line each.
func writeSuiteWarnings(w io.Writer, s *suite.Suite) {
	for _, p := range s.Warnings {
		fmt.Fprintf(w, "warning: %s\n", sanitize.EscapeText(p.String()))
	}
}

// checkProgram refuses a command or worker agent whose program is named by
// a path (./agent.sh, bin/agent) that is missing or not executable: the
// suite is wrong wherever it runs. A bare name not on PATH here may be on
// the machine that runs the suite, so it is a note, as an unset variable is.
func checkProgram(w io.Writer, path string, cfg suite.AgentConfig) error {
	err := adapter.FindProgram(cfg)
	if err == nil {
		return nil
	}
	if !strings.ContainsRune(cfg.Command[0], filepath.Separator) {
		fmt.Fprintf(w, "note: %s: agent %q: %s; run's preflight will refuse it on a machine without it\n",
			path, sanitize.EscapeText(cfg.Name), sanitize.EscapeText(err.Error()))
		return nil
	}
	return fmt.Errorf("%s: $.agent.command[0]: %w (run starts the agent in agent.dir, itself relative to the suite file's folder, else in the suite file's folder, and resolves a relative program there: set agent.dir to the folder the command is written for, e.g. \"dir\": \"..\" when the suite sits one folder below it)", path, err)
}
