package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// ExportOptions say how Export fills in what a persisted run does not keep.
type ExportOptions struct {
	// AgentCommand is the agent's command line in the suite file; nil
	// writes a placeholder to edit before the first run.
	AgentCommand []string
	// AgentDir is the agent's directory relative to the suite file's
	// folder (agent.dir): where the command runs and its relative program
	// is found. Empty leaves it out (the suite file's folder).
	AgentDir string
	// Evaluators map metric names of the run that are not evaluator types
	// (names a Ruby suite bound with evaluate(name, using:)) to a type of
	// the registry, declared as suite evaluators without parameters.
	Evaluators map[string]string
	// Registry is the evaluator registry the suite will run with.
	Registry score.Registry
}

// Unported is a metric of the run that the exported suite cannot
// calculate, with the questions that used it and what to do about it.
type Unported struct {
	Metric    string
	Questions []string
	Advice    string
}

// Export is a suite file written from a persisted run.
type Export struct {
	// File is the suite file (JSON, keys in the usual order).
	File []byte
	// Unported lists the metrics left out of minimum_scores.
	Unported []Unported
	// Notes are further things to do before the first run is equivalent to
	// the exported one (a judge for LLM metrics, an agent command).
	Notes []string
}

// PlaceholderCommand is the agent command of an export without one.
var PlaceholderCommand = []string{"./replace-with-your-agent"}

// exportedSuite and exportedQuestion fix the key order of the file.
type exportedSuite struct {
	Suite      string                       `json:"suite"`
	Version    string                       `json:"version"`
	Agent      exportedAgent                `json:"agent"`
	Evaluators map[string]exportedEvaluator `json:"evaluators,omitempty"`
	Questions  []exportedQuestion           `json:"questions"`
}

type exportedAgent struct {
	Name    string   `json:"name"`
	Command []string `json:"command"`
	Dir     string   `json:"dir,omitempty"`
}

type exportedEvaluator struct {
	Type   string          `json:"type"`
	Params json.RawMessage `json:"params,omitempty"`
}

// VerifierPlaceholder is the command of a metric exported as a verifier
// (--evaluator NAME=verifier): the Rails-side verifier that holds the
// gem's evaluate blocks (examples/rails_verifier).
var VerifierPlaceholder = []string{"bin/rails", "runner", "script/agentevals_verifier.rb"}

type exportedQuestion struct {
	ID              string          `json:"id"`
	Name            string          `json:"name,omitempty"`
	Question        json.RawMessage `json:"question,omitempty"`
	Turns           json.RawMessage `json:"turns,omitempty"`
	Scenario        json.RawMessage `json:"scenario,omitempty"`
	ExpectedAnswer  json.RawMessage `json:"expected_answer,omitempty"`
	ExpectedActions json.RawMessage `json:"expected_actions,omitempty"`
	MinimumScores   json.RawMessage `json:"minimum_scores"`
	Metadata        json.RawMessage `json:"metadata,omitempty"`
}

// ExportSuite writes a suite file from the persisted definition of run
// (suite, version, agent name, and per question its id, name, question,
// expected answer, expected actions, minimum scores and metadata, values
// copied byte for byte), so that a Go run of it has an equivalent
// definition (docs/architecture.md, the fingerprint) and the exported run is its automatic baseline.
// Metrics that are neither evaluator types of the registry nor mapped by
// opts.Evaluators are left out and listed in Unported: with them left out
// the definition is not equivalent until the user declares them. A
// question that would be left without any metric, or whose question is
// not a string or object, is an error: nothing is written.
func ExportSuite(run *models.Run, opts ExportOptions) (*Export, error) {
	out := exportedSuite{Suite: run.Suite, Version: run.Version,
		Agent: exportedAgent{Name: run.Agent, Command: opts.AgentCommand, Dir: opts.AgentDir}}
	exp := &Export{}
	if len(out.Agent.Command) == 0 {
		out.Agent.Command = PlaceholderCommand
		exp.Notes = append(exp.Notes, fmt.Sprintf("agent.command is the placeholder %q: replace it with the command that runs %s (or pass --agent-command)",
			PlaceholderCommand[0], run.Agent))
	}
	known := func(name string) (string, bool) {
		if typ, ok := opts.Evaluators[name]; ok {
			_, found := opts.Registry[typ]
			return typ, found
		}
		if def, ok := opts.Registry[name]; ok {
			if _, err := def.New(nil, checkJudge{}); err == nil {
				return name, true
			}
		}
		return "", false
	}
	for name, typ := range opts.Evaluators {
		if _, ok := opts.Registry[typ]; !ok {
			return nil, fmt.Errorf("export suite: evaluator %s=%s: unknown type %q (want one of %s)",
				name, typ, typ, strings.Join(opts.Registry.Names(), ", "))
		}
	}
	unported := map[string]*Unported{}
	var order []string
	judged, verifiers := map[string]bool{}, map[string]bool{}
	var problems []string
	for _, c := range run.Cases {
		q := exportedQuestion{ID: c.CaseID, Question: json.RawMessage(c.Question)}
		if c.Name != c.CaseID {
			q.Name = c.Name
		}
		conv, notes, isConv := exportConversation(c)
		if isConv {
			q.Question, q.Turns, q.Scenario = nil, conv.Turns, conv.Scenario
			exp.Notes = append(exp.Notes, notes...)
		}
		if t := firstByte(c.Question); t != '"' && t != '{' {
			problems = append(problems, fmt.Sprintf("question %q: the question is %s, want a string or an object", c.CaseID, describeJSON(c.Question)))
		}
		if !c.ExpectedAnswer.IsNull() {
			q.ExpectedAnswer = json.RawMessage(c.ExpectedAnswer)
		}
		if !c.ExpectedActions.IsNull() {
			q.ExpectedActions = json.RawMessage(c.ExpectedActions)
		}
		if !c.Metadata.IsNull() && !bytes.Equal(bytes.TrimSpace(c.Metadata), []byte("{}")) {
			q.Metadata = json.RawMessage(c.Metadata)
		}
		var scores []scoreMember
		if err := decodeScores(c.MinimumScores, &scores); err != nil {
			problems = append(problems, fmt.Sprintf("question %q: minimum_scores: %v", c.CaseID, err))
			continue
		}
		kept := scores[:0]
		var turnChecks []string
		for _, s := range scores {
			if isConv && isTurnMetric(s.name) {
				turnChecks = append(turnChecks, s.name)
				continue
			}
			typ, ok := known(s.name)
			if !ok {
				u := unported[s.name]
				if u == nil {
					u = &Unported{Metric: s.name}
					unported[s.name] = u
					order = append(order, s.name)
				}
				u.Questions = append(u.Questions, c.CaseID)
				continue
			}
			if typ != s.name {
				if out.Evaluators == nil {
					out.Evaluators = map[string]exportedEvaluator{}
				}
				ev := exportedEvaluator{Type: typ}
				if typ == score.Verifier {
					ev.Params, _ = json.Marshal(map[string]any{"command": VerifierPlaceholder, "worker": true})
					verifiers[s.name] = true
				}
				out.Evaluators[s.name] = ev
			}
			if opts.Registry[typ].NeedsJudge {
				judged[s.name] = true
			}
			kept = append(kept, s)
		}
		if len(turnChecks) > 0 {
			exp.Notes = append(exp.Notes, fmt.Sprintf("question %q: the turn checks %s were left out (the run saved their results, not their params): add them back as checks of their turns",
				c.CaseID, strings.Join(turnChecks, ", ")))
		}
		if len(kept) == 0 {
			problems = append(problems, fmt.Sprintf("question %q: no metric of its minimum_scores can be calculated in Go (map them with --evaluator NAME=TYPE)", c.CaseID))
			continue
		}
		q.MinimumScores = encodeScores(kept)
		out.Questions = append(out.Questions, q)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("export suite: run %s: %s", run.ID, strings.Join(problems, "; "))
	}
	for _, name := range order {
		u := unported[name]
		u.Advice = fmt.Sprintf("no evaluator type is called %q: if a built-in type does what the Ruby evaluator did, export again with --evaluator %s=TYPE; "+
			"if it was an `evaluate :%s do |output, context|` block, export again with --evaluator %s=verifier and move the block into a verifier (docs/outcome-checks.md); "+
			"otherwise implement it as a custom evaluator type and declare it under \"evaluators\", then add %q back to minimum_scores of %s",
			name, name, name, name, name, strings.Join(u.Questions, ", "))
		exp.Unported = append(exp.Unported, *u)
	}
	if len(exp.Unported) > 0 {
		exp.Notes = append(exp.Notes, "until the unported metrics are back in minimum_scores, Go runs of this file are not equivalent to the exported run and are not baselined by it")
	}
	if len(verifiers) > 0 {
		names := make([]string, 0, len(verifiers))
		for n := range verifiers {
			names = append(names, n)
		}
		slices.Sort(names)
		exp.Notes = append(exp.Notes, fmt.Sprintf("%s are exported as verifier checks running %q: fill in that script with the gem's evaluate blocks of the same names "+
			"(AgentevalsVerifier.evaluate, examples/rails_verifier and docs/outcome-checks.md), or change each command to your own verifier program; until then those checks error, they never pass",
			strings.Join(names, ", "), strings.Join(VerifierPlaceholder, " ")))
	}
	if len(judged) > 0 {
		names := make([]string, 0, len(judged))
		for n := range judged {
			names = append(names, n)
		}
		slices.Sort(names)
		exp.Notes = append(exp.Notes, fmt.Sprintf("%s need an LLM judge (--judge-model or a \"judge\" section): a run without one calculates other metrics than the exported run and is not baselined by it",
			strings.Join(names, ", ")))
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("export suite: %w", err)
	}
	exp.File = append(b, '\n')
	return exp, nil
}

// scoreMember is one name: threshold pair of minimum_scores, threshold kept
// as written.
type scoreMember struct {
	name      string
	threshold json.RawMessage
}

// decodeScores reads a minimum_scores object in its key order.
func decodeScores(raw models.JSON, out *[]scoreMember) error {
	if raw.IsNull() {
		return fmt.Errorf("missing: the run did not save its minimum scores")
	}
	ms, ok := members(json.RawMessage(raw))
	if !ok {
		return fmt.Errorf("want an object of metric names and thresholds, got %s", describeJSON(raw))
	}
	for _, m := range ms {
		*out = append(*out, scoreMember{name: m.key, threshold: m.value})
	}
	return nil
}

// encodeScores writes minimum_scores in the given order.
func encodeScores(ms []scoreMember) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, m.name)
		b.WriteByte(':')
		b.Write(bytes.TrimSpace(m.threshold))
	}
	b.WriteByte('}')
	return b.Bytes()
}

func firstByte(j models.JSON) byte {
	t := bytes.TrimSpace(j)
	if len(t) == 0 {
		return 0
	}
	return t[0]
}

// describeJSON names the kind of a JSON column value for messages.
func describeJSON(j models.JSON) string {
	if j.IsNull() {
		return "null"
	}
	return describe(json.RawMessage(j))
}
