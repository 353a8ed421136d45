package provider

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentevals-go/agentevals/llm"
)

func TestCache_HitsMissesAndErrors(t *testing.T) {
	dir := t.TempDir()
	srv := newScripted(t, llm.ProviderOllama,
		step{status: 500, raw: true}, step{status: 500, raw: true}, step{status: 500, raw: true},
		step{status: 200, content: `{"reason":"Fine.","score":0.8}`})
	cache, err := OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	j, err := NewJudge(srv.settings(), testOptions(), cache)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := j.Assess(ctx, "s", "u"); err == nil {
		t.Fatal("want the persistent 500 to fail")
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != 0 {
		t.Fatalf("an error was cached: %v", files)
	}
	a1, err := j.Assess(ctx, "s", "u")
	if err != nil {
		t.Fatal(err)
	}
	a2, err := j.Assess(ctx, "s", "u")
	if err != nil {
		t.Fatal(err)
	}
	if a1.Score != 0.8 || a2.Score != 0.8 || a2.Reason != "Fine." {
		t.Errorf("verdicts = %+v / %+v", a1, a2)
	}
	if got := a2.Details["judge_cache"]; got != "hit" {
		t.Errorf("second verdict cache = %v, want hit", got)
	}
	if a2.Usage == nil || a2.Usage.InputTokens != 0 || a2.Usage.Cost == nil || *a2.Usage.Cost != 0 {
		t.Errorf("hit usage = %+v, want nothing spent", a2.Usage)
	}
	if got, want := srv.count(), 4; got != want {
		t.Errorf("requests = %d, want %d", got, want)
	}
	if st := cache.Stats(); st.Hits != 1 || st.Misses != 2 {
		t.Errorf("stats = %+v, want 1 hit, 2 misses", st)
	}
	// A different prompt or setting is a different key.
	s := srv.settings()
	if cache.Key(s, "s", "u") == cache.Key(s, "s", "u2") {
		t.Error("key ignores the user prompt")
	}
	temp := 0.5
	s2 := s
	s2.Temperature = &temp
	if cache.Key(s, "s", "u") == cache.Key(s2, "s", "u") {
		t.Error("key ignores the temperature")
	}
}

func TestCache_Concurrent(t *testing.T) {
	srv := newScripted(t, llm.ProviderOpenAI, step{status: 200, content: `{"reason":"Same.","score":0.6}`})
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j, err := NewJudge(srv.settings(), testOptions(), cache)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := []string{"a", "b"}[i%2]
			if a, err := j.Assess(context.Background(), "s", user); err != nil || a.Score != 0.6 {
				t.Errorf("Assess = %+v, %v", a, err)
			}
		}()
	}
	wg.Wait()
	st := cache.Stats()
	if st.Hits+st.Misses != 16 || int64(srv.count()) != st.Misses {
		t.Errorf("stats = %+v with %d requests, want hits+misses = 16 and one request per miss", st, srv.count())
	}
}

func TestCache_CorruptEntryIsAMiss(t *testing.T) {
	dir := t.TempDir()
	cache, err := OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	key := cache.Key(llm.Settings{Provider: "openai", Model: "m"}, "s", "u")
	if err := os.WriteFile(filepath.Join(dir, key+".json"), []byte(`{"v":1,"score":7,"reason":"x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := cache.get(key); ok {
		t.Error("an out-of-range entry was served")
	}
	if err := cache.put(key, 0.4, "ok"); err != nil {
		t.Fatal(err)
	}
	if a, ok := cache.get(key); !ok || a.Score != 0.4 {
		t.Errorf("get = %+v %v", a, ok)
	}
}
