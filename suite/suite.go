package suite

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/internal/suggest"
	"github.com/agentevals-go/agentevals/replay"
	"github.com/agentevals-go/agentevals/score"
)

// Suite is a loaded, validated suite file.
type Suite struct {
	// Path is the suite file as given to Load; Dir is its directory, against
	// which every relative path in the suite resolves.
	Path, Dir string
	Name      string
	Version   string
	Agent     AgentConfig
	// Judge is the suite's judge section; nil when the suite names none.
	Judge *ModelConfig
	// Evaluators are the suite's named evaluators in file order.
	Evaluators []Evaluator
	// Defaults are the metrics of questions that declare no minimum_scores,
	// as the suite's "defaults" states them; DefaultsStated is false when
	// the suite has no "defaults" (the gem's rule applies: runner/checks.go).
	Defaults       []Metric
	DefaultsStated bool
	// Warnings are problems that do not stop a run (validate prints them):
	// e.g. a check with a fixed value defaulted onto many questions.
	Warnings []Problem
	// Cases are the questions in suite order (inline questions, then the
	// golden set's lines).
	Cases []*Case
	// Registry builds the scorers; Load uses score.Builtins().
	Registry score.Registry
	// Repeat is the suite's "repeat" key: how many times every question is
	// answered and judged (1..MaxRepeat; 0 when the key is absent, which
	// means 1). evalrun's --repeat overrides it. It is not part of the
	// digest: the mean of K repeats estimates the same expected score
	// whatever K is.
	Repeat int
	// Traces is the suite's "traces" key: receive the agent's spans during
	// the run (evalrun run --traces). Not part of the digest.
	Traces bool
	// Databases are the application databases state checks and SQL steps
	// read (suite/outcome.go); Setup and Teardown run around every question.
	Databases       []Database
	Setup, Teardown []Step
	// TracesListen is the suite's "traces_listen" key: the host:port the
	// run's OTLP receiver listens on (evalrun run --traces-listen), so a
	// service started outside the run can export to it; it turns tracing
	// on. Not part of the digest.
	TracesListen string

	// whole is the suite a shard was cut from (nil unless Shard made s);
	// positions are the suite positions of a shard's cases.
	whole     *Suite
	positions []int
	// memo keeps the last digest computed (Load sets it; nil: none kept).
	memo *digestMemo
	// typed are the scorers of registry types used by name without
	// parameters, built once while Load parses (nil: none kept).
	typed  typeScorers
	sealed bool
}

// Evaluator is a suite-level evaluator: a name bound to a registry type,
// its parameters and a default threshold.
type Evaluator struct {
	Name      string
	Type      string
	Params    json.RawMessage
	Threshold float64

	// scorer is built once, by Load, with score.ContextJudge (nil in an
	// evaluator made by hand: Suite.Scorer builds it then).
	scorer score.Scorer
}

// Metric is one metric a case is scored on, with its inclusive threshold.
type Metric struct {
	Name      string
	Threshold float64
}

// Case is one loaded question with its defaults applied.
type Case struct {
	ID   string
	Name string
	// Question is the question data sent to the agent: a JSON string or object.
	Question json.RawMessage
	// ExpectedAnswer is the reference answer (nil when absent).
	ExpectedAnswer json.RawMessage
	// ExpectedActions is the raw expected trace (nil when absent) and its
	// decoded form.
	ExpectedActions    json.RawMessage
	ExpectedActionList []score.Action
	// Metrics are the minimum scores in file order (defaults applied),
	// then the inline checks.
	Metrics []Metric
	// Checks are the question's inline checks ("checks"), each a metric of
	// this question only (runner/checks.go).
	Checks []Evaluator
	// Metadata is evaluation context as a JSON object (never nil).
	Metadata json.RawMessage
	// Context holds retrieval passages for judges (golden-set "context").
	// The saved case row keeps them in its metadata under "context" unless
	// Metadata has that key (see Plan).
	Context []string
	// APIInteractions is the raw "api_interactions" section (nil when absent).
	APIInteractions json.RawMessage
	// Replay is the loaded api_interactions (nil when absent): validated,
	// response bodies snapshotted; Definition folds it into the digest
	// (runner/replay.go).
	Replay *replay.Fixtures
	// Conversation is set when the question is asked over several turns
	// (suite/conversation.go); nil for a single question.
	Conversation *Conversation
	// Source is where the case was declared, for messages: "file: $.questions[2]".
	Source     string
	file, path string
	// defaulted names the metrics that came from the suite's defaults.
	defaulted []string
}

// defaultThreshold is the threshold of the gem's default metrics.
const defaultThreshold = 0.9

// defaultMetrics are the gem's defaults for a question without
// minimum_scores when the suite declares no evaluators.
var defaultMetrics = [...]string{"semantic_accuracy", "answer_relevancy"}

// Load reads, validates and resolves a suite file (JSON, or YAML when the
// name ends in .yaml/.yml) with the built-in evaluator types. Every problem
// is reported at once in a *ValidationError.
func Load(path string) (*Suite, error) {
	return LoadWithRegistry(path, score.Builtins())
}

// LoadWithRegistry is Load with an explicit evaluator registry (for custom
// evaluator types).
func LoadWithRegistry(path string, reg score.Registry) (*Suite, error) {
	var list []Problem
	p := Problems{File: path, List: &list}
	data, err := readBounded(path, bounds.Defaults().MaxBytes)
	if err != nil {
		p.add("", "cannot read the suite file: %v", err)
		return nil, &ValidationError{Problems: list}
	}
	yamlFile := false
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".yaml" || ext == ".yml" {
		yamlFile = true
	}
	if !p.bounded(data, yamlFile) {
		return nil, &ValidationError{Problems: list}
	}
	if yamlFile {
		var ok bool
		if data, ok = yamlToJSON(p, data); !ok {
			return nil, &ValidationError{Problems: list}
		}
	}
	if !yamlFile && readsAsYAML(data) {
		p.add("$", "want valid JSON, but this file is YAML: rename it to %s.yaml (or .yml) to load it as YAML, or write it as JSON",
			strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
		return nil, &ValidationError{Problems: list}
	}
	if !p.Portable(data) {
		return nil, &ValidationError{Problems: list}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		p.add("", "cannot resolve the suite path: %v", err)
		return nil, &ValidationError{Problems: list}
	}
	s := &Suite{Path: path, Dir: filepath.Dir(abs), Registry: reg, memo: &digestMemo{}, typed: typeScorers{}}
	s.parse(p, data)
	s.seal()
	if len(list) > 0 {
		return nil, &ValidationError{Problems: list}
	}
	return s, nil
}

// readsAsYAML reports whether data, which does not parse as JSON and does
// not start like JSON ("{" or "[": a JSON file with a typo), is a YAML
// mapping: a suite written in YAML but saved as .json.
func readsAsYAML(data []byte) bool {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] == '{' || t[0] == '[' || json.Valid(t) {
		return false
	}
	var scratch []Problem
	out, ok := yamlToJSON(Problems{File: "", List: &scratch}, data)
	return ok && len(out) > 0 && out[0] == '{'
}

// topKeys are the keys a suite file may have.
var topKeys = []string{"$schema", "suite", "version", "agent", "judge", "evaluators", "defaults", "questions", "golden_set", "repeat", "traces", "traces_listen", "databases", "setup", "teardown"}

// topLevelHint is the "did you mean" of an unknown top-level key (a
// "question" key: "questions"), "" when no key is close.
func topLevelHint(key string) string { return suggest.Hint(key, topKeys, 1) }

func (s *Suite) parse(p Problems, data []byte) {
	top := p.objectKeyHint("$", data, topLevelHint, topKeys...)
	if top == nil {
		return
	}
	if raw, ok := top["suite"]; ok {
		s.Name, _ = p.nonEmpty("$.suite", raw)
	} else {
		p.add("$.suite", "missing: want the suite's name")
	}
	s.Version = "1"
	if raw, ok := top["version"]; ok {
		s.Version, _ = p.nonEmpty("$.version", raw)
	}
	if raw, ok := top["agent"]; ok {
		s.Agent = parseAgent(p, "$.agent", raw, s.Dir)
	} else {
		p.add("$.agent", "missing: want an object with at least a name")
	}
	if raw, ok := top["repeat"]; ok {
		s.Repeat, _ = p.repeat("$.repeat", raw)
	}
	if raw, ok := top["traces"]; ok {
		switch string(raw) {
		case "true", "false":
			s.Traces = string(raw) == "true"
		default:
			p.add("$.traces", "want true or false, got %s", describe(raw))
		}
	}
	if raw, ok := top["databases"]; ok {
		s.parseDatabases(p, raw)
	}
	if raw, ok := top["setup"]; ok {
		s.Setup = s.parseSteps(p, "$.setup", raw)
	}
	if raw, ok := top["teardown"]; ok {
		s.Teardown = s.parseSteps(p, "$.teardown", raw)
	}
	if raw, ok := top["traces_listen"]; ok {
		if s.TracesListen, ok = p.str("$.traces_listen", raw); ok {
			if err := CheckListenAddress(s.TracesListen); err != nil {
				p.add("$.traces_listen", "%v", err)
			}
		}
	}
	if raw, ok := top["judge"]; ok && !isNull(raw) {
		s.Judge = parseModel(p, "$.judge", raw)
	}
	if raw, ok := top["evaluators"]; ok {
		s.parseEvaluators(p, raw)
	}
	if raw, ok := top["defaults"]; ok {
		s.parseDefaults(p, raw)
	}
	if raw, ok := top["questions"]; ok {
		var items []json.RawMessage
		if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
			p.add("$.questions", "want an array of questions, got %s", describe(raw))
		}
		for i, item := range items {
			if c := s.parseQuestion(p, Index("$.questions", i), item); c != nil {
				s.Cases = append(s.Cases, c)
			}
		}
	}
	if raw, ok := top["golden_set"]; ok {
		if rel, ok := p.nonEmpty("$.golden_set", raw); ok {
			s.loadGolden(p, rel)
		}
	}
	if _, ok := top["questions"]; !ok {
		if _, ok := top["golden_set"]; !ok {
			p.add("$.questions", "missing: want questions or a golden_set")
		}
	}
	if len(s.Cases) == 0 && len(*p.List) == 0 {
		p.add("$.questions", "want at least one question (inline or in the golden set)")
	}
	s.checkIDs(p)
	s.warnDefaults()
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// defaultMetricList is what a question without minimum_scores is scored on.
func (s *Suite) defaultMetricList() []Metric {
	if s.DefaultsStated {
		return append([]Metric(nil), s.Defaults...)
	}
	if len(s.Evaluators) > 0 {
		out := make([]Metric, len(s.Evaluators))
		for i, ev := range s.Evaluators {
			out[i] = Metric{Name: ev.Name, Threshold: ev.Threshold}
		}
		return out
	}
	out := make([]Metric, len(defaultMetrics))
	for i, n := range defaultMetrics {
		out[i] = Metric{Name: n, Threshold: defaultThreshold}
	}
	return out
}

func (s *Suite) checkIDs(p Problems) {
	seen := map[string]string{}
	for _, c := range s.Cases {
		if first, dup := seen[c.ID]; dup {
			Problems{File: c.file, List: p.List}.add(c.path+".id", "duplicate id %q (first used at %s)", c.ID, first)
			continue
		}
		seen[c.ID] = c.Source
	}
}

// Only returns a copy of the suite restricted to the given case ids (or
// glob patterns), in suite order: Select with only IDs.
func (s *Suite) Only(ids []string) (*Suite, error) {
	return s.Select(Selection{IDs: ids})
}

// MaxRepeat bounds --repeat and the suite's "repeat" key.
const MaxRepeat = 100
