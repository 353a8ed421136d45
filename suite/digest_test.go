package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
)

func TestCanonicalJSON(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{`{"b": 1, "a": [true, null, "x"]}`, `{"a":[true,null,"x"],"b":1}`},
		{`{"n": 1.0, "m": 1e2, "f": 0.5, "big": 12345678901234567890}`, `{"big":1.2345678901234567e+19,"f":0.5,"m":100,"n":1}`},
		{`"<a & b>"`, `"<a & b>"`},
		{`{"é": 1, "z": 2, "A": 3}`, `{"A":3,"z":2,"é":1}`},
		{`-0.0`, `0`},
	}
	for _, tt := range tests {
		got, err := CanonicalJSON(json.RawMessage(tt.in))
		if err != nil {
			t.Fatalf("CanonicalJSON(%s): %v", tt.in, err)
		}
		if string(got) != tt.want {
			t.Errorf("CanonicalJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

const digestSuite = `{"suite": "S", "version": "3", "agent": {"name": "A", "command": ["true"]},
  "questions": [{"id": "q", "question": "Hi?", "expected_answer": "Hello",
    "minimum_scores": {"exact_match": 1, "semantic_accuracy": 0.9}, "metadata": {"facts": ["x"]}}]}`

func TestSuite_Digest_Algorithm(t *testing.T) {
	s := mustLoad(t, digestSuite)
	// The documented algorithm, spelled out by hand.
	canonical := `{"calculated_metrics":["exact_match"],"questions":[{"expected_actions":null,"expected_answer":"Hello",` +
		`"id":"q","metadata":{"facts":["x"]},"minimum_scores":{"exact_match":1,"semantic_accuracy":0.9},"question":"Hi?"}],` +
		`"suite":"S","version":"3"}`
	sum := sha256.Sum256([]byte(canonical))
	got, err := s.Digest(s.Calculated(false))
	if err != nil {
		t.Fatal(err)
	}
	if want := hex.EncodeToString(sum[:]); got != want {
		t.Errorf("Digest = %s, want %s", got, want)
	}
	if got != s.Plan(s.Calculated(false)).SuiteDigest {
		t.Errorf("Plan's digest differs from Digest")
	}
}

func TestSuite_Digest_Stability(t *testing.T) {
	base := mustLoad(t, digestSuite)
	calc := base.Calculated(false)
	want, _ := base.Digest(calc)
	tests := []struct {
		name  string
		suite string
		same  bool
	}{
		{"reformatted and reordered keys", `{"questions":[{"metadata":{"facts":["x"]},"minimum_scores":{"semantic_accuracy":0.90,"exact_match":1.0},
		  "expected_answer":"Hello","question":"Hi?","id":"q"}],"agent":{"command":["false"],"name":"Other"},"version":"3","suite":"S"}`, true},
		{"an unused evaluator does not count", `{"suite": "S", "version": "3", "agent": {"name": "A", "command": ["true"]},
		  "evaluators": {"unused": {"type": "contains", "params": {"value": "x"}}},
		  "questions": [{"id": "q", "question": "Hi?", "expected_answer": "Hello",
		    "minimum_scores": {"exact_match": 1, "semantic_accuracy": 0.9}, "metadata": {"facts": ["x"]}}]}`, true},
		{"threshold", `{"suite": "S", "version": "3", "agent": {"name": "A", "command": ["true"]},
		  "questions": [{"id": "q", "question": "Hi?", "expected_answer": "Hello",
		    "minimum_scores": {"exact_match": 0.5, "semantic_accuracy": 0.9}, "metadata": {"facts": ["x"]}}]}`, false},
		{"version", `{"suite": "S", "version": "4", "agent": {"name": "A", "command": ["true"]},
		  "questions": [{"id": "q", "question": "Hi?", "expected_answer": "Hello",
		    "minimum_scores": {"exact_match": 1, "semantic_accuracy": 0.9}, "metadata": {"facts": ["x"]}}]}`, false},
		{"metadata", `{"suite": "S", "version": "3", "agent": {"name": "A", "command": ["true"]},
		  "questions": [{"id": "q", "question": "Hi?", "expected_answer": "Hello",
		    "minimum_scores": {"exact_match": 1, "semantic_accuracy": 0.9}, "metadata": {"facts": ["y"]}}]}`, false},
		{"expected answer", `{"suite": "S", "version": "3", "agent": {"name": "A", "command": ["true"]},
		  "questions": [{"id": "q", "question": "Hi?", "expected_answer": "Hello!",
		    "minimum_scores": {"exact_match": 1, "semantic_accuracy": 0.9}, "metadata": {"facts": ["x"]}}]}`, false},
		{"id", `{"suite": "S", "version": "3", "agent": {"name": "A", "command": ["true"]},
		  "questions": [{"id": "q2", "question": "Hi?", "expected_answer": "Hello",
		    "minimum_scores": {"exact_match": 1, "semantic_accuracy": 0.9}, "metadata": {"facts": ["x"]}}]}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustLoad(t, tt.suite)
			got, err := s.Digest(s.Calculated(false))
			if err != nil {
				t.Fatal(err)
			}
			if (got == want) != tt.same {
				t.Errorf("digest equal = %v, want %v", got == want, tt.same)
			}
		})
	}
	withJudge, _ := base.Digest(base.Calculated(true))
	if withJudge == want {
		t.Errorf("calculating semantic_accuracy did not change the digest")
	}
}

func TestSuite_NeedsJudge(t *testing.T) {
	tests := []struct {
		name, suite string
		want        bool
	}{
		{"judge-backed metric", digestSuite, true},
		{"deterministic checks only", `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
		  "judge": {"provider": "openai", "model": "m"},
		  "questions": [{"question": "Hi?", "expected_answer": "Hello", "minimum_scores": {"exact_match": 1}}]}`, false},
		{"judge-backed suite evaluator", `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
		  "evaluators": {"facts": {"type": "semantic_accuracy"}, "exact": {"type": "exact_match"}},
		  "questions": [{"question": "Hi?", "expected_answer": "Hello"}]}`, true},
		{"default metrics", `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
		  "questions": [{"question": "Hi?", "expected_answer": "Hello"}]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustLoad(t, tt.suite)
			if got := s.NeedsJudge(); got != tt.want {
				t.Errorf("NeedsJudge = %v, want %v", got, tt.want)
			}
			with, _ := s.Digest(s.Calculated(true))
			without, _ := s.Digest(s.Calculated(false))
			if (with == without) == tt.want {
				t.Errorf("digests with and without a judge equal = %v, want %v", with == without, !tt.want)
			}
		})
	}
}

// evSuite is a suite whose question uses the evaluator "has" (params
// given as written) and whose evaluator "spare" is used by no question.
func evSuite(has, spare string) string {
	return `{"suite": "S", "version": "3", "agent": {"name": "A", "command": ["true"]},
	  "evaluators": {"has": ` + has + `, "spare": ` + spare + `},
	  "questions": [{"id": "q", "question": "Hi?", "expected_answer": "Hello", "minimum_scores": {"has": 1, "exact_match": 1}}]}`
}

// TestSuite_Digest_Evaluators: a used suite evaluator's type and params
// join the digest (canonically), an unused one's do not.
func TestSuite_Digest_Evaluators(t *testing.T) {
	const (
		has   = `{"type": "contains", "params": {"value": "Hello"}}`
		spare = `{"type": "contains", "params": {"value": "x"}}`
	)
	base := mustLoad(t, evSuite(has, spare))
	want, err := base.Digest(base.Calculated(false))
	if err != nil {
		t.Fatal(err)
	}
	canonical := `{"calculated_metrics":["exact_match","has"],"evaluators":{"has":{"params":{"value":"Hello"},"type":"contains"}},` +
		`"questions":[{"expected_actions":null,"expected_answer":"Hello","id":"q","metadata":{},` +
		`"minimum_scores":{"exact_match":1,"has":1},"question":"Hi?"}],"suite":"S","version":"3"}`
	if sum := sha256.Sum256([]byte(canonical)); hex.EncodeToString(sum[:]) != want {
		t.Errorf("Digest = %s, want the SHA-256 of %s", want, canonical)
	}
	tests := []struct {
		name, has, spare string
		same             bool
	}{
		{"used evaluator's params reformatted", `{"params": {"value":"Hello"}, "type": "contains"}`, spare, true},
		{"used evaluator's params changed", `{"type": "contains", "params": {"value": "Hi"}}`, spare, false},
		{"used evaluator's type changed", `{"type": "starts_with", "params": {"value": "Hello"}}`, spare, false},
		{"unused evaluator's params changed", has, `{"type": "contains", "params": {"value": "y"}}`, true},
		{"unused evaluator's type changed", has, `{"type": "is_url"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustLoad(t, evSuite(tt.has, tt.spare))
			got, err := s.Digest(s.Calculated(false))
			if err != nil {
				t.Fatal(err)
			}
			if (got == want) != tt.same {
				t.Errorf("digest equal = %v, want %v", got == want, tt.same)
			}
		})
	}
}

// TestSuite_Digest_Kept: a loaded suite keeps its last digest, but never
// returns it for another calculated set, for a copy of the suite, or once
// the definition changed: each of those digests equals the digest of a
// suite loaded afresh in the same state.
func TestSuite_Digest_Kept(t *testing.T) {
	fresh := func(change func(*Suite), calc []string) string {
		t.Helper()
		s := mustLoad(t, digestSuite)
		change(s)
		d, err := s.Digest(calc)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	s := mustLoad(t, digestSuite)
	calc := s.Calculated(false)
	first, _ := s.Digest(calc)
	if again, _ := s.Digest(calc); again != first {
		t.Fatalf("the same digest asked again: %s, then %s", first, again)
	}
	if both, _ := s.Digest(s.Calculated(true)); both == first || both != fresh(func(*Suite) {}, s.Calculated(true)) {
		t.Errorf("another calculated set gets the kept digest")
	}
	changes := []struct {
		name   string
		change func(*Suite)
	}{
		{"question", func(s *Suite) { s.Cases[0].Question = json.RawMessage(`"Hello?"`) }},
		{"question bytes in place", func(s *Suite) { s.Cases[0].Question[1] = 'h' }},
		{"threshold", func(s *Suite) { s.Cases[0].Metrics[0].Threshold = 0.5 }},
		{"context", func(s *Suite) { s.Cases[0].Context = []string{"passage"} }},
		{"a new case", func(s *Suite) { c := *s.Cases[0]; c.ID = "q2"; s.Cases = append(s.Cases, &c) }},
		{"version", func(s *Suite) { s.Version = "4" }},
	}
	for _, tc := range changes {
		t.Run(tc.name, func(t *testing.T) {
			s := mustLoad(t, digestSuite)
			if _, err := s.Digest(calc); err != nil {
				t.Fatal(err)
			}
			tc.change(s)
			got, _ := s.Digest(calc)
			if want := fresh(tc.change, calc); got != want || got == first {
				t.Errorf("digest after the change = %s, want %s (before: %s)", got, want, first)
			}
			cp := *s
			cp.Cases = []*Case{{ID: "other", Metadata: json.RawMessage(`{}`)}}
			if d, _ := cp.Digest(calc); d == got {
				t.Errorf("a copy of the suite with another question gets the kept digest")
			}
		})
	}
}
