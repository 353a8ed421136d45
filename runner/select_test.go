package runner

import (
	"agentevals/suite"
	"reflect"
	"strings"
	"testing"
)

func TestSuite_Select(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "agent": {"name": "A"}, "defaults": ["valid_json"], "questions": [
	  {"id": "refund-eu", "question": "q", "metadata": {"tags": ["billing", "eu"]}},
	  {"id": "refund-us", "question": "q", "metadata": {"tags": "billing"}},
	  {"id": "shipping", "question": "q", "metadata": {"tags": ["logistics"]}},
	  {"id": "hello", "question": "q"}]}`)
	ids := func(s *suite.Suite) []string {
		var out []string
		for _, c := range s.Cases {
			out = append(out, c.ID)
		}
		return out
	}
	tests := []struct {
		name string
		sel  suite.Selection
		want []string
		err  string
	}{
		{"none", suite.Selection{}, []string{"refund-eu", "refund-us", "shipping", "hello"}, ""},
		{"exact id", suite.Selection{IDs: []string{"hello"}}, []string{"hello"}, ""},
		{"glob", suite.Selection{IDs: []string{"refund-*"}}, []string{"refund-eu", "refund-us"}, ""},
		{"tag", suite.Selection{Tags: []string{"billing"}}, []string{"refund-eu", "refund-us"}, ""},
		{"tag and glob", suite.Selection{IDs: []string{"*-eu", "shipping"}, Tags: []string{"billing"}}, []string{"refund-eu"}, ""},
		{"failed", suite.Selection{Failed: []string{"shipping", "gone"}, FailedSource: "run X"}, []string{"shipping"}, ""},
		{"unknown id suggests", suite.Selection{IDs: []string{"refund-uk"}}, nil, `--only: no question has id "refund-uk" (did you mean "refund-us", "refund-eu"?)`},
		{"unknown tag", suite.Selection{Tags: []string{"vip"}}, nil, `--tag: no question has tag "vip" (tags come from metadata.tags; known tags: billing, eu, logistics)`},
		{"pattern matching nothing", suite.Selection{IDs: []string{"zz*"}}, nil, `--only: no question id matches the pattern "zz*"`},
		{"bad pattern", suite.Selection{IDs: []string{"[a"}}, nil, `--only: "[a" is not a valid pattern`},
		{"nothing failed", suite.Selection{Failed: []string{}, FailedSource: "run X"}, nil, `--failed-in: run X has no failed or errored question: nothing to run`},
		{"empty intersection", suite.Selection{IDs: []string{"hello"}, Tags: []string{"billing"}}, nil, `no question matches every given --only and --tag`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Select(tt.sel)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ids(got), tt.want) {
				t.Errorf("selected %v, want %v", ids(got), tt.want)
			}
		})
	}
	a, _ := s.Select(suite.Selection{IDs: []string{"refund-*"}})
	b, _ := s.Select(suite.Selection{Tags: []string{"billing"}})
	da, _ := a.Digest(a.Calculated(false))
	db, _ := b.Digest(b.Calculated(false))
	full, _ := s.Digest(s.Calculated(false))
	if da != db || da == full {
		t.Error("a subset's digest must depend only on the questions it holds, and differ from the whole suite's")
	}
}
