package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/monitor"
	"github.com/agentevals-go/agentevals/sanitize"
)

// isMonitorFile reports whether path is a JSON object with a "monitor"
// key: a monitor file, which validate checks as score-traces loads it.
func isMonitorFile(path string) bool {
	if strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") {
		return false
	}
	data, err := bounds.ReadFile(path, bounds.Defaults().MaxBytes)
	if err != nil || !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		return false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, ok := top["monitor"]
	return ok
}

// validateMonitor loads a monitor file and describes it (exit 0) or
// reports every problem (exit 2).
func validateMonitor(g *Globals, path string) error {
	m, err := monitor.Load(path)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if m.Check.Judge != nil { // the checks were built by Load; the judge section is checked here, as validate checks a suite's
		if err := m.Check.Judge.Settings().Validate(); err != nil {
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("%s: $.judge: %w", path, err)}
		}
	}
	for _, v := range m.Check.Env() {
		if os.Getenv(v.Name) == "" {
			fmt.Fprintf(g.Stderr, "note: score-traces reads %s (for %s), which is not set here\n", sanitize.EscapeText(v.Name), sanitize.EscapeText(v.For))
		}
	}
	fmt.Fprintf(g.Stdout, "%s: ok: monitor %q, agent %q, sample %g, at most %d cases a window, checks: %s\n",
		path, sanitize.EscapeText(m.Name), sanitize.EscapeText(m.Agent), m.Sample, m.MaxCases,
		sanitize.EscapeText(strings.Join(m.Check.Calculated(true), ", ")))
	return nil
}
