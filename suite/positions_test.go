package suite

import (
	"errors"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"io/fs"
	"path/filepath"
	"reflect"
	"testing"
)

// checkPositions compares Positions(path) with want and checks that every
// case Load reads from path has a position (ids defaulted the same way).
func checkPositions(t *testing.T, path string, want map[string]Position) {
	t.Helper()
	got, err := Positions(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Positions(%s) =\n%v\nwant\n%v", path, got, want)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Cases {
		if _, ok := got[c.ID]; !ok {
			t.Errorf("loaded case %q has no position", c.ID)
		}
	}
}

func TestPositions_JSON(t *testing.T) {
	dir := t.TempDir()
	// Line 6 holds two questions; the text of line 7's question holds
	// braces and an escaped quote that must not confuse the scan.
	path := testfile.Write(t, dir, "suite.json", `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
  "evaluators": {"exact": {"type": "exact_match", "params": {"value": "x"}}},
  "questions": [
    {"id": "returns",
     "question": "How long do I have to return an item?"},
    {"name": "Shipping time", "question": "How long?"}, {"question": "When are you open?"},
    {"question": "Is {this} a \"question\", [really]?"}
    ,
      {
        "question": {"text": "structured"}
      }
  ]
}
`)
	checkPositions(t, path, map[string]Position{
		"returns":                           {path, 4},
		"Shipping time":                     {path, 6},
		"When are you open?":                {path, 6},
		`Is {this} a "question", [really]?`: {path, 7},
		"Question 5":                        {path, 9},
	})
}

func TestPositions_GoldenSet(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "evals/data/golden.jsonl", `{"id": "g1", "input": "What is 2+2?", "expected": "4"}

  {"input": {"text": "structured"}, "expected": {"n": 1}}
{"input": "Capital of France?", "expected": "Paris"}
`)
	// golden_set comes before questions: inline questions still count first.
	path := testfile.Write(t, dir, "evals/suite.json", `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
  "evaluators": {"exact": {"type": "exact_match", "params": {"value": "x"}}}, "golden_set": "data/golden.jsonl",
  "questions": [{"id": "inline", "question": "Hi"}]}`)
	golden := filepath.Join(dir, "evals", "data", "golden.jsonl")
	checkPositions(t, path, map[string]Position{
		"inline":             {path, 3},
		"g1":                 {golden, 1},
		"Question 3":         {golden, 3},
		"Capital of France?": {golden, 4},
	})
}

func TestPositions_YAML(t *testing.T) {
	dir := t.TempDir()
	path := testfile.Write(t, dir, "suite.yaml", `suite: S
agent: {name: A, command: ["true"]}
evaluators:
  exact: {type: exact_match, params: {value: x}}
# the questions
"questions":
  - id: returns
    question: How long do I have to return an item?

  - name: Shipping time
    question: How long?
  - {question: "When are you open?"}
  -
    question:
      text: structured
`)
	checkPositions(t, path, map[string]Position{
		"returns":            {path, 7},
		"Shipping time":      {path, 10},
		"When are you open?": {path, 12},
		"Question 4":         {path, 14},
	})
}

func TestPositions_MissingFile(t *testing.T) {
	_, err := Positions(filepath.Join(t.TempDir(), "nope.json"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want a wrapped fs.ErrNotExist", err)
	}
}
