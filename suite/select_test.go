package suite

import (
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
	ids := func(s *Suite) []string {
		var out []string
		for _, c := range s.Cases {
			out = append(out, c.ID)
		}
		return out
	}
	tests := []struct {
		name string
		sel  Selection
		want []string
		err  string
	}{
		{"none", Selection{}, []string{"refund-eu", "refund-us", "shipping", "hello"}, ""},
		{"exact id", Selection{IDs: []string{"hello"}}, []string{"hello"}, ""},
		{"glob", Selection{IDs: []string{"refund-*"}}, []string{"refund-eu", "refund-us"}, ""},
		{"tag", Selection{Tags: []string{"billing"}}, []string{"refund-eu", "refund-us"}, ""},
		{"tag and glob", Selection{IDs: []string{"*-eu", "shipping"}, Tags: []string{"billing"}}, []string{"refund-eu"}, ""},
		{"failed", Selection{Failed: []string{"shipping", "gone"}, FailedSource: "run X"}, []string{"shipping"}, ""},
		{"unknown id suggests", Selection{IDs: []string{"refund-uk"}}, nil, `--only: no question has id "refund-uk" (did you mean "refund-us", "refund-eu"?)`},
		{"unknown tag", Selection{Tags: []string{"vip"}}, nil, `--tag: no question has tag "vip" (tags come from metadata.tags; known tags: billing, eu, logistics)`},
		{"pattern matching nothing", Selection{IDs: []string{"zz*"}}, nil, `--only: no question id matches the pattern "zz*"`},
		{"bad pattern", Selection{IDs: []string{"[a"}}, nil, `--only: "[a" is not a valid pattern`},
		{"nothing failed", Selection{Failed: []string{}, FailedSource: "run X"}, nil, `--failed-in: run X has no failed or errored question: nothing to run`},
		{"empty intersection", Selection{IDs: []string{"hello"}, Tags: []string{"billing"}}, nil, `no question matches every given --only and --tag`},
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
	a, _ := s.Select(Selection{IDs: []string{"refund-*"}})
	b, _ := s.Select(Selection{Tags: []string{"billing"}})
	da, _ := a.Digest(a.Calculated(false))
	db, _ := b.Digest(b.Calculated(false))
	full, _ := s.Digest(s.Calculated(false))
	if da != db || da == full {
		t.Error("a subset's digest must depend only on the questions it holds, and differ from the whole suite's")
	}
}
