// Package monitor reads monitor files: which production traces to score,
// how many, and with which reference-free checks; and turns the cases read
// from a window of traces into a suite scored without calling the agent.
package monitor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/money"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// DefaultMaxCases is how many cases one window scores when the monitor
// file gives no max_cases.
const DefaultMaxCases = 1000

// Monitor is a loaded, validated monitor file.
type Monitor struct {
	// Path is the file as given to Load; Dir its directory.
	Path, Dir string
	// Name is the monitor's name: the runs' suite name.
	Name string
	// Agent is the agent's name: the runs' agent column.
	Agent string
	// Traces chooses the traces to score.
	Traces Filter
	// Sample is the share of traces scored (0 < Sample <= 1), chosen by a
	// hash of the trace or conversation id.
	Sample float64
	// MaxCases caps the cases scored per window.
	MaxCases int
	// MaxJudgeSpend caps what the judge's calls may cost per window in
	// USD; "" for no cap.
	MaxJudgeSpend money.Decimal

	judge, checks json.RawMessage
	registry      score.Registry
	// Check is the suite of one placeholder question the checks were
	// validated in: its metric names and judge needs.
	Check *suite.Suite
}

// Filter chooses traces: every field given must match.
type Filter struct {
	// Service is the resource's service.name.
	Service string `json:"service,omitempty"`
	// RootSpan is the name of the trace's root span (a span without a
	// parent in the trace).
	RootSpan string `json:"root_span,omitempty"`
	// AgentName is gen_ai.agent.name on any span of the trace.
	AgentName string `json:"agent_name,omitempty"`
	// Attributes must each equal an attribute of some span of the trace.
	Attributes map[string]string `json:"attributes,omitempty"`
}

var (
	topKeys    = []string{"$schema", "monitor", "agent", "traces", "sample", "max_cases", "max_judge_spend", "judge", "checks"}
	filterKeys = []string{"service", "root_span", "agent_name", "attributes"}
)

// Load reads and validates a monitor file with the built-in check types.
// Every problem is reported at once in a *suite.ValidationError.
func Load(path string) (*Monitor, error) { return LoadWithRegistry(path, score.Builtins()) }

// LoadWithRegistry is Load with an explicit check registry.
func LoadWithRegistry(path string, reg score.Registry) (*Monitor, error) {
	var list []suite.Problem
	add := func(at, format string, args ...any) {
		list = append(list, suite.Problem{File: path, Path: at, Message: fmt.Sprintf(format, args...)})
	}
	fail := func() error { return &suite.ValidationError{Problems: list, What: "monitor"} }
	data, err := bounds.ReadFile(path, bounds.Defaults().MaxBytes)
	if err != nil {
		add("", "cannot read the monitor file: %v", err)
		return nil, fail()
	}
	if err := bounds.Defaults().CheckJSON(data); err != nil {
		add("$", "%v", err)
		return nil, fail()
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		add("", "cannot resolve the monitor path: %v", err)
		return nil, fail()
	}
	m := &Monitor{Path: path, Dir: filepath.Dir(abs), Sample: 1, MaxCases: DefaultMaxCases, registry: reg}
	top, ok := object(data, "$", topKeys, add)
	if !ok {
		return nil, fail()
	}
	m.Name = text(top, "monitor", "the monitor's name (the runs' suite name)", add)
	m.Agent = text(top, "agent", "the agent's name (the runs' agent column)", add)
	if raw, ok := top["traces"]; ok {
		m.Traces = parseFilter(raw, add)
	}
	if raw, ok := top["sample"]; ok {
		if json.Unmarshal(raw, &m.Sample) != nil || !(m.Sample > 0 && m.Sample <= 1) {
			add("$.sample", "want a share of traces above 0 and at most 1 (0.1 scores 10 %%), got %s", raw)
		}
	}
	if raw, ok := top["max_cases"]; ok {
		if json.Unmarshal(raw, &m.MaxCases) != nil || m.MaxCases < 1 {
			add("$.max_cases", "want a whole number of cases per window, at least 1, got %s", raw)
		}
	}
	if raw, ok := top["max_judge_spend"]; ok {
		m.MaxJudgeSpend = spendCap(raw, add)
	}
	m.judge, m.checks = top["judge"], top["checks"]
	if m.checks == nil {
		add("$.checks", "missing: want an array of reference-free checks (trace, tool, error_spans, step_budget, judged metrics without an expected answer)")
	} else if b := bytes.TrimSpace(m.checks); len(b) == 0 || b[0] != '[' || string(b) == "[]" {
		add("$.checks", "want a non-empty array of checks, got %s", m.checks)
	}
	if len(list) > 0 {
		return nil, fail()
	}
	s, err := m.suite([]question{{ID: "trace", Question: "production trace"}})
	if err != nil {
		return nil, err
	}
	m.Check = s
	return m, nil
}

// spendCap reads max_judge_spend: a positive number of USD, as a JSON
// number or a string holding one ("2.50").
func spendCap(raw json.RawMessage, add func(string, string, ...any)) money.Decimal {
	text := string(bytes.TrimSpace(raw))
	var s string
	if json.Unmarshal(raw, &s) == nil {
		text = s
	}
	d, err := money.ParseDecimal(text)
	if r := d.Rat(); err != nil || r == nil || r.Sign() <= 0 {
		add("$.max_judge_spend", "want a positive number of USD the judge may spend per window, e.g. \"2.50\", got %s", describe(raw))
		return ""
	}
	return d
}

// object decodes an object and refuses keys not in allowed.
func object(raw json.RawMessage, at string, allowed []string, add func(string, string, ...any)) (map[string]json.RawMessage, bool) {
	var obj map[string]json.RawMessage
	if b := bytes.TrimSpace(raw); len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &obj) != nil {
		add(at, "want an object, got %s", describe(raw))
		return nil, false
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ok := true
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			add(at+"."+k, "unknown key; want one of %s", strings.Join(allowed, ", "))
			ok = false
		}
	}
	return obj, ok
}

func text(top map[string]json.RawMessage, key, want string, add func(string, string, ...any)) string {
	raw, ok := top[key]
	var s string
	switch {
	case !ok:
		add("$."+key, "missing: want %s", want)
	case json.Unmarshal(raw, &s) != nil || strings.TrimSpace(s) == "":
		add("$."+key, "want %s as a non-empty string, got %s", want, describe(raw))
	}
	return s
}

func parseFilter(raw json.RawMessage, add func(string, string, ...any)) Filter {
	var f Filter
	obj, ok := object(raw, "$.traces", filterKeys, add)
	if !ok {
		return f
	}
	for key, dst := range map[string]*string{"service": &f.Service, "root_span": &f.RootSpan, "agent_name": &f.AgentName} {
		if v, ok := obj[key]; ok && (json.Unmarshal(v, dst) != nil || *dst == "") {
			add("$.traces."+key, "want a non-empty string, got %s", describe(v))
		}
	}
	if v, ok := obj["attributes"]; ok && (json.Unmarshal(v, &f.Attributes) != nil || f.Attributes == nil) {
		add("$.traces.attributes", "want an object of attribute names to string values, got %s", describe(v))
	}
	return f
}

func describe(raw json.RawMessage) string {
	if len(raw) > 60 {
		return string(raw[:60]) + "…"
	}
	return string(raw)
}
