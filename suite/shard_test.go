package suite

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    ShardSpec
		wantErr bool
	}{
		{"1/4", ShardSpec{1, 4}, false},
		{"4/4", ShardSpec{4, 4}, false},
		{" 2 / 3 ", ShardSpec{2, 3}, false},
		{"1/1", ShardSpec{1, 1}, false},
		{"0/4", ShardSpec{}, true},
		{"5/4", ShardSpec{}, true},
		{"1/0", ShardSpec{}, true},
		{"2", ShardSpec{}, true},
		{"a/b", ShardSpec{}, true},
	} {
		got, err := ParseShard(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestSuite_Shard: shards take every N-th question, keep the whole suite's
// digest, calculated metrics and definition ids, and plan case rows at
// their suite positions; together they cover every question once.
func TestSuite_Shard(t *testing.T) {
	var qs []string
	for i := range 10 {
		metric := `"exact":1`
		if i == 7 { // a metric only one shard uses must not change the shards' digest
			metric = `"exact":1,"has":0.5`
		}
		qs = append(qs, fmt.Sprintf(`{"id":"q%d","question":"Q%d?","expected_answer":"a","minimum_scores":{%s}}`, i, i, metric))
	}
	s := mustLoad(t, `{"suite":"S","version":"1","agent":{"name":"A","command":["true"]},
 "evaluators":{"exact":{"type":"exact_match"},"has":{"type":"contains","params":{"value":"a"}}},
 "questions":[`+strings.Join(qs, ",")+`]}`)
	whole, err := s.Digest(s.Calculated(false))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for i := 1; i <= 3; i++ {
		sh := s.Shard(ShardSpec{Index: i, Count: 3})
		plan := sh.Plan(sh.Calculated(false))
		if plan.SuiteDigest != whole {
			t.Errorf("shard %d digest %s, want the whole suite's %s", i, plan.SuiteDigest, whole)
		}
		if got := strings.Join(sh.Calculated(false), ","); got != "exact,has" {
			t.Errorf("shard %d calculates %s, want exact,has", i, got)
		}
		if got := len(sh.DefinitionIDs()); got != 10 {
			t.Errorf("shard %d definition has %d ids, want 10", i, got)
		}
		for k, c := range plan.Cases {
			if c.Position%3 != i-1 || c.CaseID != fmt.Sprintf("q%d", c.Position) || sh.Cases[k].ID != c.CaseID {
				t.Errorf("shard %d case %d: position %d, id %s", i, k, c.Position, c.CaseID)
			}
			seen[c.Position]++
		}
	}
	for p := range 10 {
		if seen[p] != 1 {
			t.Errorf("position %d is in %d shards, want 1", p, seen[p])
		}
	}
	if empty := s.Shard(ShardSpec{Index: 12, Count: 12}); len(empty.Cases) != 0 {
		t.Errorf("shard 12 of 12 of 10 questions holds %d, want none", len(empty.Cases))
	}
}
