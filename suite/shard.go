package suite

import (
	"fmt"
	"strconv"
	"strings"
)

// ShardSpec names one slice of a sharded run: shard Index (1-based) of
// Count runs the questions whose 0-based suite position p satisfies
// p mod Count == Index-1. Taking every Count-th question balances the
// shards (their sizes differ by at most one) and spreads slow neighbours
// apart; the slice depends only on the suite order, so every machine of a
// CI matrix computes the same one.
type ShardSpec struct {
	Index, Count int
}

// ParseShard reads "I/N" with 1 <= I <= N.
func ParseShard(s string) (ShardSpec, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 1 || index > count {
		return ShardSpec{}, fmt.Errorf("--shard: want I/N with 1 <= I <= N, such as 2/4, got %q", s)
	}
	return ShardSpec{Index: index, Count: count}, nil
}

// Shard returns the suite restricted to one slice (see ShardSpec). Unlike
// Only, the slice keeps the whole suite's definition: its digest and
// calculated metrics are the whole suite's and its case rows carry their
// positions in the whole suite, so merged shards form the run an unsharded
// execution stores. A shard is never a run on its own: save it to an
// evidence file and merge the shards. Shards beyond the number of
// questions are empty.
func (s *Suite) Shard(spec ShardSpec) *Suite {
	cp := *s
	cp.Cases = nil
	cp.positions = nil
	cp.whole = s.wholeSuite()
	for p, c := range s.Cases {
		if p%spec.Count == spec.Index-1 {
			cp.Cases = append(cp.Cases, c)
			cp.positions = append(cp.positions, p)
		}
	}
	return &cp
}

// wholeSuite is the suite a shard was cut from (the suite itself when it is
// not a shard).
func (s *Suite) wholeSuite() *Suite {
	if s.whole != nil {
		return s.whole
	}
	return s
}

// position is the suite position of the i-th case of s.
func (s *Suite) position(i int) int {
	if s.positions != nil {
		return s.positions[i]
	}
	return i
}

// DefinitionIDs lists every question id of the definition in suite order:
// for a shard, those of the whole suite.
func (s *Suite) DefinitionIDs() []string {
	w := s.wholeSuite()
	ids := make([]string, len(w.Cases))
	for i, c := range w.Cases {
		ids[i] = c.ID
	}
	return ids
}
