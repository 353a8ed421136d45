package suite

import (
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"path/filepath"
	"reflect"
	"testing"
)

func metricsOf(c *Case) map[string]float64 {
	out := map[string]float64{}
	for _, m := range c.Metrics {
		out[m.Name] = m.Threshold
	}
	return out
}

func TestLoad_Defaults(t *testing.T) {
	s := mustLoad(t, `{
	  "suite": "S", "agent": {"name": "A", "command": ["true"]},
	  "questions": [
	    {"question": "How long do returns take?", "expected_answer": "30 days"},
	    {"name": "named", "question": {"text": "structured"}, "expected_answer": "a"},
	    {"question": {"text": "structured"}, "expected_answer": "b"},
	    {"id": "q4", "question": "Hi", "expected_answer": "Hello", "minimum_scores": {"exact_match": 1, "answer_relevancy": 0.5}}
	  ]}`)
	if got, want := s.Version, "1"; got != want {
		t.Errorf("Version = %q, want %q", got, want)
	}
	tests := []struct {
		id, name string
		metrics  map[string]float64
	}{
		{"How long do returns take?", "How long do returns take?", map[string]float64{"semantic_accuracy": 0.9, "answer_relevancy": 0.9}},
		{"named", "named", map[string]float64{"semantic_accuracy": 0.9, "answer_relevancy": 0.9}},
		{"Question 3", "Question 3", map[string]float64{"semantic_accuracy": 0.9, "answer_relevancy": 0.9}},
		{"q4", "Hi", map[string]float64{"exact_match": 1, "answer_relevancy": 0.5}},
	}
	for i, tt := range tests {
		c := s.Cases[i]
		if c.ID != tt.id || c.Name != tt.name {
			t.Errorf("case %d: id, name = %q, %q, want %q, %q", i, c.ID, c.Name, tt.id, tt.name)
		}
		if got := metricsOf(c); !reflect.DeepEqual(got, tt.metrics) {
			t.Errorf("case %d: metrics = %v, want %v", i, got, tt.metrics)
		}
		if string(c.Metadata) != "{}" {
			t.Errorf("case %d: metadata = %s, want {}", i, c.Metadata)
		}
	}
	if got, want := s.Cases[3].Metrics[0].Name, "exact_match"; got != want {
		t.Errorf("metric order: first = %q, want %q (file order)", got, want)
	}
}

func TestLoad_EvaluatorsBecomeDefaults(t *testing.T) {
	s := mustLoad(t, `{
	  "suite": "S", "agent": {"name": "A", "command": ["true"]},
	  "evaluators": {
	    "short": {"type": "max_words", "params": {"limit": 12}, "threshold": 0.8},
	    "exact": {"type": "exact_match"},
	    "sem": {"type": "semantic_accuracy"}
	  },
	  "questions": [{"question": "Hi", "expected_answer": "Hello"}, {"question": "Yo", "minimum_scores": {"short": 1, "valid_json": 1}}]}`)
	if got, want := s.Cases[0].Metrics, []Metric{{"short", 0.8}, {"exact", 1}, {"sem", 0.9}}; !reflect.DeepEqual(got, want) {
		t.Errorf("defaults = %v, want %v", got, want)
	}
	if got, want := metricsOf(s.Cases[1]), map[string]float64{"short": 1, "valid_json": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("explicit = %v, want %v", got, want)
	}
	if got, want := s.Calculated(false), []string{"exact", "short", "valid_json"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Calculated(false) = %v, want %v", got, want)
	}
	if got, want := s.Calculated(true), []string{"exact", "sem", "short", "valid_json"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Calculated(true) = %v, want %v", got, want)
	}
}

func TestLoad_YAMLMatchesJSON(t *testing.T) {
	dir := t.TempDir()
	js := testfile.Write(t, dir, "suite.json", `{"suite": "S", "version": "2", "agent": {"name": "A", "command": ["sh", "a.sh"], "timeout": "5s"},
	  "questions": [{"id": "q", "question": "Hi?", "expected_answer": "Hello", "metadata": {"facts": ["a", 1.0]},
	    "minimum_scores": {"exact_match": 1}}]}`)
	ym := testfile.Write(t, dir, "suite.yaml", `
suite: S
version: "2"
agent: {name: A, command: [sh, a.sh], timeout: 5s}
questions:
  - id: q
    question: Hi?
    expected_answer: Hello
    metadata:
      facts: [a, 1]
    minimum_scores:
      exact_match: 1
`)
	a, err := Load(js)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(ym)
	if err != nil {
		t.Fatal(err)
	}
	da, _ := a.Digest(a.Calculated(false))
	db, _ := b.Digest(b.Calculated(false))
	if da != db {
		t.Errorf("digests differ: json %s, yaml %s", da, db)
	}
	if !reflect.DeepEqual(a.Agent, b.Agent) {
		t.Errorf("agents differ: %+v vs %+v", a.Agent, b.Agent)
	}
}

func TestLoad_GoldenSetRelativeToSuite(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "evals/data/golden.jsonl", `{"id": "g1", "input": "What is 2+2?", "expected": "4", "context": ["2+2=4"], "meta": {"topic": "math"}}

{"input": {"text": "structured"}, "expected": {"n": 1}}
`)
	path := testfile.Write(t, dir, "evals/suite.json", `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
	  "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "inline", "question": "Hi", "expected_answer": "Hello"}], "golden_set": "data/golden.jsonl"}`)
	t.Chdir(t.TempDir()) // paths must not depend on the working directory
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(s.Cases), 3; got != want {
		t.Fatalf("cases = %d, want %d", got, want)
	}
	g := s.Cases[1]
	if g.ID != "g1" || string(g.ExpectedAnswer) != `"4"` || !reflect.DeepEqual(g.Context, []string{"2+2=4"}) || string(g.Metadata) != `{"topic":"math"}` {
		t.Errorf("golden case = %+v", g)
	}
	if got, want := s.Cases[2].ID, "Question 3"; got != want {
		t.Errorf("structured golden id = %q, want %q", got, want)
	}
	if got := metricsOf(g); !reflect.DeepEqual(got, map[string]float64{"exact": 1}) {
		t.Errorf("golden metrics = %v", got)
	}
	if s.Agent.Dir != filepath.Join(dir, "evals") {
		t.Errorf("agent dir = %q, want the suite's directory", s.Agent.Dir)
	}
}

func TestSuite_Only(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
	  "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "a", "question": "1", "expected_answer": "1"}, {"id": "b", "question": "2", "expected_answer": "2"},
	    {"id": "c", "question": "3", "expected_answer": "3"}]}`)
	only, err := s.Only([]string{"c", "a"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range only.Cases {
		ids = append(ids, c.ID)
	}
	if want := []string{"a", "c"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids = %v, want %v (suite order)", ids, want)
	}
	if len(s.Cases) != 3 {
		t.Errorf("Only changed the original suite")
	}
	if _, err := s.Only([]string{"zzz"}); err == nil {
		t.Errorf("Only(unknown) succeeded")
	}
}
