package tracefile

import (
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"
)

// ids are n random trace ids from a fixed seed.
func ids(n int) []string {
	rng := rand.New(rand.NewPCG(7, 11))
	out := make([]string, n)
	var b [16]byte
	for i := range out {
		for j := range b {
			b[j] = byte(rng.UintN(256))
		}
		out[i] = hex.EncodeToString(b[:])
	}
	return out
}

func TestSampled(t *testing.T) {
	tests := []struct {
		id   string
		rate float64
		want bool
	}{
		{"4bf92f3577b34da6a3ce929d0e0e4736", 1, true},
		{"4bf92f3577b34da6a3ce929d0e0e4736", 0, false},
		{"4bf92f3577b34da6a3ce929d0e0e4736", -1, false},
		{"4bf92f3577b34da6a3ce929d0e0e4736", 2, true},
	}
	for _, tc := range tests {
		if got := Sampled(tc.id, tc.rate); got != tc.want {
			t.Errorf("Sampled(%q, %v) = %v; want %v", tc.id, tc.rate, got, tc.want)
		}
	}
	// Two readers at 10 % take the same traces, whatever the case of the
	// hex; 20 % takes those and more; the share is 10 % within noise
	// (100,000 ids: the binomial's standard error is 0.095 %).
	all := ids(100000)
	var at10, at20 int
	for _, id := range all {
		a, b := Sampled(id, 0.1), Sampled(strings.ToUpper(id), 0.1)
		if a != b {
			t.Fatalf("Sampled(%s) differs by case", id)
		}
		if a {
			at10++
			if !Sampled(id, 0.2) {
				t.Fatalf("%s is in the 10 %% sample but not the 20 %%", id)
			}
		}
		if Sampled(id, 0.2) {
			at20++
		}
	}
	if at10 < 9700 || at10 > 10300 || at20 < 19600 || at20 > 20400 {
		t.Errorf("took %d and %d of 100000 at 10 %% and 20 %%; want about 10000 and 20000 (±3 standard errors)", at10, at20)
	}
}

func TestInShard(t *testing.T) {
	all := ids(30000)
	counts := make([]int, 4)
	sampledIn := make([]int, 4)
	for _, id := range all {
		n := 0
		for i := 1; i <= 3; i++ {
			if InShard(id, i, 3) {
				n++
				counts[i]++
				if Sampled(id, 0.1) {
					sampledIn[i]++
				}
			}
		}
		if n != 1 {
			t.Fatalf("%s is in %d of 3 shards; want exactly 1", id, n)
		}
		if !InShard(id, 1, 1) || !InShard(id, 1, 0) {
			t.Fatalf("one shard must hold %s", id)
		}
	}
	for i := 1; i <= 3; i++ {
		// 10,000 expected per shard, standard error about 82; a 10 % sample
		// of a shard is about 1,000 (standard error about 30).
		if counts[i] < 9700 || counts[i] > 10300 || sampledIn[i] < 900 || sampledIn[i] > 1100 {
			t.Errorf("shard %d/3 holds %d ids, %d of them sampled at 10 %%; want about 10000 and 1000", i, counts[i], sampledIn[i])
		}
	}
}

// Keep leaves cases out by key, counted.
func TestOptions_keep(t *testing.T) {
	path := writeFile(t, "traces.jsonl", jsonLines(t, traffic(t)))
	all, _, err := readAll(t, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var union int
	for i := 1; i <= 2; i++ {
		cases, st, err := readAll(t, path, Options{Keep: func(key string) bool { return InShard(key, i, 2) }})
		if err != nil {
			t.Fatal(err)
		}
		union += len(cases)
		if st.LeftOut+st.Cases != len(all) {
			t.Errorf("shard %d: %d cases and %d left out; want %d in all", i, st.Cases, st.LeftOut, len(all))
		}
		for _, c := range cases {
			if !InShard(c.ID, i, 2) {
				t.Errorf("shard %d returned %s", i, c.ID)
			}
		}
	}
	if union != len(all) {
		t.Errorf("the shards returned %d cases; want %d", union, len(all))
	}
}
